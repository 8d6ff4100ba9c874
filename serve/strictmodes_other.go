//go:build !unix

package serve

// Where files have no Unix owner and mode, there is nothing for
// StrictModes to check (strictmodes.go says what is checked elsewhere).

// checkAllowlist accepts the allowlist.
func checkAllowlist(string) error { return nil }

// checkHostKey accepts the host key.
func checkHostKey(string) error { return nil }

// checkFolderOf accepts the folder.
func checkFolderOf(string, string, string) error { return nil }

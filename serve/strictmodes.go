//go:build unix

package serve

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// The checks OpenSSH's StrictModes makes before it trusts a file, made
// here for the allowlist and the host key: whoever can write the allowlist
// can let themselves in, and whoever can read the host key can pose as
// this server. A file is trusted when it is owned by us or by root, and
// every folder up its path is too and is writable by nobody else, unless
// it has the sticky bit (as /tmp has), where others cannot replace what we
// own. As in OpenSSH, the walk up a file in our home folder stops at the
// home folder.

// checkAllowlist refuses an allowlist file that others could change.
func checkAllowlist(path string) error {
	return checkFile(path, 0o022, "--authorized-keys", "writable by others than you", "chmod go-w")
}

// checkHostKey refuses a host key file that others could read or change.
func checkHostKey(path string) error {
	return checkFile(path, 0o077, "--host-key", "open to others than you", "chmod 600")
}

// checkFile refuses path when its mode has any of the bits others (group
// or world) must not have, when it is owned by another user, or when a
// folder up its path is not ours alone. flag names the file's option in
// what is said; open and fix say what is wrong with such a mode and the
// command that mends it.
func checkFile(path string, others fs.FileMode, flag, open, fix string) error {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	st, err := os.Stat(real)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s %s: not a regular file", flag, path)
	}
	if uid, ok := owner(st); ok && !trustedOwner(uid) {
		return fmt.Errorf("%s %s: owned by user %d, not by you or root: StrictModes refuses it, as sshd would; chown it to yourself", flag, path, uid)
	}
	if perm := st.Mode().Perm(); perm&others != 0 {
		return fmt.Errorf("%s %s: %s (mode %04o): StrictModes refuses it, as sshd would; %s %s", flag, path, open, perm, fix, path)
	}
	return checkFolders(filepath.Dir(real), flag, path)
}

// checkFolders refuses a file (named path, under flag) in folder dir when
// dir, or a folder above it, belongs to another user or lets others
// replace what it holds. For a file in our home folder the walk stops at
// the home folder.
func checkFolders(dir, flag, path string) error {
	home := homeFolder()
	for {
		st, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("%s %s: %w", flag, path, err)
		}
		if uid, ok := owner(st); ok && !trustedOwner(uid) {
			return fmt.Errorf("%s %s: the folder %s is owned by user %d, not by you or root, who could replace the file: StrictModes refuses it, as sshd would; keep the file in a folder of yours", flag, path, dir, uid)
		}
		if perm := st.Mode().Perm(); perm&0o022 != 0 && st.Mode()&fs.ModeSticky == 0 {
			return fmt.Errorf("%s %s: the folder %s is writable by others than you (mode %04o), who could replace the file: StrictModes refuses it, as sshd would; chmod go-w %s", flag, path, dir, perm, dir)
		}
		up := filepath.Dir(dir)
		if dir == home || up == dir {
			return nil
		}
		dir = up
	}
}

// checkFolderOf refuses to make a file (named path, under flag) in dir
// when others could replace it there.
func checkFolderOf(dir, flag, path string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	real, err = filepath.Abs(real)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return checkFolders(real, flag, path)
}

// owner is the user that owns the file st describes.
func owner(st fs.FileInfo) (uint32, bool) {
	s, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return s.Uid, true
}

// trustedOwner says whether a file of user uid may be trusted: ours or
// root's.
func trustedOwner(uid uint32) bool {
	return uid == 0 || int(uid) == os.Getuid()
}

// homeFolder is our home folder with its links resolved ("" when there
// is none).
func homeFolder() string {
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	if real, err := filepath.EvalSymlinks(home); err == nil {
		home = real
	}
	return home
}

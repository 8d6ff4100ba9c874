//go:build unix

package serve

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// strictCase is a file laid out in a folder by set, and what the refusal
// must say ("" when the file is to be accepted).
type strictCase struct {
	name string
	set  func(t *testing.T, dir, file string)
	want string
}

// chmod sets path's mode, failing the test if it cannot.
func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// chownOther gives path to a user that is neither us nor root, skipping
// the test where we may not.
func chownOther(t *testing.T, path string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("only root can give a file to another user")
	}
	if err := os.Chown(path, 4242, -1); err != nil {
		t.Fatal(err)
	}
}

// The folder cases both files share: the file's own folder, and one up the
// path, writable by others, or owned by another user; the sticky bit makes
// a folder writable by all safe (others cannot replace what we own there).
func folderCases() []strictCase {
	return []strictCase{
		{"folder writable by all", func(t *testing.T, dir, file string) { chmod(t, filepath.Dir(file), 0o777) }, "is writable by others than you (mode 0777)"},
		{"folder writable by its group", func(t *testing.T, dir, file string) { chmod(t, filepath.Dir(file), 0o770) }, "is writable by others than you (mode 0770)"},
		{"folder up the path writable by all", func(t *testing.T, dir, file string) { chmod(t, dir, 0o777) }, "the folder " + "DIR" + " is writable"},
		{"sticky folder writable by all", func(t *testing.T, dir, file string) { chmod(t, filepath.Dir(file), 0o777|os.ModeSticky) }, ""},
		{"folder of another user", func(t *testing.T, dir, file string) { chownOther(t, filepath.Dir(file)) }, "is owned by user 4242"},
	}
}

// runStrict lays each case out as dir/keys/FILE, with content written
// mode 0600, and checks what load says of it.
func runStrict(t *testing.T, name string, content []byte, cases []strictCase, load func(path string) error) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			file := filepath.Join(dir, "keys", name)
			if err := os.Mkdir(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, content, 0o600); err != nil {
				t.Fatal(err)
			}
			c.set(t, dir, file)
			err := load(file)
			switch want := strings.ReplaceAll(c.want, "DIR", dir); {
			case want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case want != "" && err == nil:
				t.Errorf("accepted; want it refused with %q", want)
			case want != "" && (!strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), file)):
				t.Errorf("refused with %q; want it to name %s and say %q", err, file, want)
			}
		})
	}
}

// An allowlist that others could write, or that sits where others could
// replace it, is refused at start with the reason, as sshd's StrictModes
// refuses it.
func TestAllowlistStrictModes(t *testing.T) {
	line := gossh.MarshalAuthorizedKey(newSigner(t).PublicKey())
	cases := append([]strictCase{
		{"mode 0600", func(*testing.T, string, string) {}, ""},
		{"mode 0644", func(t *testing.T, _, file string) { chmod(t, file, 0o644) }, ""},
		{"writable by all", func(t *testing.T, _, file string) { chmod(t, file, 0o666) }, "writable by others than you (mode 0666)"},
		{"writable by its group", func(t *testing.T, _, file string) { chmod(t, file, 0o620) }, "writable by others than you (mode 0620)"},
		{"owned by another user", func(t *testing.T, _, file string) { chownOther(t, file) }, "owned by user 4242"},
	}, folderCases()...)
	runStrict(t, "authorized_keys", line, cases, func(path string) error {
		_, _, err := LoadKeys(path)
		return err
	})
}

// An allowlist made writable by others while the server runs lets nobody
// in from then on.
func TestAllowlistStrictModesAtLogin(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	chmod(t, filepath.Join(ts.dir, "authorized_keys"), 0o666)
	if c, err := ts.dial("viewer", gossh.PublicKeys(ts.allowed)); err == nil {
		c.Close()
		t.Fatal("a listed key got in through an allowlist anyone can write")
	}
	if log := ts.log.String(); !strings.Contains(log, "writable by others than you") {
		t.Errorf("the log does not say why:\n%s", log)
	}
}

// A host key that others could read, or that sits where others could
// replace it, is refused at start; so is making one in such a folder.
func TestHostKeyStrictModes(t *testing.T) {
	dir := t.TempDir()
	made := filepath.Join(dir, "made")
	if _, _, err := HostKey(made); err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(made)
	if err != nil {
		t.Fatal(err)
	}
	cases := append([]strictCase{
		{"mode 0600", func(*testing.T, string, string) {}, ""},
		{"mode 0400", func(t *testing.T, _, file string) { chmod(t, file, 0o400) }, ""},
		{"readable by all", func(t *testing.T, _, file string) { chmod(t, file, 0o644) }, "open to others than you (mode 0644)"},
		{"readable by its group", func(t *testing.T, _, file string) { chmod(t, file, 0o640) }, "open to others than you (mode 0640)"},
		{"owned by another user", func(t *testing.T, _, file string) { chownOther(t, file) }, "owned by user 4242"},
	}, folderCases()...)
	runStrict(t, "host_key", key, cases, func(path string) error {
		_, _, err := HostKey(path)
		return err
	})

	open := filepath.Join(t.TempDir(), "open")
	if err := os.Mkdir(open, 0o777); err != nil {
		t.Fatal(err)
	}
	chmod(t, open, 0o777)
	path := filepath.Join(open, "agentwatch", "ssh_host_ed25519_key")
	if _, _, err := HostKey(path); err == nil || !strings.Contains(err.Error(), "the folder "+open+" is writable") {
		t.Errorf("a new host key under a folder anyone can write: %v", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("the host key was made there all the same")
	}
}

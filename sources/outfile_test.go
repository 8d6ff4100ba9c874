package sources

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// outputCase is a path prepared in a fresh folder, and whether agentwatch
// may write to it.
type outputCase struct {
	name string
	make func(t *testing.T, dir string) string
	ok   bool
}

// symlink makes a link at dir/name to target, skipping the test where
// links cannot be made.
func symlink(t *testing.T, target, dir, name string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.Symlink(target, p); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	return p
}

// outputCases are the kinds of path every output must handle; the
// platform's own (named pipes, devices) are added in outfile_*_test.go.
var outputCases = []outputCase{
	{"new path", func(t *testing.T, dir string) string { return filepath.Join(dir, "new.json") }, true},
	{"regular file", func(t *testing.T, dir string) string {
		p := filepath.Join(dir, "old.json")
		os.WriteFile(p, []byte("old"), 0o640)
		return p
	}, true},
	{"directory", func(t *testing.T, dir string) string {
		p := filepath.Join(dir, "sub")
		os.Mkdir(p, 0o700)
		return p
	}, false},
	{"link to a regular file", func(t *testing.T, dir string) string {
		os.WriteFile(filepath.Join(dir, "target.json"), []byte("old"), 0o640)
		return symlink(t, "target.json", dir, "link.json")
	}, true},
	{"link to a directory", func(t *testing.T, dir string) string {
		return symlink(t, dir, dir, "link")
	}, false},
	{"link to nothing", func(t *testing.T, dir string) string {
		return symlink(t, "nowhere", dir, "dangling")
	}, false},
}

// snapshot is what a path is, to tell that a refusal left it alone.
func snapshot(p string) string {
	st, err := os.Lstat(p)
	if err != nil {
		return err.Error()
	}
	s := st.Mode().String()
	if st.Mode()&fs.ModeSymlink != 0 {
		target, _ := os.Readlink(p)
		s += " -> " + target
	}
	return s
}

// ReplaceOutput writes a regular file or a new path through a temporary
// file, and refuses anything else by name, leaving it as it was; a link to
// a regular file stays a link and its target gets the content; a file
// replaced keeps its mode, a new one is 0600.
func TestReplaceOutput(t *testing.T) {
	for _, tc := range allOutputCases() {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := tc.make(t, dir)
			before := snapshot(p)
			beforeMode := fs.FileMode(0)
			if st, err := os.Stat(p); err == nil {
				beforeMode = st.Mode().Perm()
			}
			err := ReplaceOutput(p, func(w io.Writer) error {
				_, err := io.WriteString(w, "new")
				return err
			})
			if !tc.ok {
				if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) {
					t.Fatalf("got %v, want a refusal naming %s", err, p)
				}
				if after := snapshot(p); after != before {
					t.Fatalf("refused, yet %s changed: %s, was %s", p, after, before)
				}
				if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*")); len(leftovers) > 0 {
					t.Fatalf("temporary files left: %v", leftovers)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(p); string(b) != "new" {
				t.Fatalf("%s holds %q", p, b)
			}
			if after := snapshot(p); strings.Contains(before, " -> ") && after != before {
				t.Fatalf("the link became %s, was %s", after, before)
			}
			st, _ := os.Stat(p)
			want := beforeMode
			if want == 0 {
				want = 0o600
			}
			if st.Mode().Perm() != want {
				t.Fatalf("mode %v, want %v", st.Mode().Perm(), want)
			}
		})
	}
}

// OpenOutput appends to a regular file (through a link too) or creates a
// new one with mode 0600, and refuses the rest, before opening it.
func TestOpenOutput(t *testing.T) {
	for _, tc := range allOutputCases() {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.make(t, t.TempDir())
			before := snapshot(p)
			existed := before != "" && !strings.Contains(before, "no such file")
			f, err := OpenOutput(p, os.O_WRONLY|os.O_APPEND)
			if !tc.ok {
				if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), p) {
					t.Fatalf("got %v, want a refusal naming %s", err, p)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("+")
			f.Close()
			b, _ := os.ReadFile(p)
			if existed && string(b) != "old+" || !existed && string(b) != "+" {
				t.Fatalf("%s holds %q", p, b)
			}
			if !existed {
				if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
					t.Fatalf("new file mode %v, want 0600", st.Mode().Perm())
				}
			}
		})
	}
}

// CreateOutput makes only new files, 0600, and says what is in the way.
func TestCreateOutput(t *testing.T) {
	for _, tc := range allOutputCases() {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.make(t, t.TempDir())
			f, err := CreateOutput(p)
			switch {
			case tc.name == "new path":
				if err != nil {
					t.Fatal(err)
				}
				f.Close()
				if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
					t.Fatalf("mode %v, want 0600", st.Mode().Perm())
				}
			case tc.ok:
				if !errors.Is(err, fs.ErrExist) {
					t.Fatalf("got %v, want fs.ErrExist", err)
				}
			default:
				if !errors.Is(err, ErrNotRegular) {
					t.Fatalf("got %v, want ErrNotRegular", err)
				}
			}
		})
	}
}

package acpconn

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrOutside is returned for a path that leads out of the session folder.
var ErrOutside = errors.New("outside the session folder")

// Folder is the session folder an agent may read and write through the
// client's fs methods: every path must name a file inside it, after
// symlinks are resolved, so neither "..", an absolute path elsewhere nor a
// symlink that leads out reaches another file.
type Folder struct {
	root string // absolute, symlinks resolved
}

// NewFolder confines file access to dir.
func NewFolder(dir string) (*Folder, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("session folder: %w", err)
	}
	return &Folder{root: real}, nil
}

// Root is the folder's absolute path.
func (f *Folder) Root() string { return f.root }

// inside reports whether p (absolute, clean) is the root or below it.
func (f *Folder) inside(p string) bool {
	if p == f.root {
		return true
	}
	return strings.HasPrefix(p, f.root+string(filepath.Separator))
}

// resolve checks path and returns the real file it names. ACP paths are
// absolute; a relative one is refused rather than guessed at. For a file
// that does not exist yet (a write), its folder must exist inside.
func (f *Folder) resolve(path string) (string, error) {
	if path == "" || !filepath.IsAbs(path) {
		return "", fmt.Errorf("%q: ACP paths must be absolute", path)
	}
	if strings.ContainsRune(path, 0) {
		return "", fmt.Errorf("%q: path has a NUL byte", path)
	}
	clean := filepath.Clean(path)
	if !f.inside(clean) {
		return "", fmt.Errorf("%s: %w %s", path, ErrOutside, f.root)
	}
	real, err := filepath.EvalSymlinks(clean)
	if errors.Is(err, fs.ErrNotExist) {
		dir, err := filepath.EvalSymlinks(filepath.Dir(clean))
		if err != nil {
			return "", fmt.Errorf("%s: %w", path, err)
		}
		real = filepath.Join(dir, filepath.Base(clean))
	} else if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if !f.inside(real) {
		return "", fmt.Errorf("%s: %w %s (through a symlink)", path, ErrOutside, f.root)
	}
	return real, nil
}

// MaxReadBytes caps a file read for an agent.
const MaxReadBytes = 16 << 20

// Read returns the text of a file inside the folder, from line (1-based;
// 0 or less means 1) and at most limit lines (0 or less: all).
func (f *Folder) Read(path string, line, limit int) (string, error) {
	real, err := f.resolve(path)
	if err != nil {
		return "", err
	}
	st, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !st.Mode().IsRegular() {
		return "", fmt.Errorf("%s: not a regular file", path)
	}
	if st.Size() > MaxReadBytes {
		return "", fmt.Errorf("%s: %d bytes, more than the %d a client serves", path, st.Size(), MaxReadBytes)
	}
	b, err := os.ReadFile(real)
	if err != nil {
		return "", err
	}
	text := string(b)
	if line <= 1 && limit <= 0 {
		return text, nil
	}
	lines := strings.SplitAfter(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	from := max(line, 1) - 1
	if from >= len(lines) {
		return "", nil
	}
	to := len(lines)
	if limit > 0 {
		to = min(to, from+limit)
	}
	return strings.Join(lines[from:to], ""), nil
}

// Write creates or replaces a file inside the folder (its folder must
// exist), as fs/write_text_file asks.
func (f *Folder) Write(path, content string) error {
	real, err := f.resolve(path)
	if err != nil {
		return err
	}
	if st, err := os.Lstat(real); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file", path)
	}
	return os.WriteFile(real, []byte(content), 0o644)
}

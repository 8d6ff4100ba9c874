package acpconn

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// ErrOutside is returned for a path that leads out of the session folder.
var ErrOutside = errors.New("outside the session folder")

// Folder is the session folder an agent may read and write through the
// client's fs methods: every path must name a file inside it, so neither
// "..", an absolute path elsewhere nor a symlink that leads out reaches
// another file. The check and the opening are one step: files are opened
// through an os.Root, which refuses to leave the folder at the moment of
// opening, so a symlink swapped in after a path was checked leads nowhere.
type Folder struct {
	root string   // absolute, symlinks resolved
	dir  *os.Root // the folder, opened: every file is opened through it
}

// NewFolder confines file access to dir. Close releases it.
func NewFolder(dir string) (*Folder, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, fmt.Errorf("session folder: %w", err)
	}
	opened, err := os.OpenRoot(real)
	if err != nil {
		return nil, fmt.Errorf("session folder: %w", err)
	}
	return &Folder{root: real, dir: opened}, nil
}

// Close releases the open folder; the Folder serves no file after it.
func (f *Folder) Close() error { return f.dir.Close() }

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

// open checks path and opens the file it names through the open folder,
// never blocking on a named pipe (a FIFO opens at once and is then refused
// as not a regular file). Whether the file is one is asked of the opened
// file, not of its path, which may lead elsewhere by then; its FileInfo is
// returned with it.
func (f *Folder) open(path string, flag int) (*os.File, fs.FileInfo, error) {
	real, err := f.resolve(path)
	if err != nil {
		return nil, nil, err
	}
	rel, err := filepath.Rel(f.root, real)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w %s", path, ErrOutside, f.root)
	}
	file, err := f.dir.OpenFile(rel, flag|syscall.O_NONBLOCK, 0o644)
	if err != nil {
		if escapes(err) {
			return nil, nil, fmt.Errorf("%s: %w %s (through a symlink)", path, ErrOutside, f.root)
		}
		return nil, nil, fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	st, err := file.Stat()
	if err == nil && !st.Mode().IsRegular() {
		err = fmt.Errorf("%s: not a regular file", path)
	}
	if err != nil {
		file.Close()
		return nil, nil, err
	}
	return file, st, nil
}

// escapes reports whether an os.Root refused a path for leading out of
// it. The os package has no exported error for it; its words are matched,
// and another error is reported as it is, which is still a refusal.
func escapes(err error) bool {
	return strings.Contains(err.Error(), "path escapes from parent")
}

// unwrapPath is the cause of a *fs.PathError, whose path is the relative
// one the folder opened: the caller names the agent's path instead.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Read returns the text of a file inside the folder, from line (1-based;
// 0 or less means 1) and at most limit lines (0 or less: all).
func (f *Folder) Read(path string, line, limit int) (string, error) {
	file, st, err := f.open(path, os.O_RDONLY)
	if err != nil {
		return "", err
	}
	defer file.Close()
	if st.Size() > MaxReadBytes {
		return "", fmt.Errorf("%s: %d bytes, more than the %d a client serves", path, st.Size(), MaxReadBytes)
	}
	// The file may grow after Stat: what is read is capped all the same.
	b, err := io.ReadAll(io.LimitReader(file, MaxReadBytes+1))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	if len(b) > MaxReadBytes {
		return "", fmt.Errorf("%s: more than the %d bytes a client serves", path, MaxReadBytes)
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
// exist), as fs/write_text_file asks. The file is truncated only once it
// is open and known to be a regular file.
func (f *Folder) Write(path, content string) error {
	file, _, err := f.open(path, os.O_WRONLY|os.O_CREATE)
	if err != nil {
		return err
	}
	err = file.Truncate(0)
	if err == nil {
		_, err = io.WriteString(file, content)
	}
	if cerr := file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", path, unwrapPath(err))
	}
	return nil
}

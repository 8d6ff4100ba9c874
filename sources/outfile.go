package sources

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// What agentwatch writes goes to a regular file or to a path where nothing
// is yet. A directory, a device, a named pipe or a socket is refused, and
// so is a symbolic link to one (or to nothing): replacing /dev/null with a
// regular file, or blocking forever on a pipe nobody reads, is never what
// the user meant. A symbolic link to a regular file is followed: the file
// it points to is written (appended to, or replaced by a temporary file
// made in its own folder) and the link itself stays.

// ErrNotRegular is wrapped by the error for an output path that names
// something other than a regular file.
var ErrNotRegular = errors.New("not a regular file")

// outputPerm is the mode of an output file agentwatch creates: what it
// writes comes from agent transcripts, which are private.
const outputPerm fs.FileMode = 0o600

// notRegularError says what path is instead of a regular file.
type notRegularError struct {
	path string
	what string
}

func (e *notRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file: agentwatch writes only to a regular file or a new path", e.path, e.what)
}

func (e *notRegularError) Unwrap() error { return ErrNotRegular }

// fileKind names what a file mode says a file is, with its article.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// outputTarget checks path as a place to write and returns the file to
// write: path itself, or for a symbolic link the regular file it leads to.
// st is that file's information, nil when nothing is there yet.
func outputTarget(path string) (target string, st fs.FileInfo, err error) {
	st, err = os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil, nil
	}
	if err != nil {
		return "", nil, err
	}
	target = path
	if st.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", nil, &notRegularError{path: path, what: "a symbolic link that leads nowhere"}
		}
		if st, err = os.Lstat(target); err != nil {
			return "", nil, err
		}
		if !st.Mode().IsRegular() {
			return "", nil, &notRegularError{path: path, what: "a symbolic link to " + fileKind(st.Mode())}
		}
	}
	if !st.Mode().IsRegular() {
		return "", nil, &notRegularError{path: path, what: fileKind(st.Mode())}
	}
	return target, st, nil
}

// CheckOutput reports whether agentwatch may write to path: nil for a
// regular file, a symbolic link to one, or a path where nothing is yet; an
// error wrapping ErrNotRegular (naming path and what it is) otherwise.
func CheckOutput(path string) error {
	_, _, err := outputTarget(path)
	return err
}

// CreateOutput creates a new file at path for writing, with mode 0600. It
// never opens something that is already there: an existing path is an
// error wrapping fs.ErrExist, or ErrNotRegular when it is not a regular
// file.
func CreateOutput(path string) (*os.File, error) {
	if err := CheckOutput(path); err != nil {
		return nil, err
	}
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, outputPerm)
}

// OpenOutput opens path for writing with flag (os.O_WRONLY or os.O_RDWR,
// with os.O_APPEND if wanted), creating it with mode 0600 when nothing is
// there. A symbolic link to a regular file opens that file; anything that
// is not a regular file is refused with an error wrapping ErrNotRegular,
// before it is opened (opening a named pipe would wait for a reader) and
// again after, in case it was swapped meanwhile.
func OpenOutput(path string, flag int) (*os.File, error) {
	target, st, err := outputTarget(path)
	if err != nil {
		return nil, err
	}
	if st == nil {
		flag |= os.O_CREATE | os.O_EXCL
	}
	f, err := os.OpenFile(target, flag, outputPerm)
	if err != nil {
		return nil, err
	}
	got, err := f.Stat()
	if err == nil && (!got.Mode().IsRegular() || (st != nil && !os.SameFile(st, got))) {
		err = &notRegularError{path: path, what: "replaced while it was opened"}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReplaceOutput writes a whole file at path through write: into a
// temporary file in the same folder, synced, and then renamed over path,
// so path holds either what it held or all of the new content, never a
// part. An existing file keeps its permissions; a new one gets mode 0600.
// A symbolic link to a regular file has the file it leads to replaced, and
// stays a link. Anything that is not a regular file is refused with an
// error wrapping ErrNotRegular, and left as it is.
func ReplaceOutput(path string, write func(io.Writer) error) error {
	target, st, err := outputTarget(path)
	if err != nil {
		return err
	}
	perm := outputPerm
	if st != nil {
		perm = st.Mode().Perm()
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	err = tmp.Chmod(perm)
	if err == nil {
		err = write(tmp)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	// Whatever took path's place while the content was written is checked
	// again: a rename would replace even a device.
	if now, _, err := outputTarget(path); err != nil {
		return err
	} else if now != target {
		return &notRegularError{path: path, what: "a link that changed while it was written"}
	}
	return os.Rename(tmp.Name(), target)
}

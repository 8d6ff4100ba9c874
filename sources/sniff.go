package sources

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// sniffBytes is how much of a file's start is read to tell whether it is a log.
const sniffBytes = 512

// sniffVerdict is what a look at a file's first bytes decided.
type sniffVerdict int

const (
	// sniffLog: the file starts like an event log.
	sniffLog sniffVerdict = iota
	// sniffBlank: the file holds nothing but a byte order mark and white
	// space so far; it is a log about to be written, or not.
	sniffBlank
	// sniffNot: the file is not opened as a log; the reason says why.
	sniffNot
	// sniffGone: the file is no longer there.
	sniffGone
)

// NotALog says why the file at path is not opened as an event log of a
// folder ("" when it is one): it is hidden (its name starts with a dot), a
// folder, not a regular file, cannot be read, or starts with neither a JSON
// value ([ or {) nor an SSE field, after a byte order mark and white space.
// An empty file is a log about to be written.
func NotALog(path string) string {
	v, why := sniff(path)
	switch v {
	case sniffNot, sniffGone:
		return why
	}
	return ""
}

// sniff looks at path's name, kind and first bytes; the reason is set for
// sniffNot and sniffGone. A file of size 0 is not opened.
func sniff(path string) (sniffVerdict, string) {
	if strings.HasPrefix(filepath.Base(path), ".") {
		return sniffNot, "hidden"
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return sniffGone, "cannot be read: " + errCause(err)
	case err != nil:
		return sniffNot, "cannot be read: " + errCause(err)
	case st.IsDir():
		return sniffNot, "a folder (agentwatch opens the logs directly in a folder)"
	case !st.Mode().IsRegular():
		return sniffNot, "not a regular file"
	case st.Size() == 0:
		return sniffBlank, ""
	}
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return sniffGone, "cannot be read: " + errCause(err)
	}
	if err != nil {
		return sniffNot, "cannot be read: " + errCause(err)
	}
	defer f.Close()
	var buf [sniffBytes]byte
	n, err := io.ReadFull(f, buf[:])
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return sniffNot, "cannot be read: " + errCause(err)
	}
	return sniffHead(buf[:n])
}

// sniffHead decides from a file's first bytes.
func sniffHead(head []byte) (sniffVerdict, string) {
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 {
		return sniffBlank, ""
	}
	switch head[0] {
	case '[', '{':
		return sniffLog, ""
	}
	for _, field := range sseFields {
		if bytes.HasPrefix(head, field) {
			return sniffLog, ""
		}
	}
	return sniffNot, "not an event log (it starts with neither JSON nor SSE)"
}

// errCause is an error without the path os already put in it.
func errCause(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

package sources

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
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
	v, why := sniff(path, nil)
	switch v {
	case sniffNot, sniffGone:
		return why
	}
	return ""
}

// sniff looks at path's name, kind and first bytes, read through open
// (os.Open when nil); the reason is set for sniffNot and sniffGone. A
// file of size 0 is not opened.
func sniff(path string, open func(string) (io.ReadCloser, error)) (sniffVerdict, string) {
	look := Look{}
	look.Info, look.Err = os.Stat(path)
	if look.Err == nil && look.Info.Mode().IsRegular() && look.Info.Size() > 0 {
		look.Head, look.Err = readHead(path, sniffBytes, open)
	}
	return look.verdict(path)
}

// Look is what one look at a file found: what os.Stat said of it and its
// first bytes. A caller that reads a file's head for more than telling
// whether it is a log (app, identifying a folder's files) makes one and
// asks it NotALog, so the file is read once.
type Look struct {
	// Info is what os.Stat said (nil when it failed).
	Info fs.FileInfo
	// Err is Stat's error, or else the read's.
	Err error
	// Head is the file's first bytes: at least sniffBytes of them, or the
	// whole file when shorter (nil for a file not read: not regular, or
	// empty).
	Head []byte
}

// NotALog is NotALog(path) for the file l looked at.
func (l Look) NotALog(path string) string {
	return l.Verdict(path).NotALog()
}

// Verdict is what l decided of the file at path, kept without the bytes
// it read: a caller that looked at a folder's files hands the verdicts
// to FollowFolder (FolderOptions.Known), which then reads none of those
// heads again.
func (l Look) Verdict(path string) Verdict {
	v, why := l.verdict(path)
	return Verdict{verdict: v, why: why}
}

// Verdict is what a look at a file of a folder decided: a log to follow,
// one still empty (decided once written to), or not a log, and why. Made
// by Look.Verdict.
type Verdict struct {
	verdict sniffVerdict
	why     string
}

// NotALog is Look.NotALog's answer: why the file is not opened as a log,
// "" when it is one.
func (v Verdict) NotALog() string {
	switch v.verdict {
	case sniffNot, sniffGone:
		return v.why
	}
	return ""
}

// verdict decides from what l found of path.
func (l Look) verdict(path string) (sniffVerdict, string) {
	switch {
	case strings.HasPrefix(filepath.Base(path), "."):
		return sniffNot, "hidden"
	case errors.Is(l.Err, os.ErrNotExist):
		return sniffGone, "cannot be read: " + errCause(l.Err)
	case l.Err != nil:
		return sniffNot, "cannot be read: " + errCause(l.Err)
	case l.Info.IsDir():
		return sniffNot, "a folder (agentwatch opens the logs directly in a folder)"
	case !l.Info.Mode().IsRegular():
		return sniffNot, "not a regular file"
	case l.Info.Size() == 0:
		return sniffBlank, ""
	}
	return sniffHead(l.Head)
}

// readHead reads the first n bytes of the file at path (fewer when it is
// shorter), opened by open (os.Open when nil).
func readHead(path string, n int, open func(string) (io.ReadCloser, error)) ([]byte, error) {
	if open == nil {
		open = func(path string) (io.ReadCloser, error) { return os.Open(path) }
	}
	f, err := open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	return buf[:k], nil
}

// sniffHead decides from a file's first bytes.
func sniffHead(head []byte) (sniffVerdict, string) {
	if bytes.HasPrefix(head, zstdMagic) {
		return sniffLog, "" // a compressed Codex rollout: its reader decompresses it
	}
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

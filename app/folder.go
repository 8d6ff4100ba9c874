package app

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Skipped is a file of a folder or glob that is not opened, and why.
type Skipped struct {
	Path   string
	Reason string
}

// isGlob reports whether arg is a pattern rather than a path: it has a
// pattern character and names no file.
func isGlob(arg string) bool {
	if !strings.ContainsAny(arg, "*?[") {
		return false
	}
	_, err := os.Lstat(arg)
	return err != nil
}

// listFolder returns the logs directly in dir, in name order, and what it
// skipped: hidden files, folders, and files that do not start like a log.
func listFolder(dir string) (logs []string, skipped []Skipped, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var paths []string
	for _, e := range entries {
		paths = append(paths, filepath.Join(dir, e.Name()))
	}
	logs, skipped = sortLogs(paths)
	return logs, skipped, nil
}

// listGlob returns the logs a pattern matches, in name order.
func listGlob(pattern string) (logs []string, skipped []Skipped, err error) {
	paths, err := filepath.Glob(pattern)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", pattern, err)
	}
	logs, skipped = sortLogs(paths)
	return logs, skipped, nil
}

// sortLogs keeps the paths that are logs, in name order.
func sortLogs(paths []string) (logs []string, skipped []Skipped) {
	slices.Sort(paths)
	for _, p := range paths {
		if why := notALog(p); why != "" {
			skipped = append(skipped, Skipped{Path: p, Reason: why})
			continue
		}
		logs = append(logs, p)
	}
	return logs, skipped
}

// notALog says why path is not opened as a log ("" when it is one). A log
// starts, after a byte order mark and white space, with a JSON value ([ or
// {) or an SSE field; an empty file is a log about to be written.
func notALog(path string) string {
	base := filepath.Base(path)
	if strings.HasPrefix(base, ".") {
		return "hidden"
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return "cannot be read: " + errCause(err)
	case st.IsDir():
		return "a folder (agentwatch opens the logs directly in a folder)"
	case !st.Mode().IsRegular():
		return "not a regular file"
	}
	f, err := os.Open(path)
	if err != nil {
		return "cannot be read: " + errCause(err)
	}
	defer f.Close()
	head, err := bufio.NewReader(f).Peek(512)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return "cannot be read: " + errCause(err)
	}
	head = bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF})
	head = bytes.TrimLeft(head, " \t\r\n")
	if len(head) == 0 {
		return ""
	}
	switch head[0] {
	case '[', '{':
		return ""
	}
	for _, field := range []string{"data:", "event:", "id:", "retry:", ":"} {
		if bytes.HasPrefix(head, []byte(field)) {
			return ""
		}
	}
	return "not an event log (it starts with neither JSON nor SSE)"
}

// errCause is an error without the path os already put in it.
func errCause(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

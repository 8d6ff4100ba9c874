package app

import (
	"errors"
	"os"
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

// errCause is an error without the path os already put in it.
func errCause(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

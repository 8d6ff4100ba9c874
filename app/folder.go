package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/sources"
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
		if why := sources.NotALog(p); why != "" {
			skipped = append(skipped, Skipped{Path: p, Reason: why})
			continue
		}
		logs = append(logs, p)
	}
	return logs, skipped
}

// errCause is an error without the path os already put in it.
func errCause(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

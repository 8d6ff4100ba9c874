package app

// This file keeps what a screen's guard caught: a file per crash, so the
// person who met a bug can attach what happened to a report.

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/tui"
)

// crashesKept is how many crash files a folder keeps: the newest.
const crashesKept = 20

// CrashReporter keeps each crash it is given in a file of its own in
// dir/crashes (the system's temporary folder when dir is ""), and returns
// the file's path, or "" when it could not write one. Older files than the
// newest crashesKept are removed.
func CrashReporter(dir string) func(tui.Crash) string {
	return func(c tui.Crash) string {
		folder := filepath.Join(dir, "crashes")
		if dir == "" {
			folder = filepath.Join(os.TempDir(), "agentwatch-crashes")
		}
		if err := os.MkdirAll(folder, 0o700); err != nil {
			return ""
		}
		f, err := os.CreateTemp(folder, time.Now().UTC().Format("crash-20060102-150405-*.txt"))
		if err != nil {
			return ""
		}
		_, werr := f.WriteString(crashText(c))
		if err := f.Close(); werr != nil || err != nil {
			os.Remove(f.Name())
			return ""
		}
		pruneCrashes(folder)
		return f.Name()
	}
}

// crashText is what a crash file says: what panicked while doing what,
// which build, and the stack.
func crashText(c tui.Crash) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agentwatch crashed at %s\n", time.Now().UTC().Format(time.RFC3339))
	fmt.Fprintf(&b, "while: %s\n", c.During)
	fmt.Fprintf(&b, "panic: %v\n", c.Value)
	fmt.Fprintf(&b, "go: %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if info, ok := debug.ReadBuildInfo(); ok {
		fmt.Fprintf(&b, "build: %s", info.Main.Version)
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
				fmt.Fprintf(&b, " %s=%s", s.Key, s.Value)
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "args: %q\n\n%s", os.Args, c.Stack)
	return b.String()
}

// pruneCrashes removes all but the newest crashesKept crash files of folder.
func pruneCrashes(folder string) {
	names, err := filepath.Glob(filepath.Join(folder, "crash-*.txt"))
	if err != nil || len(names) <= crashesKept {
		return
	}
	slices.Sort(names) // the names begin with their time
	for _, n := range names[:len(names)-crashesKept] {
		os.Remove(n)
	}
}

// newProgram runs model as the screen on the terminal opts names, under a
// guard: a bug in the screen shows a page that says so, and is kept in a
// crash file, instead of ending the program.
func newProgram(model tea.Model, opts *Options, more ...tea.ProgramOption) *tea.Program {
	return tui.NewProgram(model, opts.keys(), opts.Stdout, CrashReporter(opts.CacheDir), more...)
}

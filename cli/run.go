// Package cli is agentwatch's command line: one file per command, each
// parsing its flags and handing the work to package app. The exit status is
// decided here, in exitCode, and nowhere else.
package cli

import (
	"errors"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/internal/sanitize"
)

// The exit statuses.
const (
	exitOK = 0
	// exitProblems: the input was read and has problems (validate, compact),
	// or an agent turn did not end well.
	exitProblems = 1
	// exitUnreadable: the input could not be read or the command line is wrong.
	exitUnreadable = 2
	// exitInternal: a bug; the user is asked to report it.
	exitInternal = 3
)

// Run runs the command line args with the given standard streams and
// returns the process exit status. A panic becomes a message and status 3,
// never a Go stack on the user's terminal.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "agentwatch: internal error: %s\nPlease report this with the input that caused it.\n", sanitize.Plain(fmt.Sprint(p)))
			code = exitInternal
		}
	}()
	root := newRootCommand(app.New(&app.Options{Stdin: stdin, Stdout: stdout, Stderr: stderr, CacheDir: app.CacheDir()}))
	root.SetArgs(args)
	err := root.Execute()
	if err != nil && err.Error() != "" {
		// Errors quote what they failed on: file names, thread ids, an
		// endpoint's answer. Any of it may hold escape sequences.
		fmt.Fprintln(stderr, "agentwatch:", sanitize.Plain(err.Error()))
	}
	return exitCode(err)
}

// exitCode is the exit status for what a command returned.
func exitCode(err error) int {
	var problems *app.ProblemsError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &problems):
		return exitProblems
	}
	// Input errors, usage errors, and anything unexpected: the input or
	// the command line could not be used.
	return exitUnreadable
}

// version is the module version the binary was built from ("devel" for a
// build from a checkout), with the commit when Go recorded one.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += " (" + s.Value[:12] + ")"
		}
	}
	return v
}

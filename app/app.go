package app

import (
	"io"
	"os"
)

// App is agentwatch for one process: the options its command line chose
// and what it keeps for as long as it runs, shared by every screen it
// shows (the viewers of serve too). cli makes one with New and calls its
// methods; nothing in the package keeps state of its own.
type App struct {
	// Options are the command line's choices; the flags write them before
	// a command runs, so the App reads them when asked, not when made.
	*Options

	// indexes are the read-back indexes of the files this process read
	// shed items and steps back from: a file is indexed once however many
	// screens read it (readback_index.go).
	indexes *readIndexes
	// resumeMinBytes is the least a log must hold for its screen to keep
	// where it left off: a smaller log is read again faster than its fold
	// is loaded. Tests lower it.
	resumeMinBytes int64
	// openHead opens a file to read its first bytes, when a source is
	// identified: os.Open, or a test's counter.
	openHead func(path string) (io.ReadCloser, error)
	// glanceAlways lists a Claude Code folder's sessions from glances off
	// the screen too (bigfolder.go): tests and benchmarks set it.
	glanceAlways bool
}

// defaultResumeMinBytes is resumeMinBytes for every App but a test's.
const defaultResumeMinBytes = 8 << 20

// New is the App of opts: cli makes one for the process and hands it to
// every command, serve's too.
func New(opts *Options) *App {
	return &App{Options: opts, indexes: &readIndexes{}, resumeMinBytes: defaultResumeMinBytes,
		openHead: func(path string) (io.ReadCloser, error) { return os.Open(path) }}
}

// withOptions is an App that keeps a's caches but reads opts: a command
// that changes an option for one part of its work (the OTLP receiver's
// watch, which keeps no --record of its own) copies the options, not
// what the process keeps.
func (a *App) withOptions(opts *Options) *App {
	c := *a
	c.Options = opts
	return &c
}

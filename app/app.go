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
}

// defaultResumeMinBytes is resumeMinBytes for every App but a test's.
const defaultResumeMinBytes = 8 << 20

// New is the App of opts. Functions handed opts alone (serve's, which
// take options, not an App) share its caches through them.
func New(opts *Options) *App {
	a := newApp(opts)
	opts.app = a
	return a
}

// newApp is an App of opts that opts does not know of.
func newApp(opts *Options) *App {
	return &App{Options: opts, indexes: &readIndexes{}, resumeMinBytes: defaultResumeMinBytes,
		openHead: func(path string) (io.ReadCloser, error) { return os.Open(path) }}
}

// owner is the App these options were made into by New; options made by
// hand (a test's) get an App of their own each time, which shares
// nothing.
func (o *Options) owner() *App {
	if o.app != nil {
		return o.app
	}
	return newApp(o)
}

package app

import (
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/tui"
	"github.com/agentwatch/agentwatch/tui/images"
	"github.com/agentwatch/agentwatch/tui/search"
)

// Options are the choices the viewing and headless commands share, and
// where they read and write.
type Options struct {
	// ToolKinds is the --tool-kinds mapping file ("" for none).
	ToolKinds string
	// Layout is the screen layout: tui.LayoutAuto, LayoutSide or LayoutSheet.
	Layout string
	// Filter shows only the steps it names on the screen (--filter:
	// "failed", "execute,edit", "text:WORDS"), as the f key does.
	Filter string
	// Plain prints one line per change instead of the screen.
	Plain bool
	// Bell rings the terminal's bell when an agent's session starts
	// waiting for the person (--bell).
	Bell bool
	// Record is a file to keep what arrives in ("" for none); Append adds
	// to an existing one.
	Record string
	Append bool
	// Play plays a file at its recorded pace instead of opening it for review.
	Play bool
	// Images is how the screen draws screenshots (--images).
	Images images.Choice
	// CacheDir is where a screen of a big log keeps where it left off, so
	// the next screen of it starts there ("" keeps nothing); FromStart
	// reads the log from its start all the same (--from-start).
	CacheDir  string
	FromStart bool

	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

// FoldOptions reads the --tool-kinds file into the fold's options.
func (o *Options) FoldOptions() (fold.Options, error) {
	fo := fold.Options{}
	if o.ToolKinds == "" {
		return fo, nil
	}
	data, err := os.ReadFile(o.ToolKinds)
	if err != nil {
		return fo, BadInput(fmt.Errorf("--tool-kinds: %w", err))
	}
	if fo.ToolKinds, err = fold.ParseToolKinds(data); err != nil {
		return fo, BadInput(fmt.Errorf("--tool-kinds %s: %w", o.ToolKinds, err))
	}
	return fo, nil
}

// CheckLayout refuses a --layout the screen does not know, and a --filter
// it cannot read.
func (o *Options) CheckLayout() error {
	if _, err := search.ParseFilter(o.Filter); err != nil {
		return BadInput(fmt.Errorf("--%w", err))
	}
	switch o.Layout {
	case "", tui.LayoutAuto, tui.LayoutSide, tui.LayoutSheet:
		return nil
	}
	return BadInput(fmt.Errorf("--layout %q: want auto, side or sheet", o.Layout))
}

// keys is where the screen reads keys: the terminal, even when the log
// itself comes from standard input.
func (o *Options) keys() io.Reader {
	if o.Stdin == os.Stdin {
		if tty, err := os.Open("/dev/tty"); err == nil {
			return tty
		}
	}
	return o.Stdin
}

// screen reports whether the output is a terminal the screen can run on:
// a pipe or a file gets lines instead.
func (o *Options) screen() bool { return IsTerminal(o.Stdout) }

// IsTerminal reports whether w is a terminal: a file that answers the
// terminal's own request, not any character device (/dev/null is one).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

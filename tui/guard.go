package tui

// This file keeps a screen alive through a bug: a panic in the screen's
// Update, View or one of its commands becomes a page that says what went
// wrong, instead of a dead terminal (or, under serve, a viewer cut off
// without a word).

import (
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// Crash is a panic the guard caught: what panicked, where, and while
// doing what.
type Crash struct {
	// Value is what was passed to panic.
	Value any
	// Stack is the goroutine's stack where it panicked.
	Stack []byte
	// During names what the screen was doing: the message it handled
	// ("update tea.MouseReleaseMsg"), "view", or "command".
	During string
}

// Guarded is a screen run under a guard (Guard).
type Guarded struct {
	inner tea.Model
	// report keeps a crash and says where ("" when it kept it nowhere).
	report func(Crash) string
	crash  *Crash
	kept   string
	w, h   int
}

// crashMsg brings a panic of one of the screen's commands back to the
// screen's own goroutine.
type crashMsg struct{ crash Crash }

// Guard runs m so that no panic inside it ends the program: after one, the
// screen shows what went wrong and that q quits, and report (when not nil)
// is given the crash once, to keep it, and returns where it kept it.
func Guard(m tea.Model, report func(Crash) string) *Guarded {
	return &Guarded{inner: m, report: report}
}

// NewProgram is the program every screen runs in: m under Guard (report
// keeps each crash), reading input from in and drawing to out; more comes
// before those two, so that in and out win over any input or output it
// names (a wish session's options name the session itself).
func NewProgram(m tea.Model, in io.Reader, out io.Writer, report func(Crash) string, more ...tea.ProgramOption) *tea.Program {
	opts := append(slices.Clip(more), tea.WithInput(in), tea.WithOutput(out))
	return tea.NewProgram(Guard(m, report), opts...)
}

// Crashed is the crash the guard caught, nil while there was none.
func (g *Guarded) Crashed() *Crash { return g.crash }

// Inner is the screen the guard runs.
func (g *Guarded) Inner() tea.Model { return g.inner }

// Init starts the screen.
func (g *Guarded) Init() (cmd tea.Cmd) {
	defer g.catch("init")
	return g.wrap(g.inner.Init())
}

// Update hands msg to the screen, or after a crash takes only q, ctrl+c
// and resizes.
func (g *Guarded) Update(msg tea.Msg) (m tea.Model, cmd tea.Cmd) {
	if size, ok := msg.(tea.WindowSizeMsg); ok {
		g.w, g.h = size.Width, size.Height
	}
	if c, ok := msg.(crashMsg); ok {
		g.crashed(c.crash)
		return g, nil
	}
	if g.crash != nil {
		if k, ok := msg.(tea.KeyPressMsg); ok && (k.String() == "q" || k.String() == "ctrl+c") {
			return g, tea.Quit
		}
		return g, nil
	}
	m = g
	defer g.catch(fmt.Sprintf("update %T", msg))
	g.inner, cmd = g.inner.Update(msg)
	return g, g.wrap(cmd)
}

// View draws the screen, or after a crash what went wrong.
func (g *Guarded) View() (v tea.View) {
	if g.crash == nil {
		func() {
			defer g.catch("view")
			v = g.inner.View()
		}()
		if g.crash == nil {
			return v
		}
	}
	v = tea.NewView(g.crashPage())
	v.AltScreen = true
	return v
}

// catch turns a panic under way into the guard's crash.
func (g *Guarded) catch(during string) {
	if r := recover(); r != nil {
		g.crashed(Crash{Value: r, Stack: debug.Stack(), During: during})
	}
}

// crashed keeps the first crash and has it reported.
func (g *Guarded) crashed(c Crash) {
	if g.crash != nil {
		return
	}
	g.crash = &c
	if g.report != nil {
		func() {
			defer func() { _ = recover() }() // a report that fails must not take the page with it
			g.kept = g.report(c)
		}()
	}
}

// wrap makes a command's panic a crashMsg, and wraps the commands of a
// batch it returns the same way.
func (g *Guarded) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = crashMsg{Crash{Value: r, Stack: debug.Stack(), During: "command"}}
			}
		}()
		msg = cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			out := make(tea.BatchMsg, len(b))
			for i, c := range b {
				out[i] = g.wrap(c)
			}
			return out
		}
		return msg
	}
}

// crashPage is the screen after a crash: what went wrong, where it was
// kept, and how to leave.
func (g *Guarded) crashPage() string {
	w, h := max(g.w, 1), max(g.h, 1)
	lines := []string{
		styles.Attention + "something went wrong: " + Plain(fmt.Sprint(g.crash.Value)) + styles.Reset,
		"agentwatch hit a bug while " + crashDoing(g.crash.During) + "; nothing was written to your files.",
	}
	if g.kept != "" {
		lines = append(lines, "The details are in "+Plain(g.kept)+": please attach it to a bug report.")
	}
	lines = append(lines, "", "press q to quit")
	out := make([]string, 0, h)
	top := max(0, (h-len(lines))/2)
	for range top {
		out = append(out, strings.Repeat(" ", w))
	}
	for _, l := range lines {
		if len(out) == h {
			break
		}
		out = append(out, render.Pad(ansi.Truncate(" "+l, w, "…"), w))
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", w))
	}
	return strings.Join(out, "\n")
}

// crashDoing says in words what During names.
func crashDoing(during string) string {
	switch {
	case during == "view":
		return "drawing the screen"
	case during == "command":
		return "reading in the background"
	case strings.HasPrefix(during, "update tea.Key"):
		return "handling a key"
	case strings.HasPrefix(during, "update tea.Mouse"):
		return "handling the mouse"
	}
	return "updating the screen"
}

package images

// Which way a terminal draws pictures, decided from what it says at
// start. With --images auto, pixels need three things: a terminal that
// names itself as one that draws Unicode placeholders (kitty, Ghostty:
// others, such as WezTerm and Konsole, answer the graphics query but would
// show the placeholder character itself), its answer to the graphics query,
// and at least 256 colours on the way to it (the image id is a colour).
// The graphics query is sent only to such a terminal: tmux takes an APC
// for a pane title and would show the query in its status line.

import (
	"strings"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

// Probe works out how pictures are drawn on one terminal, from its choice
// and what the terminal says at start: its environment, its name
// (XTVERSION) and its answer to the graphics query. It sends the
// questions it needs, and no others.
type Probe struct {
	choice Choice
	// term is $TERM; named is the terminal's answer to XTVERSION.
	term, named string
	noColor     bool
	tmux        bool
	profile     colorprofile.Profile
	// asked is set once the graphics query was sent, answered once the
	// terminal said OK to it.
	asked, answered bool
}

// NewProbe starts a probe for what --images chose. Until the terminal
// says otherwise it counts on 24-bit colour.
func NewProbe(c Choice) *Probe {
	return &Probe{choice: c, profile: colorprofile.TrueColor}
}

// Env takes the terminal's environment as the screen's program sees it
// (the viewer's, over SSH) and returns the questions to send it: "" when
// none, as under --images other than auto, without colours, in tmux or
// screen, and on consoles that print what they do not understand. A
// terminal whose TERM says it draws placeholders is sent the graphics
// query at once; any other is asked its name first.
func (p *Probe) Env(getenv func(string) string) string {
	p.term = getenv("TERM")
	p.noColor = getenv("NO_COLOR") != ""
	p.tmux = getenv("TMUX") != "" || strings.HasPrefix(p.term, "tmux")
	if p.choice != Auto || p.noColor || p.tmux || getenv("STY") != "" {
		return ""
	}
	switch {
	case p.term == "", p.term == "dumb", p.term == "linux",
		strings.HasPrefix(p.term, "screen"), strings.HasPrefix(p.term, "tmux"):
		return ""
	case drawsPlaceholders(p.term):
		p.asked = true
		return graphicsQuery
	}
	return ansi.RequestNameVersion
}

// Tmux reports whether the environment Env was given is one of a program
// running in tmux.
func (p *Probe) Tmux() bool { return p.tmux }

// Version takes the terminal's name and version (its XTVERSION answer)
// and returns the graphics query when the name is one of a terminal that
// draws placeholders and the query was not sent yet.
func (p *Probe) Version(name string) string {
	p.named = name
	if p.choice != Auto || p.noColor || p.asked || !drawsPlaceholders(name) {
		return ""
	}
	p.asked = true
	return graphicsQuery
}

// Graphics takes a kitty graphics answer: image id and message. Only the
// answer to the graphics query counts, and only an "OK".
func (p *Probe) Graphics(id int, message string) {
	if id == QueryID && p.asked && message == "OK" {
		p.answered = true
	}
}

// Profile takes the colour profile the screen's program draws with: the
// image id travels as a colour, and without colours (NO_COLOR, a dumb
// terminal) pictures are named in text.
func (p *Probe) Profile(c colorprofile.Profile) { p.profile = c }

// Mode is how pictures are drawn given what is known now.
func (p *Probe) Mode() Mode {
	if p.noColor || p.profile <= colorprofile.ASCII {
		return Text
	}
	switch p.choice {
	case Off:
		return Text
	case Blocks:
		return HalfBlocks
	case Kitty:
		return Pixels
	}
	if p.answered && p.profile >= colorprofile.ANSI256 {
		return Pixels
	}
	return HalfBlocks
}

// drawsPlaceholders reports whether a TERM value or an XTVERSION name is
// one of a terminal known to draw kitty's Unicode placeholders.
func drawsPlaceholders(name string) bool {
	name = strings.ToLower(name)
	for _, t := range []string{"kitty", "ghostty"} {
		if strings.HasPrefix(name, t) || strings.HasPrefix(name, "xterm-"+t) {
			return true
		}
	}
	return false
}

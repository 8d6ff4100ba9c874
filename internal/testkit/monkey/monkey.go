// Package monkey makes what a person's hands do to a terminal program, at
// random from a seed: keys, clicks, releases, drags, wheels, pastes and
// resizes. The same seed gives the same inputs, so a failure found once is
// found again with its seed.
//
// It gives each input two ways: as the Bubble Tea message a program would
// receive (Msg, for a tea.Program fed with Send) and as the bytes a
// terminal would write (Bytes, for a program reading a pipe, a
// pseudo-terminal or an SSH channel). It never makes the keys that quit on
// purpose (q and ctrl+c) or suspend (ctrl+z): whatever else it makes must
// leave the program running.
package monkey

import (
	"fmt"
	"math/rand/v2"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Gen makes random inputs for a screen of about W×H cells.
type Gen struct {
	r    *rand.Rand
	w, h int
	// drag is how many motions the drag under way still has (0: none).
	drag    int
	button  tea.MouseButton
	resizes bool
}

// New returns a generator for a W×H screen seeded with seed.
func New(seed uint64, w, h int) *Gen {
	return &Gen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), w: max(w, 1), h: max(h, 1), resizes: true}
}

// NoResizes stops the generator making resizes: for a transport whose
// size is not set by what it reads (an SSH channel takes window changes
// as requests, not bytes).
func (g *Gen) NoResizes() { g.resizes = false }

// Size is the screen size the generator aims its mouse at, as its last
// resize set it.
func (g *Gen) Size() (w, h int) { return g.w, g.h }

// namedKeys are the keys that are not text.
var namedKeys = []tea.Key{
	{Code: tea.KeyLeft}, {Code: tea.KeyRight}, {Code: tea.KeyUp}, {Code: tea.KeyDown},
	{Code: tea.KeyHome}, {Code: tea.KeyEnd}, {Code: tea.KeyPgUp}, {Code: tea.KeyPgDown},
	{Code: tea.KeyTab}, {Code: tea.KeyTab, Mod: tea.ModShift}, {Code: tea.KeyEnter},
	{Code: tea.KeyEscape}, {Code: tea.KeyBackspace}, {Code: tea.KeyDelete},
	{Code: tea.KeySpace, Text: " "}, {Code: tea.KeyF1}, {Code: tea.KeyInsert},
	{Code: 'u', Mod: tea.ModCtrl}, {Code: 'd', Mod: tea.ModCtrl}, {Code: 'a', Mod: tea.ModCtrl},
	{Code: 'e', Mod: tea.ModCtrl}, {Code: 'l', Mod: tea.ModCtrl}, {Code: 'k', Mod: tea.ModCtrl},
	{Code: tea.KeyLeft, Mod: tea.ModAlt}, {Code: 'x', Mod: tea.ModAlt},
}

// textKeys are the printable keys, q left out; the keys every screen binds
// come twice, so they are pressed more often.
const textKeys = "abcdefghijklmnoprstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" +
	"/?{}[]()+-=_.,;:'\"!@#$%^&*<>|\\`~" + "hjklLGgeEnNftpvzcyY/?{}[].,+-0123456789" + "é字🙂"

// pastes are what a paste brings: words, lines, escapes, nothing.
var pastes = []string{
	"go test ./...", "line one\nline two\n", "", "\x1b[2J\x1b]52;c;aGk=\x07", strings.Repeat("x", 3000),
	"failed", "text:error", "execute,edit", "宽字符 and emoji 👍🏽", "\t\r\n",
}

// Msg is the next input as the message a Bubble Tea program receives.
func (g *Gen) Msg() tea.Msg {
	if g.drag > 0 {
		g.drag--
		m := tea.Mouse{X: g.x(), Y: g.y(), Button: g.button}
		if g.drag == 0 {
			return tea.MouseReleaseMsg(m)
		}
		return tea.MouseMotionMsg(m)
	}
	switch p := g.r.IntN(100); {
	case p < 50:
		return tea.KeyPressMsg(g.key())
	case p < 62:
		return tea.MouseClickMsg(g.mouse())
	case p < 70:
		return tea.MouseReleaseMsg(g.mouse())
	case p < 76:
		// A drag: the button goes down, moves, and comes up.
		m := g.mouse()
		g.button, g.drag = m.Button, 1+g.r.IntN(8)
		return tea.MouseClickMsg(m)
	case p < 80:
		m := g.mouse()
		m.Button = tea.MouseNone
		return tea.MouseMotionMsg(m)
	case p < 88:
		m := g.mouse()
		m.Button = []tea.MouseButton{tea.MouseWheelUp, tea.MouseWheelDown, tea.MouseWheelLeft, tea.MouseWheelRight}[g.r.IntN(4)]
		return tea.MouseWheelMsg(m)
	case p < 92:
		return tea.PasteMsg{Content: pastes[g.r.IntN(len(pastes))]}
	case p < 97 && g.resizes:
		return g.resize()
	}
	return tea.KeyPressMsg(g.key())
}

// key is a random key: text most of the time.
func (g *Gen) key() tea.Key {
	if g.r.IntN(3) == 0 {
		return namedKeys[g.r.IntN(len(namedKeys))]
	}
	rs := []rune(textKeys)
	r := rs[g.r.IntN(len(rs))]
	return tea.Key{Code: r, Text: string(r)}
}

// mouse is a random mouse position and button, now and then just off the
// screen's edge.
func (g *Gen) mouse() tea.Mouse {
	b := []tea.MouseButton{tea.MouseLeft, tea.MouseLeft, tea.MouseLeft, tea.MouseRight, tea.MouseMiddle}[g.r.IntN(5)]
	return tea.Mouse{X: g.x(), Y: g.y(), Button: b}
}

func (g *Gen) x() int { return g.r.IntN(g.w+2) - 1 }
func (g *Gen) y() int { return g.r.IntN(g.h+2) - 1 }

// resize is a new size: mostly ordinary, sometimes tiny or empty.
func (g *Gen) resize() tea.WindowSizeMsg {
	var w, h int
	switch g.r.IntN(6) {
	case 0:
		w, h = g.r.IntN(4), g.r.IntN(4)
	case 1:
		w, h = 80, 24
	case 2:
		w, h = 160, 48
	default:
		w, h = 10+g.r.IntN(240), 3+g.r.IntN(80)
	}
	g.w, g.h = max(w, 1), max(h, 1)
	return tea.WindowSizeMsg{Width: w, Height: h}
}

// Bytes is the next input as a terminal writes it: keys as their
// sequences, the mouse in SGR mode, pastes bracketed, and a resize as the
// terminal's window-size report, which Bubble Tea reads as a resize.
func (g *Gen) Bytes() []byte {
	return []byte(Encode(g.Msg()))
}

// Encode is msg as the bytes a terminal sends for it ("" for a message no
// terminal sends).
func Encode(msg tea.Msg) string {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		return encodeKey(tea.Key(m))
	case tea.MouseClickMsg:
		return sgrMouse(tea.Mouse(m), false, false)
	case tea.MouseReleaseMsg:
		return sgrMouse(tea.Mouse(m), false, true)
	case tea.MouseMotionMsg:
		return sgrMouse(tea.Mouse(m), true, false)
	case tea.MouseWheelMsg:
		return sgrMouse(tea.Mouse(m), false, false)
	case tea.PasteMsg:
		return "\x1b[200~" + m.Content + "\x1b[201~"
	case tea.WindowSizeMsg:
		return fmt.Sprintf("\x1b[8;%d;%dt", m.Height, m.Width)
	}
	return ""
}

// Alone reports whether a terminal's bytes for msg come with a pause after
// them: a lone Esc, which a program told apart from the start of a
// sequence only by the pause (Esc then ] at once is the start of an
// operating system command, which swallows every key until it ends).
// Hands sending msg's bytes wait a little after it.
func Alone(msg tea.Msg) bool { return Encode(msg) == "\x1b" }

// keySeqs are the xterm sequences of the named keys.
var keySeqs = map[rune]string{
	tea.KeyLeft: "\x1b[D", tea.KeyRight: "\x1b[C", tea.KeyUp: "\x1b[A", tea.KeyDown: "\x1b[B",
	tea.KeyHome: "\x1b[H", tea.KeyEnd: "\x1b[F", tea.KeyPgUp: "\x1b[5~", tea.KeyPgDown: "\x1b[6~",
	tea.KeyTab: "\t", tea.KeyEnter: "\r", tea.KeyEscape: "\x1b", tea.KeyBackspace: "\x7f",
	tea.KeyDelete: "\x1b[3~", tea.KeySpace: " ", tea.KeyF1: "\x1bOP", tea.KeyInsert: "\x1b[2~",
}

func encodeKey(k tea.Key) string {
	switch {
	case k.Code == tea.KeyTab && k.Mod == tea.ModShift:
		return "\x1b[Z"
	case k.Mod == tea.ModCtrl && k.Code >= 'a' && k.Code <= 'z':
		return string(rune(k.Code - 'a' + 1))
	case k.Mod == tea.ModAlt && k.Code == tea.KeyLeft:
		return "\x1b[1;3D"
	case k.Mod == tea.ModAlt:
		return "\x1b" + string(k.Code)
	}
	if s, ok := keySeqs[k.Code]; ok {
		return s
	}
	if k.Text != "" {
		return k.Text
	}
	return string(k.Code)
}

// sgrMouse is a mouse event in SGR (1006) mode.
func sgrMouse(m tea.Mouse, motion, release bool) string {
	var b int
	switch m.Button {
	case tea.MouseLeft:
		b = 0
	case tea.MouseMiddle:
		b = 1
	case tea.MouseRight:
		b = 2
	case tea.MouseNone:
		b = 3
	case tea.MouseWheelUp:
		b = 64
	case tea.MouseWheelDown:
		b = 65
	case tea.MouseWheelLeft:
		b = 66
	case tea.MouseWheelRight:
		b = 67
	}
	if motion {
		b += 32
	}
	end := 'M'
	if release {
		end = 'm'
	}
	// SGR coordinates are 1-based; a position off the screen's top-left
	// edge is sent as the edge, as a terminal does.
	return fmt.Sprintf("\x1b[<%d;%d;%d%c", b, max(m.X, 0)+1, max(m.Y, 0)+1, end)
}

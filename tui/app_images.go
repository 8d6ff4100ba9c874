package tui

// This file connects the screen to the way its terminal draws pictures
// (package images): the questions asked when the program starts, the
// answers, the encoding of new pictures off the screen's goroutine, and
// the escape codes that send them. A frame shows a new picture's cells at
// once; the terminal draws the picture when its upload arrives. Over SSH
// every session's App asks its own viewer's terminal and keeps its own
// record of the pictures sent there.

import (
	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/tui/images"
)

// appImages is what the screen knows about its terminal's pictures.
type appImages struct {
	probe *images.Probe
	term  *images.Terminal
	// drawn is the Terminal's Version the cached panel lines were drawn
	// at; when it changes they are drawn again.
	drawn uint64
}

// uploadedMsg brings back a picture encoded off the screen's goroutine.
type uploadedMsg struct{ images.Encoded }

// imagesState is the screen's appImages, made on first use from
// AppOptions.Images.
func (a *App) imagesState() *appImages {
	if a.images == nil {
		c, err := images.ParseChoice(string(a.opts.Images))
		if err != nil {
			c = images.Auto
		}
		p := images.NewProbe(c)
		a.images = &appImages{probe: p, term: images.NewTerminal(p.Mode())}
	}
	return a.images
}

// pictures is the Terminal the screen draws screenshots with.
func (a *App) pictures() *images.Terminal { return a.imagesState().term }

// imagesMsg takes what the terminal and the program say about drawing
// pictures (the environment, the colour profile, the terminal's name, a
// graphics answer) and returns the questions to ask next, or nil. It
// leaves every message to be routed as well.
func (a *App) imagesMsg(msg tea.Msg) tea.Cmd {
	im := a.imagesState()
	var ask string
	switch msg := msg.(type) {
	case tea.EnvMsg:
		ask = im.probe.Env(msg.Getenv)
		im.term.SetTmux(im.probe.Tmux())
	case tea.ColorProfileMsg:
		im.probe.Profile(msg.Profile)
	case tea.TerminalVersionMsg:
		ask = im.probe.Version(msg.Name)
	case uv.KittyGraphicsEvent:
		// Bubble Tea hands graphics answers on as the input decoder's own event.
		im.probe.Graphics(msg.Options.ID, string(msg.Payload))
	case uploadedMsg:
		im.term.Finish(msg.Encoded)
		return nil
	default:
		return nil
	}
	im.term.SetMode(im.probe.Mode())
	if ask == "" {
		return nil
	}
	return tea.Raw(ask)
}

// syncImages is called before the screen is laid out: pictures are
// deleted from the terminal when it holds too many, and lines cached
// before the way of drawing them changed are dropped, so that this frame
// draws (and sends) what it shows.
func (a *App) syncImages() {
	im := a.imagesState()
	im.term.Trim()
	if v := im.term.Version(); v != im.drawn {
		im.drawn = v
		a.panelCache = panelCache{}
	}
	a.transcript.SetPictures(im.term)
}

// imagesOut returns the commands that encode the pictures the frame just
// laid out shows and the terminal does not hold (each comes back as an
// uploadedMsg), and that send the codes ready (uploads encoded,
// placements, deletes); nil when there is nothing to do.
//
// The codes are written ahead of a frame, and a terminal keeps separate
// pictures for its main and alternate screens: so they start by switching
// to the alternate screen, where the screen draws. That does nothing once
// the renderer has switched, and keeps a picture sent before the first
// frame from landing on the main screen and never showing.
func (a *App) imagesOut() tea.Cmd {
	term := a.pictures()
	var cmds []tea.Cmd
	for _, u := range term.Uploads() {
		cmds = append(cmds, func() tea.Msg { return uploadedMsg{u.Encode()} })
	}
	if codes := term.Commands(); codes != "" {
		cmds = append(cmds, tea.Raw(ansi.SetModeAltScreenSaveCursor+codes))
	}
	return tea.Batch(cmds...)
}

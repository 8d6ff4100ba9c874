package tui

// This file lists the sessions of a big folder that are not folded: the
// folder sends what a glance at each file's head and tail says
// (model.Batch's Glance), and each such file has a row of its own, drawn
// from that, until it is opened; opening it asks for the file to be
// folded (AppOptions.Open), and its thread takes the row's place as it
// arrives.

import (
	"path/filepath"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
)

// glanced is a file of the folder that is listed from its glances: a
// stand-in thread (never folded into: its Fold is the view's empty one)
// and the glance it shows.
type glanced struct {
	th *fold.Thread
	g  model.Glance
}

// noteGlance keeps what a glance said of a source; it reports whether the
// source's row is new.
func (tv *threadsView) noteGlance(source string, g *model.Glance) bool {
	if tv.glances == nil {
		tv.glances = map[string]*glanced{}
		tv.empty = fold.New(fold.Options{})
	}
	gl := tv.glances[source]
	fresh := gl == nil
	if fresh {
		gl = &glanced{th: &fold.Thread{Source: source, Fold: tv.empty}}
		tv.glances[source] = gl
		tv.glanceOrder = append(tv.glanceOrder, gl)
	}
	gl.g = *g
	gl.th.ID, gl.th.First, gl.th.Last = g.ID, g.First, g.Last
	delete(tv.rows, gl.th)
	return fresh
}

// unfolded are the stand-ins of the glanced files not folded yet, in the
// order their first glances came.
func (tv *threadsView) unfolded() []*fold.Thread {
	out := make([]*fold.Thread, 0, len(tv.glanceOrder))
	for _, gl := range tv.glanceOrder {
		if !tv.folded[gl.th.Source] {
			out = append(out, gl.th)
		}
	}
	return out
}

// total is how many threads the list has: those folded and the glanced
// files not folded yet.
func (tv *threadsView) total() int {
	n := tv.set.Len()
	for _, gl := range tv.glanceOrder {
		if !tv.folded[gl.th.Source] {
			n++
		}
	}
	return n
}

// glancedRow is the stand-in th's glance, nil for a thread that is folded.
func (tv *threadsView) glancedRow(th *fold.Thread) *glanced {
	if gl := tv.glances[th.Source]; gl != nil && gl.th == th {
		return gl
	}
	return nil
}

// openGlanced asks for the file of the stand-in th to be folded; its
// thread is put on screen when its records come (tookUp).
func (a *App) openGlanced(tv *threadsView, th *fold.Thread) {
	tv.chosen, tv.listing = true, true
	tv.wanted = th.Source
	if a.opts.Open != nil {
		a.opts.Open(th.Source)
	}
	a.note = "reading " + render.ShortStart(filepath.Base(th.Source), 40) + " …"
}

// tookUp puts on screen the thread of the file the person opened, once its
// first records came (fresh are the threads that appeared with a batch).
func (a *App) tookUp(tv *threadsView, fresh []*fold.Thread) {
	if tv.wanted == "" {
		return
	}
	for _, th := range fresh {
		if th.Source == tv.wanted {
			tv.wanted = ""
			a.note = ""
			a.switchThread(tv, th)
			tv.selectRow(th)
			return
		}
	}
}

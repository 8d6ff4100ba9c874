package replay

import (
	"errors"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/window"
)

// ReaderAt is the timeline as a window.Reader of its items as they were at
// position k: what a replay's view let go at k is read back from the
// checkpoint before it. A replay keeps its steps whole, so none is read
// back.
func (t *Timeline) ReaderAt(k int) window.Reader { return timelineReader{t, k} }

// timelineReader is Timeline.ReaderAt.
type timelineReader struct {
	t *Timeline
	k int
}

// Items reads items back by Seq (a step's window is not read around it).
func (r timelineReader) Items(w window.ItemsWanted) (window.ItemsRead, error) {
	items, steps, _, err := r.t.Items(r.k, w.Source, w.Thread, w.From, w.To)
	return window.ItemsRead{Items: items, Steps: steps}, err
}

// Step is never needed: a replay keeps its steps whole.
func (r timelineReader) Step(string, int, string) (*model.Step, error) {
	return nil, errors.New("a replay reads no step back")
}

package serve

import (
	"context"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// behindShow is a show whose viewers fall behind as soon as they watch.
type behindShow struct{}

func (behindShow) Title() string { return "behind" }

func (behindShow) Screen(context.Context) (Screen, error) {
	behind := make(chan struct{})
	close(behind)
	return Screen{Model: &busyScreen{}, Behind: behind}, nil
}

// A viewer that fell too far behind its sources is told so, and its
// session ends.
func TestViewerBehindIsToldAndLeaves(t *testing.T) {
	ts := startShow(t, behindShow{}, Config{}, nil)
	v := ts.view(t, ts.allowed, 80, 24)
	if code := v.waitEnd(); code != 1 {
		t.Errorf("the session ended with %d, want 1", code)
	}
	<-v.ended
	if got := v.stderr.String(); !strings.Contains(got, "fell too far behind its sources") {
		t.Errorf("the viewer was told %q", got)
	}
}

// A viewer joining late is given the latest glance of each source not
// folded yet, and none of a source that was.
func TestHubLateViewerGetsGlances(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	h := NewHub(1, fold.Options{})
	h.limit = windowLimit{records: 2, bytes: 1 << 30}
	h.Publish(model.Batch{Source: "a", Glance: &model.Glance{ID: "a-1"}})
	h.Publish(model.Batch{Source: "b", Glance: &model.Glance{ID: "b-1"}})
	h.Publish(model.Batch{Source: "a", Glance: &model.Glance{ID: "a-2"}})
	for i := range 3 {
		h.Publish(batch("b", uint64(i+1))) // b is folded: its glance goes
	}
	f := h.Follow(ctx)
	if f.Start == nil {
		t.Fatal("no checkpoint after three records in windows of two")
	}
	f.Begin()
	got := take(t, f, 1)
	if g := got[0].Glance; got[0].Source != "a" || g == nil || g.ID != "a-2" {
		t.Errorf("the late viewer's first batch is %+v, want a's latest glance", got[0])
	}
	for _, b := range take(t, f, 1) {
		if b.Glance != nil {
			t.Errorf("a second glance came: %+v", b)
		}
	}
}

package transcript

import (
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
)

// phases are n one-row items numbered from seq.
func phases(seq uint64, n int) []*model.Item {
	out := make([]*model.Item, n)
	for i := range out {
		s := seq + uint64(i)
		out[i] = &model.Item{Seq: s, Kind: model.ItemPhase, Version: 1, Status: model.StatusCompleted, Step: -1, Name: "p" + strconv.FormatUint(s, 10)}
	}
	return out
}

// A gap row in view is found, and items put above it leave the rows in
// view where they were.
func TestGapInViewAndReturnTo(t *testing.T) {
	gap := &model.Item{Seq: 1, Kind: model.ItemGap, Version: 1, Status: model.StatusCompleted, Step: -1, Text: "▲ 100 earlier items not kept"}
	kept := phases(101, 50)
	tr := New()
	tr.SetSize(40, 10)
	tr.SetItems(append([]*model.Item{gap}, kept...), nil)
	tr.View()
	if _, _, ok := tr.GapInView(); ok {
		t.Fatal("a gap row is found in view while the view follows the bottom")
	}
	tr.CursorToTop()
	view := tr.View()
	if !strings.Contains(ansi.Strip(view[0]), "100 earlier items not kept") {
		t.Fatalf("the top row is %q, not the gap row", ansi.Strip(view[0]))
	}
	seq, below, ok := tr.GapInView()
	if !ok || seq != 1 || !below {
		t.Fatalf("GapInView = %d, %v, %v; want 1, true, true", seq, below, ok)
	}
	mark := tr.MarkView()
	// Items 51–100 read back: the gap shrinks to items 1–50.
	gap = &model.Item{Seq: 1, Kind: model.ItemGap, Version: 1, Status: model.StatusCompleted, Step: -1, Text: "▲ 50 earlier items not kept"}
	items := append(append([]*model.Item{gap}, phases(51, 50)...), kept...)
	tr.SetItems(items, nil)
	tr.ReturnTo(mark)
	got := tr.View()
	if ansi.Strip(got[1]) != ansi.Strip(view[1]) || !strings.Contains(ansi.Strip(got[0]), "p100") {
		t.Errorf("after items were put above, the view is\n%s\nwant p100 then %q", strings.Join(got, "\n"), ansi.Strip(view[1]))
	}
	if _, _, ok := tr.GapInView(); ok {
		t.Error("the gap row is still in view after items were put above the rows in view")
	}
}

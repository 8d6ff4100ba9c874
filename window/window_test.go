package window

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// small is what the tests keep: small enough that a few thousand events
// are trimmed many times.
var small = fold.Keep{Items: 200, Content: 20, Skeletons: 100, Tombstones: fold.TombstonesRecent}

// wholeReader reads back from a fold of the whole log that never let go of
// anything: what a file's index would give.
type wholeReader struct {
	whole *fold.Fold
	items []ItemsWanted
	steps []StepKey
	fail  error
}

func (r *wholeReader) Items(w ItemsWanted) (ItemsRead, error) {
	r.items = append(r.items, w)
	if r.fail != nil {
		return ItemsRead{}, r.fail
	}
	var got ItemsRead
	for _, it := range r.whole.Items() {
		if w.Step < 0 && it.Seq >= w.From && it.Seq < w.To || w.Step >= 0 && it.Seq <= uint64(w.Max) {
			got.Items = append(got.Items, it)
			if it.Kind == model.ItemToolCall {
				got.Steps = append(got.Steps, r.whole.Steps()[it.Step])
			}
		}
	}
	return got, nil
}

func (r *wholeReader) Step(thread string, index int, callID string) (*model.Step, error) {
	r.steps = append(r.steps, StepKey{Thread: thread, Index: index})
	if r.fail != nil {
		return nil, r.fail
	}
	c := *r.whole.Steps()[index]
	return &c, nil
}

// trimmedThread is a generated log of one thread folded as a view folds
// it, trimmed to small as it grows, and the fold of it that kept all.
func trimmedThread(t *testing.T, w *Window) (at At, whole *fold.Fold) {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(loggen.Generate(6000, 3)))
	if err != nil {
		t.Fatal(err)
	}
	whole = fold.New(fold.Options{})
	whole.Apply(recs...)
	ts := fold.NewThreads(fold.Options{})
	for i := 0; i < len(recs); i += 500 {
		ts.Apply("log", recs[i:min(i+500, len(recs))]...)
		th := ts.List()[0]
		w.Trim(At{Thread: th, Fold: th.Fold}, false)
	}
	th := ts.List()[0]
	return At{Thread: th, Fold: th.Fold}, whole
}

// A thread grown past twice what the window keeps is trimmed to it; the
// rows are the items kept with a gap row where the others were; a gap in
// view is read back, and its items join the rows in their places; a read
// that fails says so on its gap, which is read again only when asked.
func TestRowsAndItemsReadBack(t *testing.T) {
	r := &wholeReader{}
	w := New(Options{Keep: small, Reader: func(string) Reader { return r }})
	at, whole := trimmedThread(t, w)
	r.whole = whole
	if n := len(at.Fold.Items()); n >= 2*small.Items {
		t.Fatalf("the thread keeps %d items, want under %d", n, 2*small.Items)
	}
	rows := w.Rows(at)
	gap := rows[0]
	if gap.Kind != model.ItemGap || !strings.Contains(gap.Text, "earlier items not kept · scroll up or Enter") || !w.IsGap(at, gap.Seq) {
		t.Fatalf("the first row is %s %q, want the gap of what was let go", gap.Kind, gap.Text)
	}
	shed, _ := w.Dropped(at)
	if shed == 0 {
		t.Fatal("Dropped says nothing was let go")
	}

	// The gap in view, come to from below: the items just above.
	r.fail = errors.New("the disk is gone")
	read := w.WantItems(at, Sight{Selected: -1, GapSeq: gap.Seq, Below: true, GapOK: true, Drawn: true})
	if read == nil {
		t.Fatal("a gap in view is not read back")
	}
	if w.WantItems(at, Sight{Selected: -1, GapSeq: gap.Seq, GapOK: true, Drawn: true}) != nil {
		t.Fatal("a second read was asked while one is under way")
	}
	if !strings.Contains(w.Rows(at)[0].Text, "reading back…") {
		t.Fatalf("the gap row does not say it is read: %q", w.Rows(at)[0].Text)
	}
	if shown, _, err := w.TookItems(at, read()); !shown || err == nil {
		t.Fatalf("a failed read: shown %v, err %v", shown, err)
	}
	if !strings.Contains(w.Rows(at)[0].Text, "reading them back failed: the disk is gone") {
		t.Fatalf("the gap row does not say the read failed: %q", w.Rows(at)[0].Text)
	}
	if w.WantItems(at, Sight{Selected: -1, GapSeq: gap.Seq, Below: true, GapOK: true, Drawn: true}) != nil {
		t.Fatal("a gap whose read failed is read again without being asked")
	}
	if !w.RetryGap(at, gap.Seq) {
		t.Fatal("RetryGap did nothing")
	}
	r.fail = nil
	read = w.WantItems(at, Sight{Selected: -1, GapSeq: gap.Seq, Below: true, GapOK: true, Drawn: true})
	if read == nil {
		t.Fatal("a gap retried is not read back")
	}
	if shown, _, err := w.TookItems(at, read()); !shown || err != nil {
		t.Fatalf("a read: shown %v, err %v", shown, err)
	}
	rows = w.Rows(at)
	byseq := map[uint64]*model.Item{}
	for _, it := range whole.Items() {
		byseq[it.Seq] = it
	}
	back := 0
	for i, it := range rows {
		if i > 0 && it.Seq <= rows[i-1].Seq {
			t.Fatalf("row %d (Seq %d) after Seq %d", i, it.Seq, rows[i-1].Seq)
		}
		if it.Kind == model.ItemGap {
			continue
		}
		if want := byseq[it.Seq]; want == nil || want.Kind != it.Kind || want.ID != it.ID {
			t.Fatalf("row Seq %d is %s %q, the whole fold has %+v", it.Seq, it.Kind, it.ID, want)
		}
		if w.Item(at, it.Seq) != nil {
			back++
		}
	}
	if _, n := w.Dropped(at); back == 0 || n != back {
		t.Fatalf("%d rows read back, Dropped says %d", back, n)
	}
	// Back to live: the window goes, and only the gap stays.
	if !w.Drop(at) || w.Item(at, rows[1].Seq) != nil {
		t.Fatal("Drop kept the items read back")
	}
}

// A step whose content was let go is read back whole once, through the
// reader, and shown; a source that cannot be read says where the content
// is instead.
func TestStepReadBack(t *testing.T) {
	r := &wholeReader{}
	w := New(Options{Keep: small, Reader: func(string) Reader { return r }})
	at, whole := trimmedThread(t, w)
	r.whole = whole
	steps := w.Steps(at.Fold)
	s := steps[0]
	if IsStandIn(s) {
		s = w.StandIn(at.Fold, 0, s)
	}
	if !s.Shed {
		t.Fatal("step 1 was not let go: the test reads nothing back")
	}
	if note := w.StepNote(at, s); !strings.Contains(note, "reading step 1 back") {
		t.Fatalf("before the read: %q", note)
	}
	read := w.WantStep(at, s)
	if read == nil || w.WantStep(at, s) != nil {
		t.Fatal("a step let go is not read back once")
	}
	w.TookStep(read())
	if got := w.Shown(at, s); got.Index != 0 || got.Result != whole.Steps()[0].Result || got.Shed {
		t.Fatalf("step 1 shown: %+v", got)
	}
	if note := w.StepNote(at, s); note != "" {
		t.Fatalf("after the read: %q", note)
	}

	stream := New(Options{Keep: small})
	at, _ = trimmedThread(t, stream)
	s = stream.Steps(at.Fold)[0]
	if IsStandIn(s) {
		s = stream.StandIn(at.Fold, 0, s)
	}
	if stream.WantStep(at, s) != nil || !strings.Contains(stream.StepNote(at, s), "not kept (a stream") {
		t.Fatalf("a stream's step: note %q", stream.StepNote(at, s))
	}
}

// Forgotten steps are given as shared stand-ins in their places, and their
// failures counted; a selected one becomes a step of its own index, the
// same object from one call to the next.
func TestForgottenSteps(t *testing.T) {
	w := New(Options{Keep: small})
	at, whole := trimmedThread(t, w)
	steps := w.Steps(at.Fold)
	if at.Fold.StepBase() == 0 || len(steps) != len(whole.Steps()) {
		t.Fatalf("%d steps given for %d (forgotten %d)", len(steps), len(whole.Steps()), at.Fold.StepBase())
	}
	failed := 0
	for i, s := range steps {
		want := whole.Steps()[i]
		if s.Status != want.Status || s.Category != want.Category {
			t.Fatalf("step %d given %s/%s, want %s/%s", i+1, s.Category, s.Status, want.Category, want.Status)
		}
		if i < at.Fold.StepBase() && want.Status == model.StatusFailed {
			failed++
		}
	}
	if got := w.FailedForgotten(at.Fold); got != failed {
		t.Fatalf("FailedForgotten %d, want %d", got, failed)
	}
	a, b := w.StandIn(at.Fold, 3, steps[3]), w.StandIn(at.Fold, 3, steps[3])
	if a != b || a.Index != 3 {
		t.Fatalf("the stand-in of step 4: %p %p, index %d", a, b, a.Index)
	}
}

package fold_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// The checks the shedding laws make (shed_test.go) and the fuzz targets
// share.

// foldState is what a fold showed before a Shed, each object as JSON.
type foldState struct {
	items    map[uint64][]byte
	open     map[uint64]bool // items not done
	order    []uint64
	steps    [][]byte
	stepDone []bool
	stepShed []bool
	messages map[string][][]byte // by id, in order
	// openMsgs are the ids of messages an open item shows.
	openMsgs map[string]bool
	next     uint64 // the Seq the next item would get is above this
	shedded  fold.Shed
}

// jsonOf is v as deterministic JSON, to compare what folds hold.
func jsonOf(v any) []byte {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		panic(err)
	}
	return b
}

// captureFold records what f shows, to compare with after a Shed.
func captureFold(f *fold.Fold) foldState {
	s := foldState{items: map[uint64][]byte{}, open: map[uint64]bool{}, messages: map[string][][]byte{}, openMsgs: map[string]bool{}, shedded: f.Shedded()}
	for _, it := range f.Items() {
		s.items[it.Seq] = jsonOf(it)
		s.order = append(s.order, it.Seq)
		s.next = max(s.next, it.Seq)
		if !it.Status.Done() {
			s.open[it.Seq] = true
			if it.Kind == model.ItemMessage || it.Kind == model.ItemReasoning || it.Kind == model.ItemActivity {
				s.openMsgs[it.ID] = true
			}
		}
	}
	for _, st := range f.Steps() {
		s.steps = append(s.steps, jsonOf(st))
		s.stepDone = append(s.stepDone, st.Status.Done())
		s.stepShed = append(s.stepShed, st.Shed)
	}
	for _, m := range f.Messages() {
		s.messages[m.ID] = append(s.messages[m.ID], jsonOf(m))
	}
	return s
}

// checkShed checks one Shed against the fold before it: what went was
// completed, what stayed is unchanged, the newest are kept, and the counts
// are right. It returns the ids of the messages that went.
func checkShed(t *testing.T, where string, before foldState, f *fold.Fold, got fold.Shed, keepItems, keepSteps int) map[string]bool {
	t.Helper()
	after := f.Items()
	if got.Items != len(before.order)-len(after) {
		t.Fatalf("%s: Shed says %d items dropped, %d went", where, got.Items, len(before.order)-len(after))
	}
	kept := map[uint64]bool{}
	for _, it := range after {
		old, ok := before.items[it.Seq]
		if !ok {
			t.Fatalf("%s: Shed made up item %d", where, it.Seq)
		}
		if !bytes.Equal(jsonOf(it), old) {
			t.Fatalf("%s: Shed changed item %d:\n%s\n%s", where, it.Seq, old, jsonOf(it))
		}
		kept[it.Seq] = true
	}
	if !fuzzIsSubsequence(fuzzSeqs(after), before.order) {
		t.Fatalf("%s: Shed reordered the items", where)
	}
	done := 0
	for i := len(before.order) - 1; i >= 0; i-- {
		seq := before.order[i]
		if before.open[seq] {
			if !kept[seq] {
				t.Fatalf("%s: Shed dropped open item %d", where, seq)
			}
			continue
		}
		if done < keepItems && !kept[seq] {
			t.Fatalf("%s: Shed dropped item %d, one of the newest %d completed", where, seq, keepItems)
		}
		done++
	}
	steps := f.Steps()
	if len(steps) != len(before.steps) {
		t.Fatalf("%s: Shed changed the number of steps from %d to %d", where, len(before.steps), len(steps))
	}
	shed, doneSteps := 0, 0
	for i := len(steps) - 1; i >= 0; i-- {
		s := steps[i]
		if s.Index != i {
			t.Fatalf("%s: step %d has index %d after Shed", where, i, s.Index)
		}
		if !s.Shed || before.stepShed[i] {
			if !bytes.Equal(jsonOf(s), before.steps[i]) {
				t.Fatalf("%s: Shed changed step %d without shedding it", where, i)
			}
		} else {
			shed++
			if !before.stepDone[i] {
				t.Fatalf("%s: Shed dropped the content of open step %d", where, i)
			}
			if s.Args != "" || s.ArgsJSON != nil || s.Result != "" || s.ResultJSON != nil || s.Screenshots != nil || s.Diffs != nil {
				t.Fatalf("%s: shed step %d kept content", where, i)
			}
			if !bytes.Equal(jsonOf(skeleton(s)), jsonOf(skeletonOf(t, before.steps[i]))) {
				t.Fatalf("%s: Shed changed more than the content of step %d", where, i)
			}
		}
		if before.stepDone[i] {
			if doneSteps < keepSteps && s.Shed && !before.stepShed[i] {
				t.Fatalf("%s: Shed dropped the content of step %d, one of the newest %d completed", where, i, keepSteps)
			}
			doneSteps++
		}
	}
	if got.Steps != shed {
		t.Fatalf("%s: Shed says %d steps shed, %d were", where, got.Steps, shed)
	}
	held := map[string][][]byte{}
	n := 0
	for _, m := range f.Messages() {
		held[m.ID] = append(held[m.ID], jsonOf(m))
		n++
	}
	gone := map[string]bool{}
	was := 0
	for id, ms := range before.messages {
		was += len(ms)
		if now, ok := held[id]; ok {
			if !slices.EqualFunc(now, ms, bytes.Equal) {
				t.Fatalf("%s: Shed changed message %q", where, id)
			}
			continue
		}
		gone[id] = true
		if before.openMsgs[id] {
			t.Fatalf("%s: Shed dropped message %q, which an open item shows", where, id)
		}
	}
	if got.Messages != was-n {
		t.Fatalf("%s: Shed says %d messages dropped, %d went", where, got.Messages, was-n)
	}
	total := f.Shedded()
	if total.Items != before.shedded.Items+got.Items || total.Steps != before.shedded.Steps+got.Steps || total.Messages != before.shedded.Messages+got.Messages {
		t.Fatalf("%s: Shedded() went from %+v to %+v after dropping %+v", where, before.shedded, total, got)
	}
	return gone
}

// skeleton is a step without its content: what a shed step keeps.
func skeleton(s *model.Step) model.Step {
	c := *s
	c.Args, c.ArgsJSON, c.Result, c.ResultJSON, c.Screenshots, c.Diffs = "", nil, "", nil, nil, nil
	c.Shed = false
	return c
}

func skeletonOf(t *testing.T, b []byte) *model.Step {
	var s model.Step
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	c := skeleton(&s)
	return &c
}

// checkShedAgainst compares a fold that shed with one that did not, both
// at the end of the same records. gone are the ids of the messages shed,
// next the highest item Seq at the last Shed.
func checkShedAgainst(t *testing.T, where string, want, got *fold.Fold, gone map[string]bool, next uint64) {
	t.Helper()
	ws, gs := want.Steps(), got.Steps()
	if len(ws) != len(gs) {
		t.Fatalf("%s: %d steps, want %d", where, len(gs), len(ws))
	}
	for i := range ws {
		w, g := ws[i], gs[i]
		if !g.Shed {
			if !bytes.Equal(jsonOf(g), jsonOf(w)) {
				t.Fatalf("%s: kept step %d differs:\n got %s\nwant %s", where, i, jsonOf(g), jsonOf(w))
			}
			continue
		}
		if a, b := jsonOf(skeleton(g)), jsonOf(skeleton(w)); !bytes.Equal(a, b) {
			t.Fatalf("%s: shed step %d differs beyond its content:\n got %s\nwant %s", where, i, a, b)
		}
	}
	for _, c := range []struct {
		what      string
		got, want any
	}{
		{"runs", got.Runs(), want.Runs()},
		{"diagnostics", got.Diagnostics(), want.Diagnostics()},
		{"warnings", got.Warnings(), want.Warnings()},
		{"state", got.State(), want.State()},
		{"thread", got.ThreadID(), want.ThreadID()},
		{"session", got.Session(), want.Session()},
	} {
		if a, b := jsonOf(c.got), jsonOf(c.want); !bytes.Equal(a, b) {
			t.Fatalf("%s: %s differ:\n got %s\nwant %s", where, c.what, a, b)
		}
	}
	wantItems := map[uint64]*model.Item{}
	for _, it := range want.Items() {
		wantItems[it.Seq] = it
	}
	have := map[uint64]bool{}
	for _, it := range got.Items() {
		w, ok := wantItems[it.Seq]
		if !ok {
			t.Fatalf("%s: item %d (%s %q) is not in the fold that never shed", where, it.Seq, it.Kind, it.ID)
		}
		if a, b := jsonOf(it), jsonOf(w); !bytes.Equal(a, b) {
			t.Fatalf("%s: item %d differs:\n got %s\nwant %s", where, it.Seq, a, b)
		}
		have[it.Seq] = true
	}
	for _, it := range want.Items() {
		if !have[it.Seq] && it.Seq > next {
			t.Fatalf("%s: item %d (%s %q), added after the last Shed, is missing", where, it.Seq, it.Kind, it.ID)
		}
	}
	held := func(f *fold.Fold) []byte {
		var ms []*agui.Message
		for _, m := range f.Messages() {
			if !gone[m.ID] {
				ms = append(ms, m)
			}
		}
		return jsonOf(ms)
	}
	if a, b := held(got), held(want); !bytes.Equal(a, b) {
		t.Fatalf("%s: the messages not shed differ:\n got %s\nwant %s", where, a, b)
	}
}

// foldsOnAlike checks the checkpoint law for f: exported and restored,
// and checkpointed, it folds rest to what f itself folds it to, which f
// then holds.
func foldsOnAlike(t *testing.T, where string, f *fold.Fold, rest []model.Record) {
	t.Helper()
	restored := fold.New(fold.Options{})
	snap, err := f.Export()
	if err != nil {
		t.Fatal(err)
	}
	if err := restored.Restore(snap); err != nil {
		t.Fatalf("%s: restore: %v", where, err)
	}
	fromCP := fold.FromCheckpoint(f.Checkpoint(), fold.Options{})
	for _, g := range []*fold.Fold{f, restored, fromCP} {
		g.Apply(rest...)
	}
	end := export(t, f)
	if got := export(t, restored); !bytes.Equal(got, end) {
		t.Fatalf("%s: export → restore, folded on, differs from the fold folded on", where)
	}
	if got := export(t, fromCP); !bytes.Equal(got, end) {
		t.Fatalf("%s: checkpoint, folded on, differs from the fold folded on", where)
	}
}

// fuzzCheckShed folds recs shedding at up to three points the checksum
// picks, keeping as much as it says, and checks every Shed (checkShed) and
// the end against the fold that never shed (checkShedAgainst). A
// checkpoint taken before the first Shed stays as it was, and the shed
// fold keeps the checkpoint law: exported and restored at the last Shed,
// it folds the rest to what it does.
func fuzzCheckShed(t *testing.T, recs []model.Record, want *fold.Fold, sum uint32) {
	t.Helper()
	n := len(recs)
	points := []int{int(sum % uint32(n+1)), int((sum >> 7) % uint32(n+1)), int((sum >> 14) % uint32(n+1))}
	slices.Sort(points)
	keepItems, keepSteps := int(sum>>21)%5, int(sum>>25)%3
	where := fmt.Sprintf("Shed(%d, %d) after records %v of %d", keepItems, keepSteps, points, n)
	f := fold.New(fold.Options{})
	gone := map[string]bool{}
	var next uint64
	var pre *fold.Checkpoint
	var atPre []byte
	var restored *fold.Fold
	done := 0
	for i, k := range points {
		fuzzApply(t, f, recs[done:k]...)
		done = k
		if i == 0 {
			var ok bool
			if atPre, ok = fuzzExport(t, f, "fold before Shed"); !ok {
				return
			}
			pre = f.Checkpoint()
		}
		before := captureFold(f)
		got := f.Trim(shedding(keepItems, keepSteps)).Shed
		for id := range checkShed(t, where, before, f, got, keepItems, keepSteps) {
			gone[id] = true
		}
		next = max(next, before.next)
	}
	snap, _, ok := fuzzSnapshot(t, f, "shed fold")
	if !ok {
		return
	}
	restored = fold.New(fold.Options{})
	if err := restored.Restore(snap); err != nil {
		t.Fatalf("%s: restore: %v", where, err)
	}
	fuzzApply(t, f, recs[done:]...)
	fuzzApply(t, restored, recs[done:]...)
	end, _ := fuzzExport(t, f, "shed fold folded on")
	if got, _ := fuzzExport(t, restored, "restored shed fold folded on"); !bytes.Equal(got, end) {
		t.Fatalf("%s: export → restore of the shed fold, folded on, differs:\n%s", where, fuzzDiff(got, end))
	}
	if got, _ := fuzzExport(t, fold.FromCheckpoint(pre, fold.Options{}), "checkpoint before Shed"); !bytes.Equal(got, atPre) {
		t.Fatalf("%s: Shed or folding on changed a checkpoint taken before it", where)
	}
	checkShedAgainst(t, where, want, f, gone, next)
}

package fold_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
)

// keptJSON is what a fold shows and Forget must not change: its items,
// messages, state, runs and kept steps, each as JSON.
func keptJSON(f *fold.Fold) map[string][]byte {
	return map[string][]byte{
		"items":    jsonOf(f.Items()),
		"messages": jsonOf(f.Messages()),
		"state":    jsonOf(f.State()),
		"runs":     jsonOf(f.Runs()),
		"steps":    jsonOf(f.Steps()),
	}
}

// stepsFrom is f's steps from Index base on, as JSON.
func stepsFrom(f *fold.Fold, base int) []byte {
	var out []*model.Step
	for i := base; i < f.StepCount(); i++ {
		out = append(out, f.Step(i))
	}
	return jsonOf(out)
}

// The forgetting laws, at split points of every log: fold the first k
// records, Trim shedding alone, then Trim forgetting alone (or Trim to the
// zero Keep, which does both to the bone).
//
//   - Forget changes nothing a view shows: items, messages, state, runs
//     and the steps it keeps are as before; it drops only a prefix of
//     shed, finished steps, and StepBase says how many, so a step's Index
//     is where Step finds it.
//   - The checkpoint law holds for the forgotten fold: exported and
//     restored, or checkpointed, it folds on to what it folds on to.
//   - Folding on after Forget gives what folding on after the Shed alone
//     gives, steps before StepBase aside, as long as the rest of the log
//     names nothing forgotten: true of generated logs, whose ids never
//     repeat except when a later run resends the thread's messages —
//     which must not bring them back.
func TestLawForget(t *testing.T) {
	for name, recs := range shedLogs(t) {
		generated := len(name) >= 6 && name[:6] == "loggen"
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, k := range shedSplits(len(recs)) {
				for _, keep := range []int{0, 2, -1} { // -1: the zero Keep
					where := fmt.Sprintf("split %d of %d, keep %d", k, len(recs), keep)
					shed := foldAll(recs[:k])
					f := foldAll(recs[:k])
					if keep < 0 {
						shed.Trim(shedding(0, 0))
						f.Trim(fold.Keep{})
					} else {
						shed.Trim(shedding(3, 1))
						f.Trim(shedding(3, 1))
						before := keptJSON(f)
						count := f.StepCount()
						got := f.Trim(forgetting(keep)).Forgot
						if f.StepCount() != count || f.StepBase() != got.Steps {
							t.Fatalf("%s: %d steps made and base %d after Forget dropped %d; want %d made", where, f.StepCount(), f.StepBase(), got.Steps, count)
						}
						after := keptJSON(f)
						for what, b := range before {
							if what == "steps" {
								continue
							}
							if !bytes.Equal(after[what], b) {
								t.Fatalf("%s: Forget changed the %s", where, what)
							}
						}
						if a, b := stepsFrom(f, f.StepBase()), stepsFrom(shed, f.StepBase()); !bytes.Equal(a, b) {
							t.Fatalf("%s: Forget changed a kept step", where)
						}
						for i := range f.StepBase() {
							if s := shed.Step(i); !s.Shed || !s.Status.Done() {
								t.Fatalf("%s: Forget dropped step %d, which was not shed and finished", where, i)
							}
						}
						if f.StepCount()-f.StepBase() < min(keep, count) {
							t.Fatalf("%s: kept %d steps, want at least %d", where, f.StepCount()-f.StepBase(), keep)
						}
					}
					foldsOnAlike(t, where+", forgotten", f, recs[k:])
					shed.Apply(recs[k:]...)
					if !generated {
						continue
					}
					want, got := keptJSON(shed), keptJSON(f)
					for what, b := range want {
						if what == "steps" {
							continue
						}
						if !bytes.Equal(got[what], b) {
							t.Fatalf("%s: folded on, the %s differ from the fold that only shed: %s", where, what, firstDiff(got[what], b))
						}
					}
					if a, b := stepsFrom(f, f.StepBase()), stepsFrom(shed, f.StepBase()); !bytes.Equal(a, b) {
						t.Fatalf("%s: folded on, the steps differ from the fold that only shed", where)
					}
					if a, b := jsonOf(f.Diagnostics()), jsonOf(shed.Diagnostics()); !bytes.Equal(a, b) {
						t.Fatalf("%s: folded on, the diagnostics differ: %s", where, firstDiff(a, b))
					}
				}
			}
		})
	}
}

// What a fold that sheds and forgets as --plain does holds stays bounded
// as the log grows: the steps it keeps, and the exported state (which
// holds every tombstone and owner) grows by a few bytes a message at most.
func TestForgetBounds(t *testing.T) {
	size := func(n int) (steps, state int) {
		recs := genRecords(loggen.Generate(n, 11))
		f := fold.New(fold.Options{})
		for i, r := range recs {
			f.Apply(r)
			if len(f.Items()) >= 64 || i == len(recs)-1 {
				f.Trim(fold.Keep{Items: 32, Content: 8, Skeletons: 16, Tombstones: fold.TombstonesRecent})
			}
		}
		return len(f.Steps()), len(export(t, f))
	}
	steps1, state1 := size(20_000)
	steps10, state10 := size(200_000)
	if steps10 > 2*steps1+64 {
		t.Errorf("steps kept: %d after 20,000 events, %d after 200,000", steps1, steps10)
	}
	// The exported state holds the messages' hashes (about 20 bytes each
	// as JSON): 200,000 events have about 10,000 messages.
	if state10 > state1+400_000 {
		t.Errorf("exported state: %d bytes after 20,000 events, %d after 200,000", state1, state10)
	}
	t.Logf("steps kept %d → %d, state %d → %d bytes", steps1, steps10, state1, state10)
}

// firstDiff says where got and want first differ, with a little of each.
func firstDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	cut := func(b []byte) []byte { return b[max(0, i-40):min(len(b), i+80)] }
	return fmt.Sprintf("at byte %d of %d (want %d):\n got …%s…\nwant …%s…", i, len(got), len(want), cut(got), cut(want))
}

// Forget keeps a sketch of every step it drops: status, category, tool
// and run as the fold that never forgot has them, through an export and a
// restore, and in two folds that went on from one checkpoint.
func TestForgottenStepsSketched(t *testing.T) {
	recs := genRecords(loggen.Generate(30_000, 4))
	whole := foldAll(recs)
	const every = 700
	foldOn := func(f *fold.Fold, from int) {
		for i := from; i < len(recs); i += every {
			f.Apply(recs[i:min(i+every, len(recs))]...)
			f.Trim(fold.Keep{Items: 100, Content: 20, Skeletons: 30, Tombstones: fold.TombstonesRecent})
		}
	}
	f := fold.New(fold.Options{})
	mid := len(recs) / 2 // just after a run's end, where every step is done
	for !bytes.Contains(recs[mid-1].Raw, []byte(`"RUN_FINISHED"`)) {
		mid++
	}
	foldOn(f, 0)
	head := fold.New(fold.Options{})
	for i := 0; i < mid; i += every {
		head.Apply(recs[i:min(i+every, mid)]...)
		head.Trim(fold.Keep{Items: 100, Content: 20, Skeletons: 30, Tombstones: fold.TombstonesRecent})
	}
	cp, baseAtCp := head.Checkpoint(), head.StepBase()
	foldOn(head, mid)
	again := fold.FromCheckpoint(cp, fold.Options{})
	foldOn(again, mid)
	// A third fold from the same checkpoint goes another way, forgetting
	// steps of its own: the others' sketches stay theirs.
	other := fold.FromCheckpoint(cp, fold.Options{})
	var thread struct {
		ThreadID string `json:"threadId"`
	}
	if err := json.Unmarshal(recs[0].Raw, &thread); err != nil {
		t.Fatal(err)
	}
	var fork bytes.Buffer
	fmt.Fprintf(&fork, `{"type":"RUN_STARTED","threadId":%q,"runId":"fork"}`+"\n", thread.ThreadID)
	for i := range 3000 {
		fmt.Fprintf(&fork, `{"type":"TOOL_CALL_START","toolCallId":"fork%d","toolCallName":"forked","metadata":{"category":"fetch"}}`+"\n", i)
		fmt.Fprintf(&fork, `{"type":"TOOL_CALL_END","toolCallId":"fork%d"}`+"\n", i)
		fmt.Fprintf(&fork, `{"type":"TOOL_CALL_RESULT","messageId":"rfork%d","toolCallId":"fork%d","content":"x","metadata":{"exitCode":1}}`+"\n", i, i)
	}
	fmt.Fprintf(&fork, `{"type":"RUN_FINISHED","threadId":%q,"runId":"fork"}`+"\n", thread.ThreadID)
	other.Apply(genRecords(fork.Bytes())...)
	other.Trim(fold.Keep{Tombstones: fold.TombstonesRecent})
	if n := other.StepBase(); n < baseAtCp+3000 {
		t.Fatalf("the other fold forgot %d steps, %d at the checkpoint", n, baseAtCp)
	}
	if f.StepBase() < whole.StepCount()/2 {
		t.Fatalf("forgot %d of %d steps", f.StepBase(), whole.StepCount())
	}
	snap, err := f.Export()
	if err != nil {
		t.Fatal(err)
	}
	restored := fold.New(fold.Options{})
	if err := restored.Restore(snap); err != nil {
		t.Fatal(err)
	}
	for name, g := range map[string]*fold.Fold{"forgot": f, "restored": restored, "after the checkpoint": head, "from the checkpoint": again} {
		kinds := map[*model.Step]bool{}
		for i := range g.StepBase() {
			s, w := g.ForgottenStep(i), whole.Step(i)
			if s == nil || s.Index != -1 || !s.Shed || s.Status != w.Status || s.Category != w.Category ||
				s.ToolName != w.ToolName || s.RunID != w.RunID || s.SubagentRunID != w.SubagentRunID {
				t.Fatalf("%s: step %d is sketched %+v, the fold had %s %s %s %s", name, i, s, w.Status, w.Category, w.ToolName, w.RunID)
			}
			kinds[s] = true
		}
		if g.ForgottenStep(g.StepBase()) != nil || g.ForgottenStep(-1) != nil {
			t.Errorf("%s: a step that was not forgotten has a sketch", name)
		}
		if len(kinds) > g.StepBase()/4 {
			t.Errorf("%s: %d sketches for %d steps: they are not shared", name, len(kinds), g.StepBase())
		}
	}
}

// A snapshot whose step sketches a fold could not have written (a code
// out of range, more codes than forgotten steps, a code too big for two
// bytes) is refused with a reason, not restored to draw nonsense.
func TestForgottenStepsBadSketches(t *testing.T) {
	f := foldAll(genRecords(loggen.Generate(3_000, 2)))
	f.Trim(fold.Keep{Tombstones: fold.TombstonesRecent})
	if f.StepBase() == 0 {
		t.Fatal("nothing forgotten")
	}
	snap, err := f.Export()
	if err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]struct {
		change func(sk map[string]any, display map[string]any)
		want   string
	}{
		"code of no sketch": {func(sk, _ map[string]any) { sk["codes"].([]any)[0] = 999 }, "code 999"},
		"more codes":        {func(sk, d map[string]any) { d["stepBase"] = 1 }, "for 1 forgotten steps"},
		"too big":           {func(sk, _ map[string]any) { sk["codes"].([]any)[0] = 70000 }, "restore fold"},
		"not a list":        {func(sk, _ map[string]any) { sk["codes"] = "\x1b[2J" }, "restore fold"},
	} {
		t.Run(name, func(t *testing.T) {
			var st map[string]any
			if err := json.Unmarshal(snap.State, &st); err != nil {
				t.Fatal(err)
			}
			d := st["display"].(map[string]any)
			c.change(d["sketches"].(map[string]any), d)
			bad := snap
			if bad.State, err = json.Marshal(st); err != nil {
				t.Fatal(err)
			}
			err := fold.New(fold.Options{}).Restore(bad)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("restore: %v, want an error saying %q", err, c.want)
			}
		})
	}
	if err := fold.New(fold.Options{}).Restore(snap); err != nil {
		t.Errorf("the snapshot itself: %v", err)
	}
}

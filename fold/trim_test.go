package fold_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
)

// A Keep that forgets skeletons and keeps every tombstone, which no view
// uses yet, keeps the forgetting laws: it changes nothing shown but the
// steps it drops, forgets no tombstone, owner or diagnostic, and folding
// on gives what the merely shed fold gives, steps before StepBase aside.
func TestTrimSkeletonsAlone(t *testing.T) {
	skeletons := fold.Keep{Items: fold.All, Content: fold.All, Skeletons: 2, Tombstones: fold.TombstonesAll}
	for name, recs := range shedLogs(t) {
		if !strings.HasPrefix(name, "loggen") {
			continue
		}
		t.Run(name, func(t *testing.T) {
			forgot := 0
			for k := 0; k <= len(recs); k += max(1, len(recs)/8) {
				where := fmt.Sprintf("split %d of %d", k, len(recs))
				shed, f := foldAll(recs[:k]), foldAll(recs[:k])
				shed.Trim(shedding(3, 1))
				f.Trim(shedding(3, 1))
				before := keptJSON(f)
				got := f.Trim(skeletons)
				forgot += got.Forgot.Steps
				if got.Shed != (fold.Shed{}) || got.Forgot.Tombstones+got.Forgot.Owners+got.Forgot.Diagnostics != 0 {
					t.Fatalf("%s: dropped %+v, want skeletons alone", where, got)
				}
				if f.StepBase() != got.Forgot.Steps || f.StepCount()-f.StepBase() < min(2, f.StepCount()) {
					t.Fatalf("%s: base %d after forgetting %d steps of %d", where, f.StepBase(), got.Forgot.Steps, f.StepCount())
				}
				for what, b := range keptJSON(f) {
					if what != "steps" && !bytes.Equal(b, before[what]) {
						t.Fatalf("%s: forgetting skeletons changed the %s", where, what)
					}
				}
				foldsOnAlike(t, where+", skeletons forgotten", f, recs[k:])
				shed.Apply(recs[k:]...)
				want, have := keptJSON(shed), keptJSON(f)
				for what, b := range want {
					if what != "steps" && !bytes.Equal(have[what], b) {
						t.Fatalf("%s: folded on, the %s differ from the fold that only shed: %s", where, what, firstDiff(have[what], b))
					}
				}
				if a, b := stepsFrom(f, f.StepBase()), stepsFrom(shed, f.StepBase()); !bytes.Equal(a, b) {
					t.Fatalf("%s: folded on, the steps differ from the fold that only shed", where)
				}
			}
			if forgot == 0 {
				t.Fatal("no step was forgotten: the test checks nothing")
			}
		})
	}
}

// Trim does nothing with a Keep that keeps everything, and a Keep that
// keeps nothing leaves only what is open.
func TestTrimEnds(t *testing.T) {
	recs := genRecords([]byte(strings.Join([]string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"done"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"read"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c1"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"r1","toolCallId":"c1","content":"ok"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"still going"}`,
	}, "\n")))
	f := foldAll(recs)
	before := export(t, f)
	everything := fold.Keep{Items: fold.All, Content: fold.All, Skeletons: fold.All, Tombstones: fold.TombstonesAll}
	if got := f.Trim(everything); got != (fold.Trimmed{}) || !bytes.Equal(export(t, f), before) {
		t.Fatalf("keeping everything dropped %+v or changed the fold", got)
	}
	f.Trim(fold.Keep{})
	for _, it := range f.Items() {
		if it.Status.Done() {
			t.Errorf("keeping nothing kept a finished %s %q", it.Kind, it.ID)
		}
	}
	if len(f.Items()) == 0 || f.StepBase() != 1 || len(f.Steps()) != 0 {
		t.Errorf("keeping nothing left %d items, %d steps from %d", len(f.Items()), len(f.Steps()), f.StepBase())
	}
	if f.Messages()[len(f.Messages())-1].ID != "m2" {
		t.Error("the open message went")
	}
}

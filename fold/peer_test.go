package fold_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/refcheck"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// The peer tests hold the fold to the reference AG-UI client (@ag-ui/client
// 1.0.0): testdata/peer/golden holds what its defaultApplyEvents and
// verifyEvents make of each log in testdata/peer/samples (see
// testdata/peer/README.md; regenerate with testdata/peer/regen.sh).

const peerDir = "../testdata/peer"

// peerGolden is one golden file: the reference's messages and state, and its
// verifier's first error.
type peerGolden struct {
	Messages any `json:"messages"`
	State    any `json:"state"`
	Verify   struct {
		OK            bool   `json:"ok"`
		Error         string `json:"error"`
		AtSourceIndex *int   `json:"atSourceIndex"`
	} `json:"verify"`
}

// peerSample is a sample log with its golden.
type peerSample struct {
	name   string
	path   string
	raw    []byte
	golden peerGolden
}

func peerSamples(t *testing.T) []peerSample {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(peerDir, "samples"))
	if err != nil {
		t.Fatalf("list samples: %v", err)
	}
	var out []peerSample
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		s := peerSample{name: e.Name(), path: filepath.Join(peerDir, "samples", e.Name())}
		if s.raw, err = os.ReadFile(s.path); err != nil {
			t.Fatal(err)
		}
		g, err := os.ReadFile(filepath.Join(peerDir, "golden", e.Name()+".json"))
		if err != nil {
			t.Fatalf("%s: no golden (run testdata/peer/regen.sh): %v", e.Name(), err)
		}
		if err := json.Unmarshal(g, &s.golden); err != nil {
			t.Fatalf("%s: golden: %v", e.Name(), err)
		}
		if !s.golden.Verify.OK && s.golden.Verify.AtSourceIndex == nil {
			t.Fatalf("%s: golden: verify failed without atSourceIndex", e.Name())
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatal("no samples in " + peerDir + "/samples")
	}
	return out
}

// foldSample reads a sample as the CLI does and folds all of it.
func foldSample(t *testing.T, s peerSample) *fold.Fold {
	t.Helper()
	r := sources.NewReader(bytes.NewReader(s.raw))
	var recs []model.Record
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("read %s: %v", s.name, err)
		}
		recs = append(recs, rec)
	}
	f := fold.New(fold.Options{})
	if _, err := f.Apply(recs...); err != nil {
		// Only records of another thread make Apply fail; they are also
		// diagnostics, and any effect on messages shows in the comparison.
		t.Logf("%s: Apply: %v", s.name, err)
	}
	return f
}

// normalise round-trips v through JSON into plain values (map[string]any,
// []any, float64, …) so that it compares with a golden.
func normalise(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("unmarshal %s: %v", b, err)
	}
	return out
}

// messagesDiff says which messages differ, one paragraph each.
func messagesDiff(want, got any) string {
	w, _ := want.([]any)
	g, _ := got.([]any)
	var b strings.Builder
	if len(w) != len(g) {
		fmt.Fprintf(&b, "reference has %d messages, fold has %d\n", len(w), len(g))
	}
	for i := range max(len(w), len(g)) {
		var wi, gi any = "(none)", "(none)"
		if i < len(w) {
			wi = w[i]
		}
		if i < len(g) {
			gi = g[i]
		}
		if !reflect.DeepEqual(wi, gi) {
			fmt.Fprintf(&b, "message %d differs\n  reference: %s\n  fold:      %s\n", i, refcheck.OneLine(wi), refcheck.OneLine(gi))
		}
	}
	return b.String()
}

// TestPeerMessagesAndState: the fold's messages and state equal the
// reference client's for every sample, field for field.
func TestPeerMessagesAndState(t *testing.T) {
	for _, s := range peerSamples(t) {
		t.Run(s.name, func(t *testing.T) {
			checkPeer(t, s, foldSample(t, s), "")
		})
	}
}

// TestPeerAfterRestore: a fold exported, written as JSON and restored, and a
// fold restored from an in-memory checkpoint, still hold the reference's
// messages and state. Nothing present is lost on the way, however empty.
func TestPeerAfterRestore(t *testing.T) {
	for _, s := range peerSamples(t) {
		t.Run(s.name, func(t *testing.T) {
			orig := foldSample(t, s)
			checkPeer(t, s, throughJSON(t, orig), " after Export → Restore")
			checkPeer(t, s, fold.FromCheckpoint(orig.Checkpoint(), fold.Options{}), " after Checkpoint → FromCheckpoint")
		})
	}
}

// checkPeer compares f's messages and state with the sample's golden, up to
// the renaming of legacy THINKING_* ids and nothing else.
func checkPeer(t *testing.T, s peerSample, f *fold.Fold, when string) {
	t.Helper()
	sum := f.Summary()
	got := normalise(t, sum.Messages)
	want := s.golden.Messages
	if refcheck.HasLegacyThinking(s.raw) {
		m := refcheck.NewRenaming()
		want = m.Unify(want, got, "messages")
		for _, e := range m.Errs {
			t.Error(e)
		}
		if len(m.Fwd) > 0 {
			t.Logf("legacy ids, reference -> fold: %v", m.Fwd)
		}
	}
	if diffs := refcheck.Diff(want, got, "messages"); len(diffs) > 0 {
		t.Errorf("messages%s differ from the reference:\n  %s\n%s", when, strings.Join(diffs, "\n  "), messagesDiff(want, got))
	}
	var gotState any
	if err := json.Unmarshal(sum.State, &gotState); err != nil {
		t.Fatalf("fold state%s %s: %v", when, sum.State, err)
	}
	if diffs := refcheck.Diff(s.golden.State, gotState, "state"); len(diffs) > 0 {
		t.Errorf("state%s differs from the reference:\n  %s\n  reference: %s\n  fold:      %s", when,
			strings.Join(diffs, "\n  "), refcheck.OneLine(s.golden.State), refcheck.OneLine(gotState))
	}
}

// TestPeerVerify: where the reference verifier fails, the fold's first
// diagnostic is on the same event with the same message; where it passes,
// the fold reports no violation of its rules (R1–R14).
func TestPeerVerify(t *testing.T) {
	for _, s := range peerSamples(t) {
		t.Run(s.name, func(t *testing.T) {
			diags := foldSample(t, s).Diagnostics()
			if s.golden.Verify.OK {
				for _, d := range diags {
					if strings.HasPrefix(string(d.Rule), "R") {
						t.Errorf("reference verifier passes, fold reports #%d %s [%s]: %s", d.Seq, d.Type, d.Rule, d.Message)
					}
				}
				return
			}
			wantSeq := uint64(*s.golden.Verify.AtSourceIndex) + 1
			if len(diags) == 0 {
				t.Fatalf("reference fails at #%d (%s); fold reports nothing", wantSeq, s.golden.Verify.Error)
			}
			d := diags[0]
			if d.Seq != wantSeq {
				t.Errorf("first diagnostic at #%d [%s] %q; reference fails at #%d", d.Seq, d.Rule, d.Message, wantSeq)
			}
			if d.Message != s.golden.Verify.Error {
				t.Errorf("first diagnostic message (#%d [%s]):\n  fold:      %s\n  reference: %s", d.Seq, d.Rule, d.Message, s.golden.Verify.Error)
			}
		})
	}
}

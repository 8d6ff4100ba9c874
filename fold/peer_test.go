package fold_test

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
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

var (
	uuidRe     = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	thinkingRe = regexp.MustCompile(`^thinking-[0-9]+$`)
	legacyRe   = regexp.MustCompile(`"type"\s*:\s*"THINKING_`)
)

// idRenaming maps the reference's random ids for legacy THINKING_* events
// (UUIDs) to ours ("thinking-<seq>"). It must stay a bijection: one UUID is
// always the same id of ours, and no two UUIDs share one.
type idRenaming struct {
	fwd, rev map[string]string
	errs     []string
}

// unify walks want and got in step and, wherever want holds a UUID and got a
// "thinking-N" at the same place, records the pair and rewrites want to
// got's id. Places where the shapes differ are left for the comparison.
func (m *idRenaming) unify(want, got any, path string) any {
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		if !ok || !uuidRe.MatchString(w) || !thinkingRe.MatchString(g) {
			return want
		}
		if prev, seen := m.fwd[w]; seen && prev != g {
			m.errs = append(m.errs, fmt.Sprintf("%s: reference id %s is %s here but %s elsewhere", path, w, g, prev))
			return want
		}
		if prev, seen := m.rev[g]; seen && prev != w {
			m.errs = append(m.errs, fmt.Sprintf("%s: our id %s stands for reference id %s here but %s elsewhere", path, g, w, prev))
			return want
		}
		m.fwd[w], m.rev[g] = g, w
		return g
	case []any:
		g, ok := got.([]any)
		if !ok {
			return want
		}
		out := make([]any, len(w))
		for i := range w {
			var gi any
			if i < len(g) {
				gi = g[i]
			}
			out[i] = m.unify(w[i], gi, fmt.Sprintf("%s[%d]", path, i))
		}
		return out
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return want
		}
		out := make(map[string]any, len(w))
		for k, v := range w {
			out[k] = m.unify(v, g[k], path+"."+k)
		}
		return out
	}
	return want
}

// hasLegacyThinking reports whether a log holds AG-UI 0.x THINKING_* events.
func hasLegacyThinking(raw []byte) bool {
	return legacyRe.Match(raw)
}

// compactJSON writes v on one line, object keys sorted.
func compactJSON(v any) string {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
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
			fmt.Fprintf(&b, "message %d differs\n  reference: %s\n  fold:      %s\n", i, compactJSON(wi), compactJSON(gi))
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
			snap, err := orig.Export()
			if err != nil {
				t.Fatal(err)
			}
			wire, err := json.Marshal(snap)
			if err != nil {
				t.Fatal(err)
			}
			var back model.Snapshot
			if err := json.Unmarshal(wire, &back); err != nil {
				t.Fatal(err)
			}
			restored := fold.New(fold.Options{})
			if err := restored.Restore(back); err != nil {
				t.Fatal(err)
			}
			checkPeer(t, s, restored, " after Export → Restore")
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
	if hasLegacyThinking(s.raw) {
		m := &idRenaming{fwd: map[string]string{}, rev: map[string]string{}}
		want = m.unify(want, got, "messages")
		for _, e := range m.errs {
			t.Error(e)
		}
		if len(m.fwd) > 0 {
			t.Logf("legacy ids, reference -> fold: %v", m.fwd)
		}
	}
	if diffs := jsonDiff(want, got, "messages"); len(diffs) > 0 {
		t.Errorf("messages%s differ from the reference:\n  %s\n%s", when, strings.Join(diffs, "\n  "), messagesDiff(want, got))
	}
	var gotState any
	if err := json.Unmarshal(sum.State, &gotState); err != nil {
		t.Fatalf("fold state%s %s: %v", when, sum.State, err)
	}
	if diffs := jsonDiff(s.golden.State, gotState, "state"); len(diffs) > 0 {
		t.Errorf("state%s differs from the reference:\n  %s\n  reference: %s\n  fold:      %s", when,
			strings.Join(diffs, "\n  "), compactJSON(s.golden.State), compactJSON(gotState))
	}
}

// jsonDiff lists every place where got differs from want, two JSON values
// decoded into plain Go values (map[string]any, []any, string, float64,
// bool, nil). It is strict about presence: a member or element that one side
// has and the other lacks is a difference whatever its value, so an absent
// field differs from "", [], {} and null, and those from each other. Numbers
// compare as float64, the precision the reference itself has.
func jsonDiff(want, got any, path string) []string {
	show := func(v any) string { return compactJSON(v) }
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: reference %s, fold %s", path, show(want), show(got))}
		}
		var out []string
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if gv, ok := g[k]; ok {
				out = append(out, jsonDiff(w[k], gv, path+"."+k)...)
			} else {
				out = append(out, fmt.Sprintf("%s.%s: reference %s, fold has no such member", path, k, show(w[k])))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(g)) {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: reference has no such member, fold %s", path, k, show(g[k])))
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s: reference %s, fold %s", path, show(want), show(got))}
		}
		var out []string
		for i := range max(len(w), len(g)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(g):
				out = append(out, fmt.Sprintf("%s: reference %s, fold has no such element", p, show(w[i])))
			case i >= len(w):
				out = append(out, fmt.Sprintf("%s: reference has no such element, fold %s", p, show(g[i])))
			default:
				out = append(out, jsonDiff(w[i], g[i], p)...)
			}
		}
		return out
	case string, float64, bool, nil:
		if want != got {
			return []string{fmt.Sprintf("%s: reference %s, fold %s", path, show(want), show(got))}
		}
		return nil
	}
	return []string{fmt.Sprintf("%s: reference holds a %T, which is not a decoded JSON value", path, want)}
}

// TestJSONDiff: the peer comparison tells absent, null, "", [] and {} apart,
// at the top and deep inside, and finds equal values equal.
func TestJSONDiff(t *testing.T) {
	decode := func(s string) any {
		var v any
		if err := json.Unmarshal([]byte(s), &v); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		return v
	}
	empties := []string{`null`, `""`, `[]`, `{}`, `0`, `false`}
	for _, a := range empties {
		for _, b := range empties {
			want := decode(`[{"id":"m","toolCalls":` + a + `}]`)
			got := decode(`[{"id":"m","toolCalls":` + b + `}]`)
			if d := jsonDiff(want, got, "messages"); (len(d) == 0) != (a == b) {
				t.Errorf("%s against %s: %q", a, b, d)
			}
		}
		present := decode(`[{"id":"m","content":[{"type":"text","text":` + a + `}]}]`)
		absent := decode(`[{"id":"m","content":[{"type":"text"}]}]`)
		if d := jsonDiff(present, absent, "messages"); len(d) != 1 || !strings.Contains(d[0], "messages[0].content[0].text") {
			t.Errorf("text %s against absent: %q", a, d)
		}
		if d := jsonDiff(absent, present, "messages"); len(d) != 1 {
			t.Errorf("absent against text %s: %q", a, d)
		}
	}
	if d := jsonDiff(decode(`[1,[]]`), decode(`[1]`), "x"); len(d) != 1 {
		t.Errorf("a missing element: %q", d)
	}
	same := `{"a":[1,"",null,{},[]],"b":{"c":true}}`
	if d := jsonDiff(decode(same), decode(same), "x"); len(d) != 0 {
		t.Errorf("equal values: %q", d)
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

// TestIDRenaming: the legacy-id renaming accepts a consistent one-to-one
// mapping and rejects one that is not.
func TestIDRenaming(t *testing.T) {
	const u1, u2 = "8acf582d-b4d1-4d72-8109-23c9653c4e82", "04206385-6bd1-4473-9ad2-ebe7396d6fe2"
	msgs := func(ids ...string) any {
		var out []any
		for _, id := range ids {
			out = append(out, map[string]any{"id": id, "role": "reasoning"})
		}
		return out
	}
	tests := []struct {
		name      string
		want, got any
		ok        bool
	}{
		{"one to one", msgs(u1, u2, u1), msgs("thinking-2", "thinking-5", "thinking-2"), true},
		{"no legacy ids", msgs("a", "b"), msgs("a", "b"), true},
		{"one reference id, two of ours", msgs(u1, u1), msgs("thinking-2", "thinking-5"), false},
		{"two reference ids, one of ours", msgs(u1, u2), msgs("thinking-2", "thinking-2"), false},
		{"reference id against a plain id", msgs(u1), msgs("r1"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &idRenaming{fwd: map[string]string{}, rev: map[string]string{}}
			want := m.unify(tt.want, tt.got, "messages")
			ok := len(m.errs) == 0 && reflect.DeepEqual(want, tt.got)
			if ok != tt.ok {
				t.Errorf("equal up to renaming = %v, want %v (errors %q, renamed %v)", ok, tt.ok, m.errs, want)
			}
		})
	}
}

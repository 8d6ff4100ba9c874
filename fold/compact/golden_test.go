package compact_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold/compact"
	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/model"
)

// These tests hold compaction to the reference without node: the goldens in
// testdata/compact/golden are the peer's compaction of every sample, ours,
// and what the peer's checker says of both (testdata/compact/regen.sh).

// peerVerify is a verifier's verdict in a report.
type peerVerify struct {
	OK            bool   `json:"ok"`
	Error         string `json:"error"`
	AtSourceIndex *int   `json:"atSourceIndex"`
}

// peerReport is golden/NAME.report.json.
type peerReport struct {
	Input struct {
		Count    int        `json:"count"`
		Verify   peerVerify `json:"verify"`
		Messages any        `json:"messages"`
		State    any        `json:"state"`
	} `json:"input"`
	PeerCompaction struct {
		Count            int        `json:"count"`
		Verify           peerVerify `json:"verify"`
		ReplayEquivalent struct {
			Messages bool `json:"messages"`
			State    bool `json:"state"`
		} `json:"replayEquivalent"`
	} `json:"peerCompaction"`
	Ours struct {
		Count    int        `json:"count"`
		Verify   peerVerify `json:"verify"`
		Messages any        `json:"messages"`
		State    any        `json:"state"`
	} `json:"ours"`
}

// sound reports whether the peer found its own compaction sound.
func (r *peerReport) sound() bool {
	pc := r.PeerCompaction
	return pc.Verify.OK && pc.ReplayEquivalent.Messages && pc.ReplayEquivalent.State
}

// golden is one sample with its goldens.
type golden struct {
	sample
	peer   []byte // the reference's compaction
	ours   []byte // ours, as agentwatch compact wrote it
	report peerReport
}

func goldens(t *testing.T) []golden {
	t.Helper()
	var out []golden
	for _, s := range peerSamples(t) {
		g := golden{sample: s}
		base := filepath.Join(goldenDir, "golden", s.name)
		var err error
		if g.peer, err = os.ReadFile(base + ".peer.json"); err != nil {
			t.Fatalf("%v (run testdata/compact/regen.sh)", err)
		}
		if g.ours, err = os.ReadFile(base + ".ours.json"); err != nil {
			t.Fatalf("%v (run testdata/compact/regen.sh)", err)
		}
		rep, err := os.ReadFile(base + ".report.json")
		if err != nil {
			t.Fatalf("%v (run testdata/compact/regen.sh)", err)
		}
		if err := json.Unmarshal(rep, &g.report); err != nil {
			t.Fatalf("%s: %v", base+".report.json", err)
		}
		out = append(out, g)
	}
	return out
}

// normalJSON parses JSON into plain values: what JSON normalisation (parse,
// re-marshal with sorted keys) compares.
func normalJSON(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("parse: %v", err)
	}
	return v
}

// recordsJSON is records as one normalised JSON array.
func recordsJSON(t *testing.T, recs []model.Record) any {
	t.Helper()
	var buf bytes.Buffer
	if err := compact.Encode(&buf, recs); err != nil {
		t.Fatal(err)
	}
	return normalJSON(t, buf.Bytes())
}

// firstDiff says at which event two normalised arrays first differ.
func firstDiff(want, got any) string {
	w, _ := want.([]any)
	g, _ := got.([]any)
	for i := range max(len(w), len(g)) {
		var wi, gi any = "(none)", "(none)"
		if i < len(w) {
			wi = w[i]
		}
		if i < len(g) {
			gi = g[i]
		}
		if !reflect.DeepEqual(wi, gi) {
			return fmt.Sprintf("event %d: want %s, got %s (%d and %d events)", i, oneLine(wi), oneLine(gi), len(w), len(g))
		}
	}
	return "equal"
}

func oneLine(v any) string {
	b, _ := json.Marshal(v, json.Deterministic(true))
	return string(b)
}

// TestReferenceMatchesPeer: Reference, the port of compactEvents, gives the
// peer's output on every sample, faults included.
func TestReferenceMatchesPeer(t *testing.T) {
	for _, g := range goldens(t) {
		t.Run(g.name, func(t *testing.T) {
			got := recordsJSON(t, compact.Reference(readLog(t, g.raw)))
			want := normalJSON(t, g.peer)
			if !reflect.DeepEqual(want, got) {
				t.Errorf("Reference differs from the peer's compactEvents: %s", firstDiff(want, got))
			}
		})
	}
}

// TestLaw1: wherever the peer reports its compaction sound (it verifies and
// is replay-equivalent), Compact's output equals it after normalisation.
func TestLaw1(t *testing.T) {
	sound := 0
	for _, g := range goldens(t) {
		t.Run(g.name, func(t *testing.T) {
			if !g.report.sound() {
				t.Skipf("the peer's compaction is not sound (verify %v, replay-equivalent %+v)", g.report.PeerCompaction.Verify.OK, g.report.PeerCompaction.ReplayEquivalent)
			}
			sound++
			in := readLog(t, g.raw)
			res, err := compact.Compact(in, equiv.Against(in))
			if err != nil {
				t.Fatal(err)
			}
			got, want := recordsJSON(t, res.Records), normalJSON(t, g.peer)
			if !reflect.DeepEqual(want, got) {
				t.Errorf("Compact (%s) differs from the sound reference: %s", res.Method, firstDiff(want, got))
			}
		})
	}
	if sound < 15 {
		t.Errorf("only %d samples have a sound reference compaction", sound)
	}
}

// TestOursGoldenCurrent: golden/NAME.ours.json is what Compact writes today,
// so the peer's report on it is about our current output.
func TestOursGoldenCurrent(t *testing.T) {
	for _, g := range goldens(t) {
		t.Run(g.name, func(t *testing.T) {
			in := readLog(t, g.raw)
			res, err := compact.Compact(in, equiv.Against(in))
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := compact.Encode(&buf, res.Records); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), g.ours) {
				t.Errorf("ours.json is stale: %s (run testdata/compact/regen.sh)", firstDiff(normalJSON(t, g.ours), normalJSON(t, buf.Bytes())))
			}
		})
	}
}

// TestPeerChecksOurs: the peer's checker verifies our compaction whenever it
// verifies the input, and folds it to the input's messages and state (law 2
// by the reference's own machinery). Legacy THINKING_* ids, which the
// reference mints at random, are compared up to renaming.
func TestPeerChecksOurs(t *testing.T) {
	fixed := 0
	for _, g := range goldens(t) {
		t.Run(g.name, func(t *testing.T) {
			rep := g.report
			if !rep.Input.Verify.OK {
				t.Skipf("the input does not verify (%s); the peer folds it unverified", rep.Input.Verify.Error)
			}
			if !rep.Ours.Verify.OK {
				t.Errorf("the peer verifies the input but not ours: %s at %v", rep.Ours.Verify.Error, rep.Ours.Verify.AtSourceIndex)
			}
			if w, g := canonicalUUIDs(rep.Input.Messages), canonicalUUIDs(rep.Ours.Messages); !reflect.DeepEqual(w, g) {
				t.Errorf("the peer folds ours to other messages: %s", equiv.MessagesDiff(w, g))
			}
			if !reflect.DeepEqual(rep.Input.State, rep.Ours.State) {
				t.Errorf("the peer folds ours to another state: %s, input %s", oneLine(rep.Ours.State), oneLine(rep.Input.State))
			}
			if !rep.sound() {
				fixed++
			}
		})
	}
	if fixed == 0 {
		t.Error("no verifying sample where the reference's compaction is unsound")
	}
}

var uuidRe = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// canonicalUUIDs renames UUIDs to "uuid#<n>" in order of first appearance.
func canonicalUUIDs(v any) any {
	names := map[string]string{}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if !uuidRe.MatchString(x) {
				return x
			}
			if _, ok := names[x]; !ok {
				names[x] = fmt.Sprintf("uuid#%d", len(names)+1)
			}
			return names[x]
		case []any:
			out := make([]any, len(x))
			for i := range x {
				out[i] = walk(x[i])
			}
			return out
		case map[string]any:
			out := make(map[string]any, len(x))
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				out[k] = walk(x[k])
			}
			return out
		}
		return v
	}
	return walk(v)
}

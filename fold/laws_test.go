package fold_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/assets"
	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/sources"
)

// fixtures returns every log the laws are checked on: the peer samples, the
// fixtures in testdata, the embedded demo and the ACP recordings in
// testdata/acp.
func fixtures(t *testing.T) map[string][]model.Record {
	t.Helper()
	paths, _ := filepath.Glob("../testdata/peer/samples/*")
	more, _ := filepath.Glob("../testdata/fixtures/*")
	paths = append(paths, more...)
	out := map[string][]model.Record{"demo": readAll(t, bytes.NewReader(assets.Demo))}
	for _, p := range paths {
		if filepath.Base(p) == "demo.jsonl" {
			continue // the embedded demo, already in
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(p)] = readAll(t, f)
		f.Close()
	}
	if len(out) < 5 {
		t.Fatalf("only %d fixtures found; the laws need the peer samples in testdata/peer/samples", len(out))
	}
	// The agents' own session files, as their readers translate them.
	sessions, _ := filepath.Glob("../testdata/claude/projects/*/*.jsonl")
	rollouts, _ := filepath.Glob("../testdata/codex/sessions/*/*/*/*.jsonl")
	sessions = append(sessions, rollouts...)
	copilots, _ := filepath.Glob("../testdata/copilot/session-state/*/events.jsonl")
	sessions = append(sessions, copilots...)
	geminis, _ := filepath.Glob("../testdata/gemini/tmp/*/chats/*.jsonl")
	sessions = append(sessions, geminis...)
	for _, p := range sessions {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimPrefix(p, "../testdata/")] = readAll(t, f)
		f.Close()
	}
	acpPaths, _ := filepath.Glob("../testdata/acp/*.jsonl")
	if len(acpPaths) < 2 {
		t.Fatalf("only %d ACP recordings found; the laws need those in testdata/acp", len(acpPaths))
	}
	for _, p := range acpPaths {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		recs, err := sources.ReadACPRecording(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		out["acp/"+filepath.Base(p)] = recs
	}
	return out
}

func readAll(t *testing.T, r io.Reader) []model.Record {
	t.Helper()
	recs, err := sources.ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// export is f's snapshot as the bytes the laws compare: its version and
// its state, which Export already writes as JSON (marshalling the
// snapshot again only checked and copied that JSON: a sixth of the
// shedding laws' time).
func export(t *testing.T, f *fold.Fold) []byte {
	t.Helper()
	s, err := f.Export()
	if err != nil {
		t.Fatal(err)
	}
	return append(strconv.AppendInt(nil, int64(s.Version), 10), s.State...)
}

// throughJSON is f exported, written as JSON, read back and restored into
// a new fold: what a checkpoint on disk gives back.
func throughJSON(t *testing.T, f *fold.Fold) *fold.Fold {
	t.Helper()
	snap, err := f.Export()
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
	return restored
}

func foldAll(recs []model.Record) *fold.Fold {
	f := fold.New(fold.Options{})
	f.Apply(recs...)
	return f
}

// Law 1: at every split point of a short log, and at the points lawSplits
// picks in a longer one, export → JSON → restore → fold the rest equals
// folding everything; an exported snapshot never changes after; and the
// fold that exported on the way ends as the one that did not.
func TestLawCheckpointEverySplit(t *testing.T) {
	for name, recs := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			want := export(t, foldAll(recs))
			ks := lawSplits(recs)
			// One fold walks the records one at a time; at each split point
			// its export is restored into a fresh fold that folds the rest.
			head := fold.New(fold.Options{})
			var earlier []model.Snapshot
			var frozen [][]byte
			done := 0
			for i, k := range ks {
				for ; done < k; done++ {
					head.Apply(recs[done])
				}
				snap, err := head.Export()
				if err != nil {
					t.Fatal(err)
				}
				wire, err := json.Marshal(snap)
				if err != nil {
					t.Fatal(err)
				}
				if i%max(1, len(ks)/8) == 0 {
					earlier, frozen = append(earlier, snap), append(frozen, bytes.Clone(wire))
				}
				var back model.Snapshot
				if err := json.Unmarshal(wire, &back); err != nil {
					t.Fatal(err)
				}
				tail := fold.New(fold.Options{})
				if err := tail.Restore(back); err != nil {
					t.Fatalf("split %d: restore: %v", k, err)
				}
				tail.Apply(recs[k:]...)
				if got := export(t, tail); !bytes.Equal(got, want) {
					t.Fatalf("split %d of %d: restored fold differs from uninterrupted fold", k, len(recs))
				}
			}
			if got := export(t, head); !bytes.Equal(got, want) {
				t.Fatal("the fold that exported on the way differs from the uninterrupted fold")
			}
			// Folding on from the original must not have touched the snapshots taken on the way.
			for i, snap := range earlier {
				if again, _ := json.Marshal(snap); !bytes.Equal(again, frozen[i]) {
					t.Fatalf("snapshot %d changed after more folding", i)
				}
			}
		})
	}
}

// Law 1, determinism: the same records give the same fold whatever the batching.
func TestLawDeterministicBatching(t *testing.T) {
	for name, recs := range fixtures(t) {
		want := export(t, foldAll(recs))
		f := fold.New(fold.Options{})
		for i := range recs {
			f.Apply(recs[i])
		}
		if !bytes.Equal(export(t, f), want) {
			t.Errorf("%s: one-by-one fold differs from batch fold", name)
		}
	}
}

// view is what a user sees of a fold except the diagnostic rows.
type view struct {
	Messages, State, Steps, Runs []byte
	Items                        int
}

func viewOf(t *testing.T, f *fold.Fold) view {
	t.Helper()
	s := f.Summary()
	m, _ := json.Marshal(s.Messages, json.Deterministic(true))
	st, _ := json.Marshal(s.Steps, json.Deterministic(true))
	r, _ := json.Marshal(s.Runs, json.Deterministic(true))
	n := 0
	for _, it := range f.Items() {
		if it.Kind != model.ItemDiagnostic {
			n++
		}
	}
	return view{Messages: m, State: bytes.Clone(s.State), Steps: st, Runs: r, Items: n}
}

func rec(seq uint64, raw string) model.Record {
	return model.Record{Seq: seq, Raw: []byte(raw), Event: agui.Decode([]byte(raw))}
}

// Law 2: an event that breaks a rule changes nothing but adds one diagnostic
// (and its row); the fold goes on.
func TestLawAtomicApply(t *testing.T) {
	bad := []string{
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"no-such-message","delta":"x"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"no-such-call","delta":"{}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"no-such-call"}`,
		`{"type":"STEP_FINISHED","stepName":"never-started"}`,
		`{"type":"REASONING_END","messageId":"no-span"}`,
		`{"type":"SUBAGENT_FINISHED","subagentRunId":"no-subagent"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m","subagentRunId":null}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":42}`,
		`{"type":"TOOL_CALL_CHUNK","delta":"{}"}`,
		`not json at all`,
	}
	for name, recs := range fixtures(t) {
		for k := 0; k <= len(recs); k += max(1, len(recs)/20) {
			for _, raw := range bad {
				f := fold.New(fold.Options{})
				f.Apply(recs[:k]...)
				// An open chunk stream is closed by any explicit event (the
				// reference transformChunks synthesizes its END first); close
				// it with an empty patch so only the bad event remains.
				f.Apply(rec(uint64(len(recs)+1), `{"type":"STATE_DELTA","delta":[]}`))
				before, nd := viewOf(t, f), len(f.Diagnostics())
				u, err := f.Apply(rec(uint64(len(recs)+2), raw))
				if err != nil {
					t.Fatalf("%s@%d %s: unexpected error %v", name, k, raw, err)
				}
				if len(u.Diagnostics) != 1 || len(f.Diagnostics()) != nd+1 {
					t.Fatalf("%s@%d %s: want exactly one diagnostic, got %v", name, k, raw, u.Diagnostics)
				}
				if after := viewOf(t, f); !reflect.DeepEqual(before, after) {
					t.Fatalf("%s@%d %s: a rejected event changed the fold", name, k, raw)
				}
			}
		}
	}
}

// history replays records for Resume, optionally failing after some.
type history struct {
	recs   []model.Record
	i      int
	failAt int // -1: never
	during func()
}

func (h *history) Next() (model.Record, error) {
	if h.during != nil {
		h.during()
	}
	if h.i == h.failAt {
		return model.Record{}, errors.New("disk on fire")
	}
	if h.i >= len(h.recs) {
		return model.Record{}, io.EOF
	}
	h.i++
	return h.recs[h.i-1], nil
}

// Law 3: Resume is all or nothing, only on a fresh fold, publishes nothing,
// and refuses Apply while it runs.
func TestLawAtomicResume(t *testing.T) {
	for name, recs := range fixtures(t) {
		t.Run(name, func(t *testing.T) {
			fresh := export(t, fold.New(fold.Options{}))
			want := export(t, foldAll(recs))
			f := fold.New(fold.Options{})
			for _, failAt := range []int{0, len(recs) / 2, len(recs) - 1} {
				if failAt < 0 {
					continue
				}
				if err := f.Resume(context.Background(), &history{recs: recs, failAt: failAt}); err == nil {
					t.Fatalf("resume that fails at %d reported success", failAt)
				}
				if got := export(t, f); !bytes.Equal(got, fresh) || !f.Fresh() {
					t.Fatalf("failed resume (at %d) changed the fold", failAt)
				}
			}
			cx, cancel := context.WithCancel(context.Background())
			cancel()
			if err := f.Resume(cx, &history{recs: recs, failAt: -1}); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled resume: err %v", err)
			}
			if !bytes.Equal(export(t, f), fresh) {
				t.Fatal("cancelled resume changed the fold")
			}
			var applyErr error
			h := &history{recs: recs, failAt: -1, during: func() {
				if applyErr == nil {
					_, applyErr = f.Apply(recs...)
				}
			}}
			if err := f.Resume(context.Background(), h); err != nil {
				t.Fatalf("retry: %v", err)
			}
			if !errors.Is(applyErr, fold.ErrResuming) {
				t.Fatalf("Apply during resume: err %v, want ErrResuming", applyErr)
			}
			if !bytes.Equal(export(t, f), want) {
				t.Fatal("resumed fold differs from applying every record")
			}
			if err := f.Resume(context.Background(), &history{recs: recs, failAt: -1}); !errors.Is(err, fold.ErrNotFresh) {
				t.Fatalf("second resume: err %v, want ErrNotFresh", err)
			}
			if u, _ := f.Apply(); !u.Empty() {
				t.Fatalf("resume published changes: %+v", u)
			}
			next := rec(uint64(len(recs)+1), `{"type":"CUSTOM","name":"after-resume","value":1}`)
			u, _ := f.Apply(next)
			for _, seq := range u.Items {
				for _, it := range f.Items() {
					if it.Seq == seq && it.LastSeq != next.Seq {
						t.Fatalf("Apply after resume reported item %d changed by record %d", seq, it.LastSeq)
					}
				}
			}
		})
	}
}

// Law 4: a fold is for one thread.
func TestLawCorrelation(t *testing.T) {
	f := fold.New(fold.Options{})
	f.Apply(rec(1, `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`),
		rec(2, `{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`))
	before := viewOf(t, f)
	_, err := f.Apply(rec(3, `{"type":"RUN_STARTED","threadId":"t2","runId":"r2","input":{"threadId":"t2","runId":"r2","messages":[{"id":"u","role":"user","content":"hi"}]}}`))
	if !errors.Is(err, fold.ErrCorrelation) {
		t.Fatalf("err = %v, want ErrCorrelation", err)
	}
	if !reflect.DeepEqual(before, viewOf(t, f)) {
		t.Fatal("an event of another thread was applied")
	}
	d := f.Diagnostics()
	if len(d) != 1 || d[0].Rule != fold.RuleCorrelation || d[0].Seq != 3 {
		t.Fatalf("diagnostics = %+v", d)
	}
	if _, err := f.Apply(rec(4, `{"type":"RUN_STARTED","threadId":"t1","runId":"r3","parentRunId":"r1"}`)); err != nil {
		t.Fatalf("a new run of the same thread: %v", err)
	}
}

// Law 5: trimming items drops only completed ones and never reuses
// sequence numbers.
func TestLawEviction(t *testing.T) {
	for name, recs := range fixtures(t) {
		for _, k := range []int{len(recs) / 2, len(recs)} {
			f := fold.New(fold.Options{})
			f.Apply(recs[:k]...)
			var maxSeq uint64
			open := map[uint64]bool{}
			for _, it := range f.Items() {
				maxSeq = max(maxSeq, it.Seq)
				if !it.Status.Done() {
					open[it.Seq] = true
				}
			}
			n := f.Trim(fold.Keep{Items: 0, Content: fold.All, Skeletons: fold.All, Tombstones: fold.TombstonesAll}).Shed.Items
			left := map[uint64]bool{}
			for _, it := range f.Items() {
				left[it.Seq] = true
				// An ACP session's plan item stays: the next plan updates it.
				if it.Status.Done() && it.Kind != model.ItemPlan {
					t.Fatalf("%s@%d: a completed item survived evicting everything: %s %q", name, k, it.Kind, it.ID)
				}
			}
			for seq := range open {
				if !left[seq] {
					t.Fatalf("%s@%d: open item %d was evicted", name, k, seq)
				}
			}
			if n+len(open) == 0 && len(f.Items()) != 0 {
				t.Fatalf("%s@%d: evicted count wrong", name, k)
			}
			// Survive a checkpoint, then fold on: new items get new numbers.
			g := fold.New(fold.Options{})
			snap, _ := f.Export()
			if err := g.Restore(snap); err != nil {
				t.Fatal(err)
			}
			for _, h := range []*fold.Fold{f, g} {
				u, _ := h.Apply(append(recs[k:len(recs):len(recs)], rec(uint64(len(recs)+1), `{"type":"CUSTOM","name":"x","value":1}`))...)
				for _, seq := range u.Items {
					if seq <= maxSeq && !left[seq] {
						t.Fatalf("%s@%d: item number %d reused after eviction", name, k, seq)
					}
				}
			}
		}
	}
}

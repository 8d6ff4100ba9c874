package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/refcheck"
	"github.com/agentwatch/agentwatch/sources"
)

// These tests hold every thread of a many-thread log to the reference AG-UI
// client (@ag-ui/client 1.0.0) folding that thread alone: testdata/threads
// holds logs that combine the one-thread samples of testdata/peer and logs
// from internal/testkit/loggen, and for each thread of each log what the reference
// makes of the thread's events cut out as agentwatch cuts them (see
// testdata/threads/README.md; regenerate with testdata/threads/regen.sh).
// They go through the commands a user runs: threads --json to list the
// threads, fold --thread to fold each.

const threadsPeerDir = "../testdata/threads"

// threadGolden is the reference's fold of one thread of a sample.
type threadGolden struct {
	file     string // <index>-<threadId>.json
	ThreadID string `json:"threadId"`
	Messages any    `json:"messages"`
	State    any    `json:"state"`
	Verify   struct {
		OK            bool   `json:"ok"`
		Error         string `json:"error"`
		AtSourceIndex *int   `json:"atSourceIndex"`
	} `json:"verify"`
}

// threadSample is a many-thread log and the goldens of its threads, in
// order of first appearance.
type threadSample struct {
	name, path string
	raw        []byte
	threads    []threadGolden
}

func threadSamples(t *testing.T) []threadSample {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(threadsPeerDir, "samples"))
	if err != nil {
		t.Fatalf("list samples: %v", err)
	}
	var out []threadSample
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		s := threadSample{name: e.Name(), path: filepath.Join(threadsPeerDir, "samples", e.Name())}
		if s.raw, err = os.ReadFile(s.path); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(threadsPeerDir, "golden", e.Name())
		files, err := os.ReadDir(dir)
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no goldens in %s (run testdata/threads/regen.sh): %v", e.Name(), dir, err)
		}
		for i, f := range files { // ReadDir sorts by name, and the index is zero-padded
			var g threadGolden
			b, err := os.ReadFile(filepath.Join(dir, f.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &g); err != nil {
				t.Fatalf("%s/%s: %v", e.Name(), f.Name(), err)
			}
			index, id, ok := strings.Cut(strings.TrimSuffix(f.Name(), ".json"), "-")
			if n, err := strconv.Atoi(index); !ok || err != nil || n != i || id != g.ThreadID {
				t.Fatalf("%s/%s: golden %d of thread %q should be named %02d-%s.json", e.Name(), f.Name(), i, g.ThreadID, i, g.ThreadID)
			}
			if !g.Verify.OK && g.Verify.AtSourceIndex == nil {
				t.Fatalf("%s/%s: verify failed without atSourceIndex", e.Name(), f.Name())
			}
			g.file = f.Name()
			s.threads = append(s.threads, g)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatal("no samples in " + threadsPeerDir + "/samples")
	}
	return out
}

// listThreads runs threads --json on a sample and returns the ids in order.
func listThreads(t *testing.T, path string) []string {
	t.Helper()
	code, out, errOut := runCLI(t, nil, "threads", "--json", path)
	if code != 0 || errOut != "" {
		t.Fatalf("threads --json: exit %d, stderr %q", code, errOut)
	}
	var lines []struct {
		ThreadID string `json:"threadId"`
	}
	if err := json.Unmarshal([]byte(out), &lines); err != nil {
		t.Fatalf("threads --json: %v\n%s", err, out)
	}
	ids := make([]string, len(lines))
	for i, l := range lines {
		ids[i] = l.ThreadID
	}
	return ids
}

// threadFold is what fold --thread prints, messages and state as decoded
// JSON so that what is present, however empty, stays present.
type threadFold struct {
	ThreadID    string
	Messages    any
	State       any
	Diagnostics []fold.Diagnostic
}

func foldThread(t *testing.T, path, id string) threadFold {
	t.Helper()
	code, out, errOut := runCLI(t, nil, "fold", "--compact", "--thread", id, path)
	if code != 0 || errOut != "" {
		t.Fatalf("fold --thread %s: exit %d, stderr %q", id, code, errOut)
	}
	var members map[string]any
	if err := json.Unmarshal([]byte(out), &members); err != nil {
		t.Fatalf("fold --thread %s: %v", id, err)
	}
	for _, k := range []string{"threadId", "messages", "state", "diagnostics"} {
		if _, ok := members[k]; !ok {
			t.Fatalf("fold --thread %s prints no %q: %s", id, k, out)
		}
	}
	var rest struct {
		ThreadID    string            `json:"threadId"`
		Diagnostics []fold.Diagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &rest); err != nil {
		t.Fatalf("fold --thread %s: %v", id, err)
	}
	return threadFold{ThreadID: rest.ThreadID, Messages: members["messages"], State: members["state"], Diagnostics: rest.Diagnostics}
}

// TestThreadsMatchReference: threads --json lists the threads of every
// many-thread sample in the order the reference goldens were cut in, and
// fold --thread gives each thread the reference's messages and state for
// that thread alone, member for member (legacy THINKING_* ids up to a
// consistent renaming).
func TestThreadsMatchReference(t *testing.T) {
	compared := 0
	for _, s := range threadSamples(t) {
		t.Run(s.name, func(t *testing.T) {
			var want []string
			for _, g := range s.threads {
				want = append(want, g.ThreadID)
			}
			if got := listThreads(t, s.path); !slices.Equal(got, want) {
				t.Fatalf("threads --json lists\n  %q\nthe goldens were cut into\n  %q", got, want)
			}
			legacy := refcheck.HasLegacyThinking(s.raw)
			for _, g := range s.threads {
				t.Run(g.file, func(t *testing.T) {
					got := foldThread(t, s.path, g.ThreadID)
					if got.ThreadID != g.ThreadID {
						t.Errorf("fold --thread %s prints threadId %q", g.ThreadID, got.ThreadID)
					}
					compareThread(t, g, got, legacy)
					compared++
				})
			}
		})
	}
	t.Logf("%d threads checked against the reference", compared)
}

// compareThread compares a thread's fold with its golden.
func compareThread(t *testing.T, g threadGolden, got threadFold, legacy bool) {
	t.Helper()
	want := g.Messages
	if legacy {
		m := refcheck.NewRenaming()
		want = m.Unify(want, got.Messages, "messages")
		for _, e := range m.Errs {
			t.Error(e)
		}
	}
	if diffs := refcheck.Diff(want, got.Messages, "messages"); len(diffs) > 0 {
		t.Errorf("messages differ from the reference:\n  %s", strings.Join(diffs, "\n  "))
	}
	if diffs := refcheck.Diff(g.State, got.State, "state"); len(diffs) > 0 {
		t.Errorf("state differs from the reference:\n  %s\n  reference: %s\n  fold:      %s",
			strings.Join(diffs, "\n  "), refcheck.OneLine(g.State), refcheck.OneLine(got.State))
	}
}

// TestThreadsVerifyMatchReference: where the reference verifier rejects a
// thread, the thread's first diagnostic is on the same event (its place in
// the many-thread file) with the same message; where it accepts one, the
// thread has no violation of the protocol's rules (R1–R14).
func TestThreadsVerifyMatchReference(t *testing.T) {
	for _, s := range threadSamples(t) {
		t.Run(s.name, func(t *testing.T) {
			seqs := threadSeqs(t, s)
			for _, g := range s.threads {
				t.Run(g.file, func(t *testing.T) {
					diags := foldThread(t, s.path, g.ThreadID).Diagnostics
					if g.Verify.OK {
						for _, d := range diags {
							if strings.HasPrefix(string(d.Rule), "R") {
								t.Errorf("reference verifier passes, fold reports #%d %s [%s]: %s", d.Seq, d.Type, d.Rule, d.Message)
							}
						}
						return
					}
					at := *g.Verify.AtSourceIndex
					if at >= len(seqs[g.ThreadID]) {
						t.Fatalf("reference fails at event %d of the thread, which has %d", at, len(seqs[g.ThreadID]))
					}
					wantSeq := seqs[g.ThreadID][at]
					if len(diags) == 0 {
						t.Fatalf("reference fails at #%d (%s); fold reports nothing", wantSeq, g.Verify.Error)
					}
					if d := diags[0]; d.Seq != wantSeq || d.Message != g.Verify.Error {
						t.Errorf("first diagnostic:\n  fold:      #%d [%s] %s\n  reference: #%d %s", d.Seq, d.Rule, d.Message, wantSeq, g.Verify.Error)
					}
				})
			}
		})
	}
}

// threadSeqs numbers each thread's events by their place in the sample,
// routing them as the goldens' parts were cut.
func threadSeqs(t *testing.T, s threadSample) map[string][]uint64 {
	t.Helper()
	ts := fold.NewThreads(fold.Options{})
	seqs := map[*fold.Thread][]uint64{}
	r := sources.NewReader(bytes.NewReader(s.raw))
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("read %s: %v", s.name, err)
		}
		th := ts.Route(s.name, &rec)
		seqs[th] = append(seqs[th], rec.Seq)
	}
	// Ids are read at the end: a thread is named by its first run, which
	// may come after its first event.
	out := map[string][]uint64{}
	for th, n := range seqs {
		out[th.ID] = n
	}
	return out
}

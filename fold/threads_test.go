package fold_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/internal/testkit/splits"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/sources"
)

// splitByRun splits a log whose runs do not overlap by the threadId of
// the run each record is in, the way a person would cut the file apart:
// independent of Threads' own routing. Records before the first run go to
// the first thread.
func splitByRun(recs []model.Record) (order []string, parts map[string][]model.Record) {
	parts = map[string][]model.Record{}
	var head []model.Record
	cur := ""
	for _, r := range recs {
		if rs, ok := r.Event.(*agui.RunStarted); ok {
			cur = rs.ThreadID
			if _, seen := parts[cur]; !seen {
				order = append(order, cur)
				parts[cur] = nil
				if len(order) == 1 {
					parts[cur] = append(parts[cur], head...)
				}
			}
		}
		if cur == "" {
			head = append(head, r)
			continue
		}
		parts[cur] = append(parts[cur], r)
	}
	if len(order) == 0 {
		order, parts[""] = []string{""}, head
	}
	return order, parts
}

// Each thread of a many-thread log folds exactly as that thread's records
// fold on their own, however the log is cut into batches.
func TestThreadsFoldEachThreadAlone(t *testing.T) {
	recs := readAll(t, bytes.NewReader(loggen.GenerateThreads(12_000, 7, 3)))
	order, parts := splitByRun(recs)
	if len(order) != 7 {
		t.Fatalf("the log has %d threads, want 7", len(order))
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, batching := range []string{"whole", "one by one", "random"} {
		t.Run(batching, func(t *testing.T) {
			ts := fold.NewThreads(fold.Options{})
			switch batching {
			case "whole":
				ts.Apply("log", recs...)
			case "one by one":
				for i := range recs {
					ts.Apply("log", recs[i])
				}
			default:
				for i := 0; i < len(recs); {
					j := min(len(recs), i+1+rng.IntN(700))
					ts.Apply("log", recs[i:j]...)
					i = j
				}
			}
			if ts.Len() != len(order) {
				t.Fatalf("%d threads, want %d", ts.Len(), len(order))
			}
			for i, th := range ts.List() {
				if th.ID != order[i] || th.Source != "log" {
					t.Fatalf("thread %d is %s/%q, want log/%q (order of first appearance)", i, th.Source, th.ID, order[i])
				}
				want := foldAll(parts[th.ID])
				if !bytes.Equal(export(t, th.Fold), export(t, want)) {
					t.Errorf("thread %s folds differently from its records alone", th.ID)
				}
				if n := len(th.Fold.Diagnostics()); n != 0 {
					t.Errorf("thread %s: %d diagnostics, first %+v", th.ID, n, th.Fold.Diagnostics()[0])
				}
				if th.Records != len(parts[th.ID]) || th.FirstSeq != parts[th.ID][0].Seq || th.LastSeq != parts[th.ID][len(parts[th.ID])-1].Seq {
					t.Errorf("thread %s: %d records #%d–#%d, want %d", th.ID, th.Records, th.FirstSeq, th.LastSeq, len(parts[th.ID]))
				}
				if th.Title() == "" {
					t.Errorf("thread %s has no title", th.ID)
				}
			}
		})
	}
}

// A log of one thread gives one thread whose fold is the plain fold: on
// every fixture with a single thread id, ACP recordings included.
func TestThreadsOneThreadIsThePlainFold(t *testing.T) {
	for name, recs := range fixtures(t) {
		ids := map[string]bool{}
		for _, r := range recs {
			switch e := r.Event.(type) {
			case *agui.RunStarted:
				ids[e.ThreadID] = true
			case *agui.RunFinished:
				ids[e.ThreadID] = true
			}
		}
		if len(ids) > 1 {
			continue
		}
		ts := fold.NewThreads(fold.Options{})
		ts.Apply(name, recs...)
		if ts.Len() != 1 {
			t.Errorf("%s: %d threads, want 1", name, ts.Len())
			continue
		}
		if !bytes.Equal(export(t, ts.List()[0].Fold), export(t, foldAll(recs))) {
			t.Errorf("%s: the thread's fold differs from the plain fold", name)
		}
	}
}

func event(seq uint64, raw string) model.Record { return rec(seq, raw) }

// Events before the first run belong to the first thread; events between
// runs to the latest run's thread; a run of another thread starting while
// one is open is reported in the new thread, naming both, and starts.
func TestThreadsRouting(t *testing.T) {
	lines := []string{
		`{"type":"CUSTOM","name":"early","value":1}`,
		`{"type":"RUN_STARTED","threadId":"a","runId":"a1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"user"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"first\nquestion"}`,
		`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
		`{"type":"RUN_FINISHED","threadId":"a","runId":"a1"}`,
		`{"type":"CUSTOM","name":"between","value":2}`,
		`{"type":"RUN_STARTED","threadId":"b","runId":"b1"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}`,
		`{"type":"RUN_STARTED","threadId":"a","runId":"a2","parentRunId":"a1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m3","delta":"x"}`,
		`{"type":"RUN_FINISHED","threadId":"a","runId":"a2"}`,
	}
	var recs []model.Record
	for i, l := range lines {
		recs = append(recs, event(uint64(i+1), l))
	}
	ts := fold.NewThreads(fold.Options{})
	ups := ts.Apply("f", recs...)
	if ts.Len() != 2 || len(ups) != 2 || !ups[0].New || !ups[1].New {
		t.Fatalf("%d threads, %d updates; want 2 new threads", ts.Len(), len(ups))
	}
	a, b := ts.List()[0], ts.List()[1]
	if a.ID != "a" || b.ID != "b" {
		t.Fatalf("threads %q %q, want a b", a.ID, b.ID)
	}
	// a: the early event, run a1, the event between runs, run a2 (10 records).
	if a.Records != 10 || a.FirstSeq != 1 || a.LastSeq != 12 {
		t.Errorf("thread a: %d records #%d–#%d, want 10 #1–#12", a.Records, a.FirstSeq, a.LastSeq)
	}
	if b.Records != 2 || b.FirstSeq != 8 || b.LastSeq != 9 {
		t.Errorf("thread b: %d records #%d–#%d, want 2 #8–#9", b.Records, b.FirstSeq, b.LastSeq)
	}
	if a.Title() != "first question" {
		t.Errorf("title %q, want the first user message on one line", a.Title())
	}
	var overlap []fold.Diagnostic
	for _, d := range a.Fold.Diagnostics() {
		if d.Rule == fold.RuleThreadOverlap {
			overlap = append(overlap, d)
		}
	}
	if len(overlap) != 1 || overlap[0].Seq != 10 || !strings.Contains(overlap[0].Message, "'a'") || !strings.Contains(overlap[0].Message, "'b'") {
		t.Fatalf("overlap diagnostics in a: %+v; want one at #10 naming a and b", overlap)
	}
	if n := len(a.Fold.Runs()); n != 2 || a.Fold.Runs()[1].ParentRunID != "a1" {
		t.Errorf("thread a has %d runs; the run after the overlap must start", n)
	}
	for _, d := range b.Fold.Diagnostics() {
		t.Errorf("thread b: unexpected %+v", d)
	}
	for _, d := range a.Fold.Diagnostics() {
		if d.Rule == fold.RuleCorrelation {
			t.Errorf("thread a got another thread's event: %+v", d)
		}
	}
}

// Two sources that use the same thread id keep two threads; a fold still
// refuses an event of another thread that reaches it.
func TestThreadsPerSource(t *testing.T) {
	ts := fold.NewThreads(fold.Options{})
	one := []model.Record{event(1, `{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`), event(2, `{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`)}
	ts.Apply("x.jsonl", one...)
	ts.Apply("y.jsonl", one...)
	if ts.Len() != 2 || len(ts.Find("t")) != 2 {
		t.Fatalf("%d threads, want one per source", ts.Len())
	}
	for i, th := range ts.List() {
		if ts.Index(th) != i {
			t.Errorf("Index(%d) = %d", i, ts.Index(th))
		}
	}
	f := fold.New(fold.Options{})
	f.Apply(one...)
	if _, err := f.Apply(event(3, `{"type":"RUN_STARTED","threadId":"u","runId":"r2"}`)); err == nil {
		t.Fatal("a fold took another thread's run")
	}
}

// A source that never names a thread is one thread without an id.
func TestThreadsUnnamed(t *testing.T) {
	ts := fold.NewThreads(fold.Options{})
	ts.Apply("-", event(1, `{"type":"CUSTOM","name":"x","value":1}`), event(2, `{"type":"STATE_SNAPSHOT","snapshot":{}}`))
	if ts.Len() != 1 || ts.List()[0].ID != "" || ts.List()[0].Key() != "(no thread id)" || ts.List()[0].Records != 2 {
		t.Fatalf("threads: %+v", ts.List())
	}
}

// Many threads, and the updates name each thread once.
func TestThreadsUpdates(t *testing.T) {
	var recs []model.Record
	seq := uint64(0)
	for round := range 3 {
		for th := range 4 {
			seq++
			recs = append(recs, event(seq, fmt.Sprintf(`{"type":"RUN_STARTED","threadId":"t%d","runId":"r%d-%d"}`, th, th, round)))
			seq++
			recs = append(recs, event(seq, fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":"t%d","runId":"r%d-%d"}`, th, th, round)))
		}
	}
	ts := fold.NewThreads(fold.Options{})
	ups := ts.Apply("s", recs...)
	if len(ups) != 4 {
		t.Fatalf("%d updates, want one per thread", len(ups))
	}
	for i, u := range ups {
		if u.Thread != ts.List()[i] || len(u.Update.Items) != 3 {
			t.Errorf("update %d: thread %s, %d items; want thread t%d with its 3 runs", i, u.Thread.ID, len(u.Update.Items), i)
		}
	}
	if ups2 := ts.Apply("s", event(seq+1, `{"type":"RUN_STARTED","threadId":"t2","runId":"x"}`)); len(ups2) != 1 || ups2[0].New || ups2[0].Thread.ID != "t2" {
		t.Errorf("a later record: %+v", ups2)
	}
}

// An ACP recording with two sessions gives a thread per session; a second
// session/new starts the second thread, and its answer names it.
func TestThreadsACPSessions(t *testing.T) {
	lines := []string{
		`{"t":1764700000000,"dir":"send","msg":{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":1}}}`,
		`{"t":1764700000010,"dir":"recv","msg":{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":1}}}`,
		`{"t":1764700000020,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`,
		`{"t":1764700000030,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"sessionId":"s1"}}}`,
		`{"t":1764700000040,"dir":"send","msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"one"}]}}}`,
		`{"t":1764700000050,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"first"}}}}}`,
		`{"t":1764700000060,"dir":"send","msg":{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}`,
		`{"t":1764700000070,"dir":"recv","msg":{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s2"}}}`,
		`{"t":1764700000080,"dir":"send","msg":{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s2","prompt":[{"type":"text","text":"two"}]}}}`,
		`{"t":1764700000090,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s2","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"second"}}}}}`,
		`{"t":1764700000100,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":" more"}}}}}`,
		`{"t":1764700000110,"dir":"recv","msg":{"jsonrpc":"2.0","id":4,"result":{"stopReason":"end_turn"}}}`,
		`{"t":1764700000120,"dir":"recv","msg":{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}}`,
		`{"t":1764700000130,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"nobody","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"stray"}}}}}`,
	}
	recs, err := sources.ReadACPRecording(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply("rec.jsonl", recs...)
	if ts.Len() != 2 {
		t.Fatalf("%d threads, want 2", ts.Len())
	}
	s1, s2 := ts.List()[0], ts.List()[1]
	if s1.ID != "s1" || s2.ID != "s2" {
		t.Fatalf("threads %q %q, want s1 s2", s1.ID, s2.ID)
	}
	if s1.Records != 9 || s2.Records != 5 {
		t.Errorf("s1 has %d records, s2 %d; want 9 (the stray update included) and 5", s1.Records, s2.Records)
	}
	for _, d := range s2.Fold.Diagnostics() {
		t.Errorf("s2: unexpected %+v", d)
	}
	// The stray update (for a session nobody opened) is reported where it
	// arrived, in the latest session's thread, and not applied.
	if d := s1.Fold.Diagnostics(); len(d) != 1 || d[0].Seq != 14 || d[0].Rule != fold.RuleACPSession {
		t.Errorf("s1: diagnostics %+v; want the stray update at #14", d)
	}
	if s1.Title() != "one" || s2.Title() != "two" {
		t.Errorf("titles %q %q", s1.Title(), s2.Title())
	}
}

// threadsExport is every thread's export, with its id, source and counts.
func threadsExport(t *testing.T, ts *fold.Threads) string {
	t.Helper()
	var b strings.Builder
	for _, th := range ts.List() {
		fmt.Fprintf(&b, "%s|%s|%d|%d-%d|%v|%v|%s\n", th.Source, th.ID, th.Records, th.FirstSeq, th.LastSeq, th.First, th.Last, export(t, th.Fold))
	}
	if l := ts.Last(); l != nil {
		fmt.Fprintf(&b, "last %d\n", ts.Index(l))
	}
	return b.String()
}

// Law 1 for threads: at every split point of a short log, and at those
// splits.Points picks in a longer one, a set restored from a checkpoint
// and given the rest equals the set that folded everything; the set that
// took the checkpoint goes on unchanged by it, and a second restore from
// the same checkpoint is independent of the first. It holds for the first
// checkpoint of a set that folded the first k records at once, and for
// each of a chain that one set takes as it walks the records.
func TestLawThreadsCheckpointEverySplit(t *testing.T) {
	recs := readAll(t, bytes.NewReader(loggen.GenerateThreads(400, 3, 9)))
	whole := fold.NewThreads(fold.Options{})
	whole.Apply("s", recs...)
	want := threadsExport(t, whole)
	ks := splits.Points(len(recs), splits.Firsts(recs)...)
	head := fold.NewThreads(fold.Options{})
	var chain, first []*fold.ThreadsCheckpoint
	done := 0
	for _, k := range ks {
		head.Apply("s", recs[done:k]...)
		done = k
		chain = append(chain, head.Checkpoint())
		a := fold.NewThreads(fold.Options{})
		a.Apply("s", recs[:k]...)
		first = append(first, a.Checkpoint())
		a.Apply("s", recs[k:]...)
		if got := threadsExport(t, a); got != want {
			t.Fatalf("split %d: the set that took the checkpoint differs", k)
		}
	}
	if got := threadsExport(t, head); got != want {
		t.Fatal("the set that took a checkpoint at every split differs")
	}
	// Restored only now, once the sets that took them have gone on.
	for i, k := range ks {
		for _, cp := range []*fold.ThreadsCheckpoint{first[i], chain[i]} {
			b := fold.ThreadsFromCheckpoint(cp, fold.Options{})
			c := fold.ThreadsFromCheckpoint(cp, fold.Options{})
			b.Apply("s", recs[k:]...)
			if got := threadsExport(t, b); got != want {
				t.Fatalf("split %d: restored and continued differs from folding everything", k)
			}
			if k < len(recs) {
				c.Apply("s", recs[k:k+1]...)
				d := fold.ThreadsFromCheckpoint(cp, fold.Options{})
				d.Apply("s", recs[k:]...)
				if got := threadsExport(t, d); got != want {
					t.Fatalf("split %d: a second restore was changed by the first", k)
				}
			}
		}
	}
}

// A chain of checkpoints, each taken by a set restored from the one before,
// ends where one uninterrupted fold ends (threads that stay quiet share
// their fold checkpoint).
func TestLawThreadsCheckpointChain(t *testing.T) {
	recs := readAll(t, bytes.NewReader(loggen.GenerateThreads(3_000, 6, 11)))
	whole := fold.NewThreads(fold.Options{})
	whole.Apply("s", recs...)
	ts := fold.NewThreads(fold.Options{})
	for i := 0; i < len(recs); i += 97 {
		ts.Apply("s", recs[i:min(len(recs), i+97)]...)
		ts = fold.ThreadsFromCheckpoint(ts.Checkpoint(), fold.Options{})
	}
	if threadsExport(t, ts) != threadsExport(t, whole) {
		t.Fatal("a chain of checkpoints differs from one fold")
	}
}

// Forget drops a source's threads and its routing; the source's next
// records fold into new threads, and other sources are untouched.
func TestThreadsForget(t *testing.T) {
	ts := fold.NewThreads(fold.Options{})
	a := []model.Record{event(1, `{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`), event(2, `{"type":"CUSTOM","name":"x","value":1}`)}
	ts.Apply("a.jsonl", a...)
	ts.Apply("b.jsonl", event(1, `{"type":"RUN_STARTED","threadId":"u","runId":"q1"}`))
	old := ts.Find("t")[0]
	gone := ts.Forget("a.jsonl")
	if len(gone) != 1 || gone[0] != old || ts.Len() != 1 || ts.List()[0].ID != "u" || ts.Index(ts.List()[0]) != 0 {
		t.Fatalf("after Forget: %d gone, %d left", len(gone), ts.Len())
	}
	// The open run of the old content is gone too: the new content's
	// first event is not routed into a run that no longer exists.
	ups := ts.Apply("a.jsonl", event(3, `{"type":"RUN_STARTED","threadId":"t","runId":"r9"}`), event(4, `{"type":"CUSTOM","name":"y","value":2}`))
	if ts.Len() != 2 || len(ups) != 1 || !ups[0].New || ups[0].Thread == old || ups[0].Thread.ID != "t" || ups[0].Thread.Records != 2 {
		t.Fatalf("after the restart: %d threads, updates %+v", ts.Len(), ups)
	}
	for _, d := range ups[0].Thread.Fold.Diagnostics() {
		t.Errorf("the new thread got %+v", d)
	}
}

package loggen_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/agentwatch/agentwatch/sources"
)

// threadEvent is the part of an event the thread checks look at.
type threadEvent struct {
	Type        string `json:"type"`
	Timestamp   int64  `json:"timestamp"`
	ThreadID    string `json:"threadId"`
	RunID       string `json:"runId"`
	ParentRunID string `json:"parentRunId"`
	MessageID   string `json:"messageId"`
	ToolCallID  string `json:"toolCallId"`
	Input       *struct {
		ThreadID string `json:"threadId"`
		Messages []struct {
			ID   string `json:"id"`
			Role string `json:"role"`
		} `json:"messages"`
	} `json:"input"`
}

// threadRun is one run of a many-thread log as the checks read it.
type threadRun struct {
	thread, id, parent string
	lines              [][]byte
	toolCalls          int
}

// readRuns splits a many-thread log into its runs, failing on any event
// outside a run, any run started while another is active, and any
// timestamp that does not increase.
func readRuns(t *testing.T, log []byte) []*threadRun {
	t.Helper()
	var runs []*threadRun
	var cur *threadRun
	var last int64
	for i, ln := range lines(log) {
		var ev threadEvent
		if err := json.Unmarshal(ln, &ev); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if ev.Timestamp <= last {
			t.Fatalf("line %d: timestamp %d not after %d", i+1, ev.Timestamp, last)
		}
		last = ev.Timestamp
		switch {
		case ev.Type == "RUN_STARTED":
			if cur != nil {
				t.Fatalf("line %d: run %s of thread %s starts while run %s of thread %s is active", i+1, ev.RunID, ev.ThreadID, cur.id, cur.thread)
			}
			if ev.ThreadID == "" || ev.Input == nil || ev.Input.ThreadID != ev.ThreadID {
				t.Fatalf("line %d: RUN_STARTED without a threadId or an input of the same thread: %.200s", i+1, ln)
			}
			cur = &threadRun{thread: ev.ThreadID, id: ev.RunID, parent: ev.ParentRunID}
			runs = append(runs, cur)
		case cur == nil:
			t.Fatalf("line %d: %s outside any run", i+1, ev.Type)
		case ev.Type == "RUN_FINISHED" || ev.Type == "RUN_ERROR":
			if ev.ThreadID != cur.thread || ev.RunID != cur.id {
				t.Fatalf("line %d: %s of %s/%s ends run %s/%s", i+1, ev.Type, ev.ThreadID, ev.RunID, cur.thread, cur.id)
			}
		case ev.Type == "TOOL_CALL_START":
			cur.toolCalls++
		}
		if cur != nil {
			cur.lines = append(cur.lines, ln)
			if ev.Type == "RUN_FINISHED" || ev.Type == "RUN_ERROR" {
				cur = nil
			}
		}
	}
	if cur != nil {
		t.Fatalf("the log ends inside run %s", cur.id)
	}
	return runs
}

// threadLogs is each thread's events of a many-thread log, in order, as
// JSON Lines.
func threadLogs(runs []*threadRun) map[string][]byte {
	logs := map[string][]byte{}
	for _, r := range runs {
		for _, ln := range r.lines {
			logs[r.thread] = append(append(logs[r.thread], ln...), '\n')
		}
	}
	return logs
}

func TestThreadsDeterministic(t *testing.T) {
	a, b := loggen.GenerateThreads(3_000, 4, 42), loggen.GenerateThreads(3_000, 4, 42)
	if !bytes.Equal(a, b) {
		t.Fatal("same n, threads and seed gave different logs")
	}
	if bytes.Equal(a, loggen.GenerateThreads(3_000, 4, 43)) {
		t.Fatal("different seeds gave the same log")
	}
	if bytes.Equal(a, loggen.GenerateThreads(3_000, 5, 42)) {
		t.Fatal("different thread counts gave the same log")
	}
	if !bytes.Equal(loggen.GenerateThreads(2_000, 1, 7), loggen.Generate(2_000, 7)) {
		t.Error("GenerateThreads with one thread is not Generate's log")
	}
}

// TestThreadsArrangement checks that the log is what a server logging
// every stream into one file writes: the asked-for number of threads taking
// turns, runs one after another, each thread's runs a tree, edit-and-retry
// branches, a prompt to open each thread and ids no two threads share.
func TestThreadsArrangement(t *testing.T) {
	for _, c := range []struct {
		n, threads int
		seed       int64
	}{{8_000, 4, 1}, {12_000, 6, 2}, {20_000, 10, 3}} {
		t.Run(fmt.Sprintf("n=%d,threads=%d", c.n, c.threads), func(t *testing.T) {
			log := loggen.GenerateThreads(c.n, c.threads, c.seed)
			if got := len(lines(log)); got < c.n-c.n/20 || got > c.n+c.n/20 {
				t.Errorf("%d events, want about %d", got, c.n)
			}
			runs := readRuns(t, log)
			byThread := map[string][]*threadRun{}
			runThread := map[string]string{}
			later, branches, returns := 0, 0, 0
			for i, r := range runs {
				if _, dup := runThread[r.id]; dup {
					t.Fatalf("run id %s used twice", r.id)
				}
				earlier := byThread[r.thread]
				switch {
				case len(earlier) == 0 && r.parent != "":
					t.Errorf("run %s, the first of thread %s, names parent %s", r.id, r.thread, r.parent)
				case len(earlier) > 0 && runThread[r.parent] != r.thread:
					t.Errorf("run %s of thread %s names parent %q, not an earlier run of its thread", r.id, r.thread, r.parent)
				case len(earlier) > 0:
					later++
					if r.parent != earlier[len(earlier)-1].id {
						branches++
					}
				}
				if len(earlier) > 0 && i > 0 && runs[i-1].thread != r.thread {
					returns++ // the thread comes back after another's run
				}
				byThread[r.thread] = append(earlier, r)
				runThread[r.id] = r.thread
			}
			if len(byThread) != c.threads {
				t.Errorf("%d threads, want %d", len(byThread), c.threads)
			}
			if later == 0 || branches*10 < later || branches*10 > later*4 {
				t.Errorf("%d branches in %d later runs, want about one in four", branches, later)
			}
			if returns == 0 {
				t.Error("no thread comes back after another thread's run: threads do not take turns")
			}
			t.Logf("%d runs, %d later, %d branches, %d returns to a thread", len(runs), later, branches, returns)

			// A thread opens with the user's prompt, echoed in the input.
			for id, rs := range byThread {
				var ev threadEvent
				_ = json.Unmarshal(rs[0].lines[0], &ev)
				if len(ev.Input.Messages) == 0 || ev.Input.Messages[0].Role != "user" {
					t.Errorf("thread %s does not open with a user message", id)
				}
			}

			// Ids of messages and tool calls belong to one thread each.
			owner := map[string]string{}
			for _, r := range runs {
				for _, ln := range r.lines {
					var ev threadEvent
					_ = json.Unmarshal(ln, &ev)
					ids := []string{ev.ToolCallID}
					if ev.Type != "TOOL_CALL_RESULT" || ev.MessageID != "" {
						ids = append(ids, ev.MessageID)
					}
					if ev.Input != nil {
						for _, m := range ev.Input.Messages {
							ids = append(ids, m.ID)
						}
					}
					for _, id := range ids {
						if id == "" {
							continue
						}
						if o, ok := owner[id]; ok && o != r.thread {
							t.Fatalf("id %s is used by threads %s and %s", id, o, r.thread)
						}
						owner[id] = r.thread
					}
				}
			}
		})
	}
}

// TestThreadFolder checks the one-file-per-thread form against the
// single-file log: one <threadId>.jsonl per thread holding exactly that
// thread's events of the single file, in order.
func TestThreadFolder(t *testing.T) {
	const n, threads, seed = 6_000, 5, 11
	want := threadLogs(readRuns(t, loggen.GenerateThreads(n, threads, seed)))
	files := loggen.ThreadFiles(n, threads, seed)
	if len(files) != len(want) {
		t.Fatalf("ThreadFiles gave %d threads, the log has %d", len(files), len(want))
	}
	for id, log := range want {
		if !bytes.Equal(files[id], log) {
			t.Errorf("thread %s: ThreadFiles gave %d bytes that differ from the log's %d", id, len(files[id]), len(log))
		}
	}

	dir := filepath.Join(t.TempDir(), "threads")
	if err := loggen.WriteThreadFolder(dir, n, threads, seed); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != threads {
		t.Errorf("%d files in the folder, want %d", len(entries), threads)
	}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || want[id] == nil {
			t.Errorf("file %s is not named after a thread of the log", e.Name())
			continue
		}
		got, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want[id]) {
			t.Errorf("%s holds %d bytes that differ from the thread's %d in the log", e.Name(), len(got), len(want[id]))
		}
	}
}

// foldThread folds one thread's log and fails on any diagnostic or warning.
func foldThread(t *testing.T, id string, log []byte) *fold.Fold {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatalf("thread %s: %v", id, err)
	}
	f := fold.New(fold.Options{})
	if _, err := f.Apply(recs...); err != nil {
		t.Fatalf("thread %s: Apply: %v", id, err)
	}
	for i, d := range f.Diagnostics() {
		if i == 3 {
			t.Errorf("thread %s: … %d diagnostics in all", id, len(f.Diagnostics()))
			break
		}
		t.Errorf("thread %s: diagnostic: %+v", id, d)
	}
	for i, w := range f.Warnings() {
		if i == 3 {
			t.Errorf("thread %s: … %d warnings in all", id, len(f.Warnings()))
			break
		}
		t.Errorf("thread %s: warning: %+v", id, w)
	}
	return f
}

// TestThreadsFoldClean holds each thread, taken on its own, to being a
// valid AG-UI log: no diagnostic, no warning, every run completed, the runs
// one tree rooted at the thread's first, which opens with a user message.
func TestThreadsFoldClean(t *testing.T) {
	for id, log := range loggen.ThreadFiles(10_000, 6, 5) {
		f := foldThread(t, id, log)
		if f.ThreadID() != id {
			t.Errorf("thread %s folds as thread %q", id, f.ThreadID())
		}
		for _, r := range f.Runs() {
			if r.Status != model.StatusCompleted {
				t.Errorf("thread %s: run %s is %s", id, r.RunID, r.Status)
			}
		}
		if roots := f.RunTree(); len(roots) != 1 {
			t.Errorf("thread %s: %d run trees, want one", id, len(roots))
		}
		if ms := f.Messages(); len(ms) == 0 || ms[0].Role != agui.RoleUser {
			t.Errorf("thread %s does not open with a user message", id)
		}
	}
}

// TestThreadsLarge checks the size the benchmarks use: 100 threads in
// 100,000 events, each thread valid and with a run of several tool calls.
func TestThreadsLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large log in -short mode")
	}
	const n, threads = 100_000, 100
	log := loggen.GenerateThreads(n, threads, 1)
	runs := readRuns(t, log)
	most := map[string]int{}
	for _, r := range runs {
		most[r.thread] = max(most[r.thread], r.toolCalls)
	}
	if len(most) != threads {
		t.Errorf("%d threads, want %d", len(most), threads)
	}
	for id, calls := range most {
		if calls < 3 {
			t.Errorf("thread %s: no run with several tool calls (at most %d)", id, calls)
		}
	}
	for id, tl := range threadLogs(runs) {
		foldThread(t, id, tl)
	}
}

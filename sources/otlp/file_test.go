package otlp_test

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

const fleet = "../../testdata/otlp/fleet.jsonl"

func readFile(t *testing.T, b []byte) (*otlp.File, *fold.Threads) {
	t.Helper()
	f, err := otlp.Read(bytes.NewReader(b), otel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := fold.NewThreads(fold.Options{})
	ts.Apply("f", f.Records...)
	return f, ts
}

// A file in the Collector's file exporter format (a request per line)
// folds without a problem, each request's telemetry in its thread.
func TestReadCollectorFile(t *testing.T) {
	b, err := os.ReadFile(fleet)
	if err != nil {
		t.Fatal(err)
	}
	if !otlp.LooksLikeOTLP(b) {
		t.Fatal("not seen as OTLP")
	}
	f, ts := readFile(t, b)
	if f.Requests != 3 || ts.Len() != 2 {
		t.Fatalf("%d requests, %d threads", f.Requests, ts.Len())
	}
	steps := 0
	for _, th := range ts.List() {
		if d := th.Fold.Diagnostics(); len(d) != 0 {
			t.Errorf("%s: %+v", th.ID, d)
		}
		steps += len(th.Fold.Steps())
	}
	if steps != 4 {
		t.Errorf("%d steps, want 4", steps)
	}
	for i, r := range f.Records {
		if r.Seq != uint64(i+1) || r.Thread == "" {
			t.Fatalf("record %d: seq %d thread %q", i, r.Seq, r.Thread)
		}
		if i > 0 && r.At.Before(f.Records[i-1].At) {
			t.Fatalf("record %d goes back in time", i+1)
		}
	}

	// The same requests written out pretty, one to a file, read the same.
	line := bytes.SplitN(b, []byte("\n"), 2)[0]
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, line, "", "  "); err != nil {
		t.Fatal(err)
	}
	one, _ := readFile(t, line)
	p, _ := readFile(t, pretty.Bytes())
	if len(p.Records) == 0 || len(p.Records) != len(one.Records) {
		t.Fatalf("pretty: %d records, one line: %d", len(p.Records), len(one.Records))
	}
}

// Lines that are not requests are problem rows naming their line; the
// other lines are read.
func TestReadBadLines(t *testing.T) {
	b, _ := os.ReadFile(fleet)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	in := strings.Join([]string{lines[0][:len(lines[0])/2], "hello", `{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"xyz"}]}]}]}`, lines[2]}, "\n")
	f, ts := readFile(t, []byte(in))
	var why []string
	for _, r := range f.Records {
		if u, ok := r.Event.(*model.Unreadable); ok {
			why = append(why, u.Reason)
		}
	}
	if len(why) != 3 || !strings.HasPrefix(why[0], "line 1:") || !strings.HasPrefix(why[1], "line 2:") || !strings.HasPrefix(why[2], "line 3:") {
		t.Fatalf("problems %q", why)
	}
	steps := 0
	for _, th := range ts.List() {
		steps += len(th.Fold.Steps())
	}
	if steps != 1 {
		t.Fatalf("%d steps from the good line, want 1", steps)
	}
}

// The threads' laws hold for records that name their threads: folding the
// first k records, checkpointing, restoring and folding the rest gives
// what folding all at once gives, at every k.
func TestCollectorFileCheckpoints(t *testing.T) {
	b, _ := os.ReadFile(fleet)
	f, whole := readFile(t, b)
	want := summaries(t, whole)
	for k := 0; k <= len(f.Records); k++ {
		ts := fold.NewThreads(fold.Options{})
		ts.Apply("f", f.Records[:k]...)
		restored := fold.ThreadsFromCheckpoint(ts.Checkpoint(), fold.Options{})
		ts.Apply("f", f.Records[k:]...) // folding on must not change the checkpoint
		restored.Apply("f", f.Records[k:]...)
		if got := summaries(t, restored); got != want {
			t.Fatalf("split at %d:\n%s\nwant\n%s", k, got, want)
		}
	}
}

func summaries(t *testing.T, ts *fold.Threads) string {
	t.Helper()
	var out []string
	for _, th := range ts.List() {
		b, err := json.Marshal(th.Fold.Summary())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, th.ID+" "+string(b))
	}
	return strings.Join(out, "\n")
}

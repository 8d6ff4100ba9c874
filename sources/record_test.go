package sources

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// recordsOf reads JSONL text into records, as a live source would hand them over.
func recordsOf(t *testing.T, lines ...string) []model.Record {
	t.Helper()
	recs, err := ReadAll(strings.NewReader(strings.Join(lines, "\n") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(lines) {
		t.Fatalf("read %d records from %d lines", len(recs), len(lines))
	}
	return recs
}

func decodeMap(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return m
}

func readLog(t *testing.T, path string) []model.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func TestRecorderRoundTrip(t *testing.T) {
	stamped := `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi \u00e9","timestamp":1700000000123}`
	in := recordsOf(t,
		`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
		`{"type":"TEXT_MESSAGE_START", "messageId":"m1","role":"assistant"}`,
		stamped,
		`  {"type":"TEXT_MESSAGE_END","messageId":"m1","extra":{"timestamp":1}}`,
		`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`,
	)
	at := time.UnixMilli(1700000000999)
	in[3].At = at // a record with an arrival time
	now := time.UnixMilli(1700000000555)

	path := filepath.Join(t.TempDir(), "run.json")
	r, err := CreateRecorder(path, false)
	if err != nil {
		t.Fatal(err)
	}
	r.now = func() time.Time { return now }
	bad := model.Record{Seq: 99, Raw: []byte(`{"type":`), Event: &model.Unreadable{Reason: "cut off"}}
	if err := r.Write(in[0], bad, in[1]); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(); err != nil {
		t.Fatal(err)
	}
	if err := r.Write(in[2:]...); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if err := r.Write(in[0]); err == nil {
		t.Fatal("Write after Close succeeded")
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("closed log is not valid JSON:\n%s", data)
	}
	if !bytes.HasPrefix(data, []byte("[{")) || !bytes.Contains(data, []byte("},\n{")) || !bytes.HasSuffix(data, []byte("}]\n")) {
		t.Fatalf("unexpected layout:\n%s", data)
	}
	if !bytes.Contains(data, []byte(stamped)) {
		t.Fatalf("event with a timestamp changed:\n%s", data)
	}
	out := readLog(t, path)
	if len(out) != len(in) {
		t.Fatalf("read back %d records, want %d", len(out), len(in))
	}
	wantTS := []int64{now.UnixMilli(), now.UnixMilli(), 1700000000123, at.UnixMilli(), now.UnixMilli()}
	for i := range in {
		if u, bad := out[i].Event.(*model.Unreadable); bad {
			t.Fatalf("record %d unreadable: %s", i, u.Reason)
		}
		got, want := decodeMap(t, out[i].Raw), decodeMap(t, in[i].Raw)
		if ts, _ := got["timestamp"].(float64); int64(ts) != wantTS[i] {
			t.Errorf("record %d timestamp %v, want %d", i, got["timestamp"], wantTS[i])
		}
		delete(got, "timestamp")
		delete(want, "timestamp")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("record %d:\n got %v\nwant %v", i, got, want)
		}
		if i != 2 {
			// Inserted textually: the rest of the event is byte for byte the input.
			rest := bytes.TrimLeft(in[i].Raw, " ")[1:]
			if !bytes.HasSuffix(out[i].Raw, rest) {
				t.Errorf("record %d re-encoded: %s", i, out[i].Raw)
			}
		}
		if !out[i].At.Equal(time.UnixMilli(wantTS[i])) {
			t.Errorf("record %d At %v", i, out[i].At)
		}
	}
}

func TestRecorderInsertTimestamp(t *testing.T) {
	r := &Recorder{now: func() time.Time { return time.UnixMilli(5) }}
	for _, c := range []struct{ in, want string }{
		{`{}`, `{"timestamp":5}`},
		{` { } `, ` {"timestamp":5 } `},
		{`{"type":"X"}`, `{"timestamp":5,"type":"X"}`},
		{"\n{\n \"type\":\"X\"\n}", "\n{\"timestamp\":5,\n \"type\":\"X\"\n}"},
		{`{"type":"X","timestamp":null}`, `{"type":"X","timestamp":null}`},
		{`{"type":"X","timestamp":"soon"}`, `{"type":"X","timestamp":"soon"}`},
	} {
		var buf bytes.Buffer
		if err := r.appendEvent(&buf, &model.Record{Raw: []byte(c.in)}); err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if buf.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.in, buf.String(), c.want)
		}
	}
	for _, in := range []string{``, `[]`, `"x"`, `{"a":`, `{} {}`} {
		var buf bytes.Buffer
		if err := r.appendEvent(&buf, &model.Record{Seq: 7, Raw: []byte(in)}); err == nil || !strings.Contains(err.Error(), "event 7") {
			t.Errorf("%q: err %v, want an error naming event 7", in, err)
		}
	}
}

func TestRecorderWriteRejectsNonObject(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	r, err := CreateRecorder(path, false)
	if err != nil {
		t.Fatal(err)
	}
	good := recordsOf(t, `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`)[0]
	if err := r.Write(good, model.Record{Seq: 2, Raw: []byte(`[1]`), Event: good.Event}); err == nil {
		t.Fatal("non-object accepted")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != "[]\n" {
		t.Fatalf("a failed Write wrote something: %q", data)
	}
}

func TestRecorderRefusesOverwrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	const old = `[{"type":"RUN_STARTED","threadId":"t","runId":"r"}]`
	if err := os.WriteFile(path, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := CreateRecorder(path, false)
	if err == nil {
		t.Fatal("overwrote an existing file")
	}
	if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "--append") {
		t.Fatalf("error %q should name the file and --append", err)
	}
	if data, _ := os.ReadFile(path); string(data) != old {
		t.Fatalf("file changed: %q", data)
	}
}

func TestRecorderAppend(t *testing.T) {
	const (
		e1 = `{"type":"RUN_STARTED","threadId":"t","runId":"r1","timestamp":1}`
		e2 = `{"type":"RUN_FINISHED","threadId":"t","runId":"r1","timestamp":2}`
		e3 = `{"type":"RUN_STARTED","threadId":"t","runId":"r2","parentRunId":"r1","timestamp":3}`
		e4 = `{"type":"RUN_FINISHED","threadId":"t","runId":"r2","timestamp":4}`
	)
	for _, c := range []struct {
		name, before string
		want         []string
	}{
		{"missing", "", []string{e3, e4}},
		{"empty", "", []string{e3, e4}},
		{"blank", " \n", []string{e3, e4}},
		{"empty array", "[]", []string{e3, e4}},
		{"empty array spaced", "[ \n ]\n\n", []string{e3, e4}},
		{"open empty array", "[", []string{e3, e4}},
		{"closed", "[" + e1 + ",\n" + e2 + "]\n", []string{e1, e2, e3, e4}},
		{"closed spaced", "[\n  " + e1 + ",\n  " + e2 + "\n]  \n", []string{e1, e2, e3, e4}},
		{"unclosed", "[" + e1 + ",\n" + e2, []string{e1, e2, e3, e4}},
		{"unclosed newline", "[" + e1 + ",\n" + e2 + "\n\n", []string{e1, e2, e3, e4}},
		{"unclosed comma", "[" + e1 + ",\n" + e2 + ",\n", []string{e1, e2, e3, e4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.json")
			if c.name != "missing" {
				if err := os.WriteFile(path, []byte(c.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			r, err := CreateRecorder(path, true)
			if err != nil {
				t.Fatal(err)
			}
			recs := recordsOf(t, e3, e4)
			if err := r.Write(recs[0]); err != nil {
				t.Fatal(err)
			}
			if err := r.Write(recs[1]); err != nil {
				t.Fatal(err)
			}
			if err := r.Close(); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			if !json.Valid(data) {
				t.Fatalf("not one valid array:\n%s", data)
			}
			out := readLog(t, path)
			if len(out) != len(c.want) {
				t.Fatalf("got %d records, want %d:\n%s", len(out), len(c.want), data)
			}
			for i, w := range c.want {
				if string(out[i].Raw) != w {
					t.Errorf("record %d: %s, want %s", i, out[i].Raw, w)
				}
			}
		})
	}
}

func TestRecorderAppendTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	recs := recordsOf(t,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r1","timestamp":1}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1","timestamp":2}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2","parentRunId":"r1","timestamp":3}`,
	)
	for i, rec := range recs {
		r, err := CreateRecorder(path, i > 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Write(rec); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			// Left open, as a killed recorder leaves it: the array has no ].
			if err := r.f.Close(); err != nil {
				t.Fatal(err)
			}
			r.timer.Stop()
			continue
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
	}
	out := readLog(t, path)
	if len(out) != len(recs) {
		t.Fatalf("got %d records, want %d", len(out), len(recs))
	}
	for i := range recs {
		if !bytes.Equal(out[i].Raw, recs[i].Raw) {
			t.Errorf("record %d: %s", i, out[i].Raw)
		}
	}
	if data, _ := os.ReadFile(path); !json.Valid(data) {
		t.Fatalf("not valid JSON:\n%s", data)
	}
}

func TestRecorderAppendRefuses(t *testing.T) {
	for name, before := range map[string]string{
		"jsonl":           `{"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n",
		"events object":   `{"events":[]}`,
		"cut off":         `[{"type":"RUN_STARTED","threadId":"t","runId":"r"},` + "\n" + `{"type":"RUN_FIN`,
		"garbage":         `[{"type":"RUN_STARTED"} nonsense`,
		"after close":     `[{"type":"RUN_STARTED"}] {"x":1}`,
		"not json at all": "hello",
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "run.json")
			if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := CreateRecorder(path, true); err == nil || !strings.Contains(err.Error(), path) {
				t.Fatalf("err %v, want a refusal naming the file", err)
			}
			if data, _ := os.ReadFile(path); string(data) != before {
				t.Fatalf("file changed: %q", data)
			}
		})
	}
}

func TestRecorderConcurrentAndSync(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	r, err := CreateRecorder(path, false)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Go(func() {
			for i := range 50 {
				raw := fmt.Sprintf(`{"type":"CUSTOM","name":"g%d","value":%d}`, g, i)
				rec := recordsOf(t, raw)[0]
				if err := r.Write(rec); err != nil {
					t.Error(err)
				}
				if i%10 == 0 {
					time.Sleep(SyncInterval / 4)
				}
			}
		})
	}
	wg.Wait()
	time.Sleep(2 * SyncInterval) // let the timer's fsync run
	r.mu.Lock()
	dirty := r.dirty
	r.mu.Unlock()
	if dirty {
		t.Error("not synced SyncInterval after the last Write")
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	out := readLog(t, path)
	if len(out) != 200 {
		t.Fatalf("got %d records, want 200", len(out))
	}
	next := map[string]int{}
	for _, rec := range out {
		m := decodeMap(t, rec.Raw)
		name := m["name"].(string)
		if int(m["value"].(float64)) != next[name] {
			t.Fatalf("%s out of order: %v", name, m["value"])
		}
		next[name]++
	}
}

// TestRecorderKilled kills a recording process with SIGKILL while it writes
// and checks the reader and the fold take the file as it is left.
func TestRecorderKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a helper process")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "recorder")
	build := exec.Command("go", "build", "-o", bin, "./testdata/recorder")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	path := filepath.Join(dir, "run.json")
	cmd := exec.Command(bin, path, "10000", "200us")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stdout)
	written := 0
	for written < 1000 && sc.Scan() {
		written, _ = strconv.Atoi(sc.Text())
	}
	time.Sleep(3 * time.Millisecond) // land the kill anywhere, perhaps inside a write
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	werr := cmd.Wait()
	if written < 1000 {
		t.Fatalf("helper wrote only %d events: %v\n%s", written, werr, stderr.String())
	}
	if werr == nil {
		t.Fatal("the helper finished before it was killed; slow it down")
	}

	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("]")) {
		t.Fatal("a killed recorder's file has a closing ]")
	}
	recs := readLog(t, path)
	var tail *model.Record
	events := recs
	if n := len(recs); n > 0 {
		if _, bad := recs[n-1].Event.(*model.Unreadable); bad {
			tail, events = &recs[n-1], recs[:n-1]
		}
	}
	if len(events) < written {
		t.Fatalf("read %d complete events, but %d were written before the kill", len(events), written)
	}
	for i, rec := range events {
		if u, bad := rec.Event.(*model.Unreadable); bad {
			t.Fatalf("record %d of %d unreadable: %s", i+1, len(recs), u.Reason)
		}
		m := decodeMap(t, rec.Raw)
		if _, ok := m["timestamp"].(float64); !ok {
			t.Fatalf("record %d has no timestamp: %s", i+1, rec.Raw)
		}
		if i >= 2 {
			delta := m["delta"].(string)
			if n, _ := strconv.Atoi(delta[:strings.IndexByte(delta, ' ')]); n != i {
				t.Fatalf("record %d holds event %d: out of order or lost", i+1, n)
			}
		}
	}
	t.Logf("killed after %d events reported; file holds %d complete events, cut-off tail: %v", written, len(events), tail != nil)

	foldClean(t, recs, tail)

	// Whether or not the kill landed inside a write, check the cut-off case
	// too: the same file cut in the middle of its last event.
	// A tail the kill left is dropped first, so the cut lands inside the
	// last complete event whichever way the kill fell.
	last := bytes.LastIndex(data, []byte(",\n"))
	if tail != nil {
		data = data[:last]
		last = bytes.LastIndex(data, []byte(",\n"))
	}
	if last < 0 || last+len(",\n")+40 >= len(data) {
		t.Fatalf("no complete event long enough to cut in %d bytes", len(data))
	}
	cut := filepath.Join(dir, "cut.json")
	if err := os.WriteFile(cut, data[:last+len(",\n")+40], 0o644); err != nil {
		t.Fatal(err)
	}
	recs = readLog(t, cut)
	n := len(recs)
	if n != len(events) {
		t.Fatalf("cut file: %d records, want %d complete events and a tail", n, len(events)-1)
	}
	for i, rec := range recs[:n-1] {
		if !bytes.Equal(rec.Raw, events[i].Raw) {
			t.Fatalf("cut file: record %d differs", i+1)
		}
	}
	if _, bad := recs[n-1].Event.(*model.Unreadable); !bad {
		t.Fatalf("cut file: last record is %s, want the unreadable tail", recs[n-1].Raw)
	}
	foldClean(t, recs, &recs[n-1])
}

// foldClean folds recs and fails on any diagnostic except one for tail.
func foldClean(t *testing.T, recs []model.Record, tail *model.Record) {
	t.Helper()
	u, err := fold.New(fold.Options{}).Apply(recs...)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range u.Diagnostics {
		if tail == nil || d.Seq != tail.Seq {
			t.Errorf("diagnostic for a complete event: %+v", d)
		}
	}
	if tail != nil && len(u.Diagnostics) != 1 {
		t.Errorf("%d diagnostics, want one for the cut-off tail", len(u.Diagnostics))
	}
}

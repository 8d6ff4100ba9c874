package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// writeFile writes data to name in dir and returns its path.
func writeFile(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// threadIDs are the thread ids of a log in order of first RUN_STARTED.
func threadIDs(t *testing.T, log []byte) []string {
	t.Helper()
	var ids []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(log))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		var ev struct {
			Type     string `json:"type"`
			ThreadID string `json:"threadId"`
		}
		if json.Unmarshal(sc.Bytes(), &ev) == nil && ev.Type == "RUN_STARTED" && !seen[ev.ThreadID] {
			seen[ev.ThreadID] = true
			ids = append(ids, ev.ThreadID)
		}
	}
	return ids
}

// A generated 100,000-event log of 100 threads: steps lists every tool
// call of every thread, validate finds it clean, threads lists them all.
func TestManyThreadsFile(t *testing.T) {
	if testing.Short() {
		t.Skip("folds 100,000 events three times")
	}
	log := loggen.GenerateThreads(100_000, 100, 1)
	path := writeFile(t, t.TempDir(), "server.jsonl", log)
	calls := bytes.Count(log, []byte(`"type":"TOOL_CALL_START"`))
	code, out, errOut := runCLI(t, nil, "steps", path)
	if code != 0 || errOut != "" {
		t.Fatalf("steps: exit %d, stderr %q", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != calls {
		t.Errorf("steps lists %d steps, the log has %d tool calls", len(lines), calls)
	}
	ids := threadIDs(t, log)
	if len(ids) != 100 {
		t.Fatalf("the log has %d threads", len(ids))
	}
	perThread := map[string]int{}
	for _, l := range lines {
		perThread[strings.Fields(l)[0]]++
	}
	if len(perThread) != 100 {
		t.Errorf("steps names %d threads in its first column, want 100", len(perThread))
	}
	if code, out, _ := runCLI(t, nil, "validate", path); code != 0 {
		t.Errorf("validate: exit %d\n%.500s", code, out)
	}
	code, out, _ = runCLI(t, nil, "threads", path)
	rows := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(rows) != 101 || !strings.HasPrefix(rows[0], "ID") {
		t.Fatalf("threads: exit %d, %d lines", code, len(rows))
	}
	for i, id := range ids {
		if !strings.HasPrefix(rows[i+1], id+" ") {
			t.Errorf("threads line %d is %q, want thread %s (order of first appearance)", i+1, rows[i+1], id)
			break
		}
	}
}

// fold prints {"threads": […]} for a log of several threads, each element
// the one-thread shape; --thread prints one thread, exactly as fold prints
// that thread's events alone.
func TestFoldThreads(t *testing.T) {
	dir := t.TempDir()
	log := loggen.GenerateThreads(6_000, 4, 2)
	path := writeFile(t, dir, "four.jsonl", log)
	ids := threadIDs(t, log)
	code, out, errOut := runCLI(t, nil, "fold", "--compact", path)
	if code != 0 {
		t.Fatalf("fold: exit %d, %s", code, errOut)
	}
	var all struct {
		Threads []map[string]any `json:"threads"`
	}
	if err := json.Unmarshal([]byte(out), &all); err != nil {
		t.Fatal(err)
	}
	if len(all.Threads) != 4 {
		t.Fatalf("%d threads in the output, want 4", len(all.Threads))
	}
	for i, th := range all.Threads {
		if th["threadId"] != ids[i] {
			t.Errorf("thread %d is %v, want %s", i, th["threadId"], ids[i])
		}
		if _, ok := th["source"]; ok {
			t.Errorf("a single file's threads name no source")
		}
	}
	for _, id := range ids {
		alone := writeFile(t, dir, id+".jsonl", loggen.ThreadFiles(6_000, 4, 2)[id])
		_, one, _ := runCLI(t, nil, "fold", "--compact", "--thread", id, path)
		_, want, _ := runCLI(t, nil, "fold", "--compact", alone)
		var got, alonef map[string]any
		if err := json.Unmarshal([]byte(one), &got); err != nil || got["threadId"] != id || got["messages"] == nil {
			t.Fatalf("fold --thread %s: %v %.200v", id, err, got)
		}
		if err := json.Unmarshal([]byte(want), &alonef); err != nil {
			t.Fatal(err)
		}
		// Event numbers are the file's, so only they may differ.
		for _, k := range []string{"threadId", "messages", "state", "warnings", "diagnostics"} {
			if a, b := mustMarshal(t, got[k]), mustMarshal(t, alonef[k]); a != b {
				t.Errorf("fold --thread %s: %s differs from folding the thread's events alone", id, k)
			}
		}
		for _, k := range []string{"steps", "runs"} {
			if a, b := withoutSeqs(t, got[k]), withoutSeqs(t, alonef[k]); a != b {
				t.Errorf("fold --thread %s: %s differ beyond their event numbers", id, k)
			}
		}
	}
	code, _, errOut = runCLI(t, nil, "fold", "--thread", "nope", path)
	if code != exitUnreadable || !strings.Contains(errOut, "no such thread") || !strings.Contains(errOut, ids[0]) {
		t.Errorf("unknown thread: exit %d, %q", code, errOut)
	}
	for _, cmd := range []string{"steps", "validate", "compact"} {
		if code, _, errOut := runCLI(t, nil, cmd, "--thread", "nope", path); code != exitUnreadable || !strings.Contains(errOut, "no such thread") {
			t.Errorf("%s --thread nope: exit %d, %q", cmd, code, errOut)
		}
	}
}

// A folder: every log in it, hidden files and other files skipped with a
// note; a glob does the same; fold names each thread's file.
func TestFolderAndGlob(t *testing.T) {
	dir := t.TempDir()
	if err := loggen.WriteThreadFolder(dir, 3_000, 3, 4); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, ".hidden.jsonl", []byte(`{"type":"RUN_STARTED","threadId":"h","runId":"r"}`+"\n"))
	writeFile(t, dir, "notes.txt", []byte("remember the milk\n"))
	if err := os.Mkdir(filepath.Join(dir, "old"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, nil, "threads", dir)
	if code != 0 || strings.Count(out, "\n") != 4 {
		t.Fatalf("threads DIR: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, want := range []string{".hidden.jsonl: hidden", "notes.txt: not an event log", "old: a folder"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	_, globbed, _ := runCLI(t, nil, "threads", filepath.Join(dir, "*.jsonl"))
	if globbed != out {
		t.Errorf("the glob lists\n%s\nthe folder\n%s", globbed, out)
	}
	_, js, _ := runCLI(t, nil, "fold", "--compact", dir)
	var all struct {
		Threads []struct {
			Source   string `json:"source"`
			ThreadID string `json:"threadId"`
		} `json:"threads"`
	}
	if err := json.Unmarshal([]byte(js), &all); err != nil || len(all.Threads) != 3 {
		t.Fatalf("fold DIR: %v, %d threads", err, len(all.Threads))
	}
	for _, th := range all.Threads {
		if filepath.Base(th.Source) != th.ThreadID+".jsonl" {
			t.Errorf("thread %s names source %s", th.ThreadID, th.Source)
		}
	}
	if code, _, _ := runCLI(t, nil, "validate", dir); code != 0 {
		t.Errorf("validate DIR: exit %d", code)
	}
	code, out, _ = runCLI(t, nil, "threads", "--json", dir)
	var lines []map[string]any
	if err := json.Unmarshal([]byte(out), &lines); code != 0 || err != nil || len(lines) != 3 || lines[0]["title"] == "" {
		t.Errorf("threads --json: exit %d, %v, %v", code, err, lines)
	}
	if code, _, errOut := runCLI(t, nil, "threads", filepath.Join(dir, "nothing-*.jsonl")); code != 0 || errOut != "" {
		t.Errorf("a glob that matches nothing: exit %d, %q", code, errOut)
	}
}

// A run of another thread starting over an open run is a problem naming
// both threads; each line says its thread.
func TestValidateThreadOverlap(t *testing.T) {
	log := strings.Join([]string{
		`{"type":"RUN_STARTED","threadId":"a","runId":"a1"}`,
		`{"type":"RUN_STARTED","threadId":"b","runId":"b1"}`,
		`{"type":"RUN_FINISHED","threadId":"b","runId":"b1"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"x","delta":"?"}`,
	}, "\n") + "\n"
	code, out, _ := runCLI(t, []byte(log), "validate", "-")
	want := []string{
		"#2 RUN_STARTED: run 'b1' of thread 'b' started while run 'a1' of thread 'a' was still open; the events that follow belong to thread 'b'  [thread-overlap]  thread b",
		"#4 TEXT_MESSAGE_CONTENT:",
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != exitProblems || len(lines) != 2 || lines[0] != want[0] || !strings.HasPrefix(lines[1], want[1]) || !strings.HasSuffix(lines[1], "thread b") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	code, out, _ = runCLI(t, []byte(log), "validate", "--thread", "a", "-")
	if code != 0 || out != "" {
		t.Errorf("--thread a: exit %d, %q", code, out)
	}
}

// withoutSeqs is a list of steps or runs as JSON without their event numbers.
func withoutSeqs(t *testing.T, v any) string {
	t.Helper()
	list, _ := v.([]any)
	for _, x := range list {
		if m, ok := x.(map[string]any); ok {
			delete(m, "firstSeq")
			delete(m, "lastSeq")
		}
	}
	return mustMarshal(t, list)
}

// compact compacts each thread on its own: the output folds, thread by
// thread, to the same messages and state; --thread keeps one thread.
func TestCompactThreads(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "four.jsonl", loggen.GenerateThreads(4_000, 4, 5))
	out := filepath.Join(dir, "small.json")
	if code, _, errOut := runCLI(t, nil, "compact", "-o", out, path); code != 0 {
		t.Fatalf("compact: exit %d, %s", code, errOut)
	}
	pick := func(file string, args ...string) []map[string]any {
		_, js, _ := runCLI(t, nil, append([]string{"fold", "--compact", file}, args...)...)
		var all struct {
			Threads []map[string]any `json:"threads"`
		}
		if err := json.Unmarshal([]byte(js), &all); err == nil && len(all.Threads) > 0 {
			return all.Threads
		}
		var one map[string]any
		if err := json.Unmarshal([]byte(js), &one); err != nil {
			t.Fatal(err)
		}
		return []map[string]any{one}
	}
	before, after := pick(path), pick(out)
	if len(before) != 4 || len(after) != 4 {
		t.Fatalf("%d threads before, %d after", len(before), len(after))
	}
	for i := range before {
		for _, k := range []string{"threadId", "messages", "state"} {
			if mustMarshal(t, before[i][k]) != mustMarshal(t, after[i][k]) {
				t.Errorf("thread %d: %s differ after compaction", i, k)
			}
		}
	}
	id := before[2]["threadId"].(string)
	one := filepath.Join(dir, "one.json")
	if code, _, _ := runCLI(t, nil, "compact", "--thread", id, "-o", one, path); code != 0 {
		t.Fatal("compact --thread failed")
	}
	got := pick(one)
	if len(got) != 1 || got[0]["threadId"] != id || mustMarshal(t, got[0]["messages"]) != mustMarshal(t, before[2]["messages"]) {
		t.Errorf("compact --thread %s gives %d threads", id, len(got))
	}
}

// --plain prints every thread's lines, each thread's under a heading; a
// replay of one thread (--thread) prints what --plain prints of that
// thread's events alone, from a log and from a folder.
func TestPlainAndReplayThreads(t *testing.T) {
	dir := t.TempDir()
	log := loggen.GenerateThreads(3_000, 3, 6)
	path := writeFile(t, dir, "three.jsonl", log)
	ids := threadIDs(t, log)
	code, out, errOut := runCLI(t, nil, "--plain", path)
	if code != 0 {
		t.Fatalf("--plain: exit %d, %s", code, errOut)
	}
	// Every thread's lines come under its heading, the first thread's
	// too (nobody knows yet that others follow when it prints).
	if !strings.HasPrefix(out, "== thread "+ids[0]+" ==\nrun ") {
		t.Errorf("the first lines have no heading:\n%.200s", out)
	}
	for _, id := range ids[1:] {
		if !strings.Contains(out, "== thread "+id+" ==\n") {
			t.Errorf("--plain has no heading for thread %s", id)
		}
	}
	folder := filepath.Join(dir, "threads")
	if err := loggen.WriteThreadFolder(folder, 3_000, 3, 6); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids[1:] {
		_, alone, _ := runCLI(t, nil, "--plain", filepath.Join(folder, id+".jsonl"))
		if strings.Count(alone, "== thread") != 1 || !strings.HasPrefix(alone, "== thread "+id+" ==\n") {
			t.Errorf("a log of one thread has not one heading, first:\n%.200s", alone)
		}
		for _, from := range []string{path, folder} {
			code, played, errOut := runCLI(t, nil, "replay", "--plain", "--speed", "16", "--idle-cap", "1ms", "--thread", id, from)
			if code != 0 || played != alone {
				t.Errorf("replay --thread %s %s: exit %d %s\n%.300s\nwant\n%.300s", id, from, code, errOut, played, alone)
			}
		}
	}
	if code, _, errOut := runCLI(t, nil, "replay", "--plain", folder); code != exitUnreadable || !strings.Contains(errOut, "--thread") {
		t.Errorf("replay DIR without --thread: exit %d, %q", code, errOut)
	}
}

// Standard input may carry several threads too.
func TestStdinThreads(t *testing.T) {
	log := loggen.GenerateThreads(1_500, 2, 8)
	code, out, _ := runCLI(t, log, "--plain", "-")
	if code != 0 || strings.Count(out, "== thread ") < 2 {
		t.Errorf("stdin: exit %d, %d headings", code, strings.Count(out, "== thread "))
	}
	code, out, _ = runCLI(t, log, "threads", "-")
	if code != 0 || strings.Count(out, "\n") != 3 {
		t.Errorf("threads -: exit %d\n%s", code, out)
	}
}

// connect takes a stream of several threads: --plain heads each thread's
// lines, and --record keeps a log that lists the same threads.
func TestConnectThreads(t *testing.T) {
	log := loggen.GenerateThreads(1_200, 2, 12)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, line := range bytes.Split(bytes.TrimSpace(log), []byte("\n")) {
			fmt.Fprintf(w, "data: %s\n\n", line)
		}
	}))
	defer srv.Close()
	rec := filepath.Join(t.TempDir(), "two.json")
	code, out, errOut := runCLI(t, nil, "connect", srv.URL, "--plain", "--record", rec)
	if code != 0 || !strings.Contains(out, "== thread ") {
		t.Fatalf("connect: exit %d, %s\n%.300s", code, errOut, out)
	}
	_, listed, _ := runCLI(t, nil, "threads", rec)
	ids := threadIDs(t, log)
	for _, id := range ids {
		if !strings.Contains(listed, id) {
			t.Errorf("the recording lacks thread %s:\n%s", id, listed)
		}
	}
}

// A folder of 1,000 per-thread logs: threads lists every one.
func TestThousandLogFolder(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads 1,000 files")
	}
	dir := t.TempDir()
	if err := loggen.WriteThreadFolder(dir, 30_000, 1_000, 2); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, nil, "threads", "--json", dir)
	var lines []struct {
		ThreadID string `json:"threadId"`
		Source   string `json:"source"`
	}
	if err := json.Unmarshal([]byte(out), &lines); code != 0 || err != nil || errOut != "" {
		t.Fatalf("threads: exit %d, %v, %q", code, err, errOut)
	}
	if len(lines) != 1_000 {
		t.Fatalf("%d threads listed, want 1000", len(lines))
	}
	for _, l := range lines {
		if filepath.Base(l.Source) != l.ThreadID+".jsonl" {
			t.Fatalf("thread %s from %s", l.ThreadID, l.Source)
		}
	}
}

// Thread ids and file names come from outside: no escape sequence of
// theirs reaches the terminal, in the output or in an error.
func TestHostileThreadIDs(t *testing.T) {
	dir := t.TempDir()
	id := "evil\x1b]52;c;aGk=\x07\x1b[2J\u009b31m"
	log := `{"type":"RUN_STARTED","threadId":"` + strings.ReplaceAll(strings.ReplaceAll(id, "\x1b", `\u001b`), "\x07", `\u0007`) + `","runId":"r"}` + "\n" +
		`{"type":"RUN_FINISHED","threadId":"x","runId":"q"}` + "\n"
	path := writeFile(t, dir, "log.jsonl", []byte(log))
	writeFile(t, dir, "bad\x1b[2Jname.txt", []byte("not a log"))
	for _, args := range [][]string{{"threads", path}, {"threads", dir}, {"fold", "--thread", "nope", path}, {"steps", path}, {"validate", path}} {
		_, out, errOut := runCLI(t, nil, args...)
		if strings.ContainsAny(out+errOut, "\x1b\x07\u009b") {
			t.Errorf("%v printed an escape:\nout %q\nerr %q", args, out, errOut)
		}
	}
}

package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// readPlainLog reads an AG-UI log as records.
func readPlainLog(t *testing.T, log []byte) []model.Record {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func readDemo(t *testing.T) []model.Record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "assets", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return readPlainLog(t, b)
}

// printPlain folds recs one at a time (or all at once) through a
// PlainPrinter and returns what it wrote, as lines.
func printPlain(t *testing.T, recs []model.Record, oneByOne bool) []string {
	t.Helper()
	f := fold.New(fold.Options{})
	var out bytes.Buffer
	p := NewPlainPrinter(&out, f)
	apply := func(rs ...model.Record) {
		u, _ := f.Apply(rs...)
		if err := p.Print(u); err != nil {
			t.Fatal(err)
		}
	}
	if oneByOne {
		for _, r := range recs {
			apply(r)
		}
	} else {
		apply(recs...)
	}
	return printedLines(t, out.String())
}

// printedLines is what a plain printer wrote, a line each; it fails unless
// every line ends in a newline and none holds a control character.
func printedLines(t *testing.T, s string) []string {
	t.Helper()
	if s == "" {
		return nil
	}
	if !strings.HasSuffix(s, "\n") {
		t.Fatalf("output does not end in a newline: %q", s)
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for _, l := range lines {
		for _, r := range l {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("control character %U in line %q", r, l)
			}
		}
	}
	return lines
}

func indexOf(lines []string, want string) int {
	return slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) })
}

func TestPlainDemo(t *testing.T) {
	recs := readDemo(t)
	each := printPlain(t, recs, true)
	all := printPlain(t, recs, false)
	if len(each) == 0 {
		t.Fatal("no lines")
	}
	// The same lines both ways but for the pending ones (all at once, every
	// step appears and finishes within the one Update); order differs only
	// where steps ran side by side.
	notPending := func(lines []string) []string {
		return slices.DeleteFunc(slices.Clone(lines), func(l string) bool { _, st := stepState(l); return st == "pending" })
	}
	a, b := slices.Sorted(slices.Values(notPending(each))), slices.Sorted(slices.Values(all))
	if !slices.Equal(a, b) {
		t.Errorf("one at a time and all at once differ:\n%s\n---\n%s", strings.Join(each, "\n"), strings.Join(all, "\n"))
	}
	for name, lines := range map[string][]string{"one at a time": each, "all at once": all} {
		// Each line once.
		seen := map[string]bool{}
		for _, l := range lines {
			if seen[l] && !strings.HasPrefix(l, "you: ") && !strings.HasPrefix(l, "agent: ") {
				t.Errorf("%s: line twice: %q", name, l)
			}
			seen[l] = true
		}
		run := indexOf(lines, "step 1 execute running · Running command · ls -la")
		done := indexOf(lines, "step 1 execute completed · Ran command · ls -la · 412ms")
		if run < 0 || done < 0 || run > done {
			t.Errorf("%s: step 1 running at %d, completed at %d", name, run, done)
		}
		if i := slices.IndexFunc(lines, func(l string) bool {
			return strings.HasPrefix(l, "step ") && strings.Contains(l, " failed · ") && strings.Contains(l, "Command failed (exit 1)")
		}); i < 0 {
			t.Errorf("%s: no failed step with exit 1", name)
		}
		var started, continues, completed int
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "run ") && strings.Contains(l, " started"):
				started++
				if strings.Contains(l, " started (continues ") {
					continues++
				}
			case strings.HasPrefix(l, "run ") && strings.HasSuffix(l, " completed"):
				completed++
			}
		}
		if started != 2 || continues != 1 || completed != 2 {
			t.Errorf("%s: runs started %d (continuing %d), completed %d; want 2 (1), 2", name, started, continues, completed)
		}
		if indexOf(lines, "you: CI has been red") < 0 || indexOf(lines, "agent: ") < 0 {
			t.Errorf("%s: messages missing", name)
		}
		for _, l := range lines {
			if (strings.HasPrefix(l, "you: ") || strings.HasPrefix(l, "agent: ")) && len([]rune(l)) > 120+len("agent: ") {
				t.Errorf("%s: message line too long: %q", name, l)
			}
		}
	}
	// Every step of the demo streams its arguments over several records, so
	// one at a time each step shows pending, running and its end, in that
	// order; all at once, running and its end.
	for name, c := range map[string]struct {
		lines []string
		want  string
	}{"one at a time": {each, "pending running end"}, "all at once": {all, "running end"}} {
		states := map[string][]string{}
		var order []string
		for _, l := range c.lines {
			num, st := stepState(l)
			if num == "" {
				continue
			}
			if _, ok := states[num]; !ok {
				order = append(order, num)
			}
			if st != "pending" && st != "running" {
				st = "end"
			}
			states[num] = append(states[num], st)
		}
		if len(order) != 30 {
			t.Errorf("%s: %d steps, want 30", name, len(order))
		}
		for _, num := range order {
			if got := strings.Join(states[num], " "); got != c.want {
				t.Errorf("%s: step %s printed %q, want %q", name, num, got, c.want)
			}
		}
	}
}

// stepState is the step number and status of a step line ("" for other lines).
func stepState(l string) (num, status string) {
	f := strings.Fields(l)
	if len(f) < 5 || f[0] != "step" || f[4] != "·" {
		return "", ""
	}
	return f[1], f[3]
}

// TestPlainStepStates: a step shows when it appears, pending included, and
// then each state it is seen in, once, in order; never a state it was not
// seen in, but for the running line before a finished one.
func TestPlainStepStates(t *testing.T) {
	// move_file writes tui/view.go: its arguments stream over three records.
	const moveLog = `{"type":"RUN_STARTED","threadId":"t","runId":"r1","timestamp":1764321243000}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"move_file","metadata":{"category":"move","location":"tui/view.go"},"timestamp":1764321243100}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"from\":\"view.go\",","timestamp":1764321243300}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\"to\":\"tui/","timestamp":1764321243600}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"view.go\"}","timestamp":1764321243900}
{"type":"TOOL_CALL_END","toolCallId":"c1","timestamp":1764321244000}
{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":"moved","timestamp":1764321244300}
{"type":"RUN_FINISHED","threadId":"t","runId":"r1","timestamp":1764321244400}
`
	// A large write that is still streaming when the log ends.
	const cutLog = `{"type":"RUN_STARTED","threadId":"t","runId":"r1","timestamp":1764321243000}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"write_file","metadata":{"category":"edit","location":"big.go"},"timestamp":1764321243100}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"path\":\"big.go\",\"text\":\"package big\\n","timestamp":1764321243200}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"func A() {}\\n","timestamp":1764321243300}
`
	// A command that fails with exit code 2.
	const execLog = `{"type":"RUN_STARTED","threadId":"t","runId":"r1","timestamp":1764321243000}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"bash","metadata":{"category":"execute","location":"go test ./..."},"timestamp":1764321243100}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"command\":\"go test ./...\"}","timestamp":1764321243200}
{"type":"TOOL_CALL_END","toolCallId":"c1","timestamp":1764321243300}
{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"c1","content":"FAIL","metadata":{"exitCode":2},"timestamp":1764321243512}
`
	// A call the run leaves to the client: running after its arguments,
	// pending again when the run finishes without its result.
	const clientLog = `{"type":"RUN_STARTED","threadId":"t","runId":"r1","timestamp":1764321243000}
{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"move_file","metadata":{"category":"move","location":"tui/view.go"},"timestamp":1764321243100}
{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"from\":\"view.go\",\"to\":\"tui/view.go\"}","timestamp":1764321243300}
{"type":"TOOL_CALL_END","toolCallId":"c1","timestamp":1764321243400}
{"type":"RUN_FINISHED","threadId":"t","runId":"r1","timestamp":1764321243500}
`
	// An ACP edit: announced pending, then in progress, then completed.
	const acpLog = `{"t":1764500000000,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"move view.go"}]}}}
{"t":1764500000100,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"Move view.go","kind":"move","status":"pending","locations":[{"path":"tui/view.go"}]}}}}
{"t":1764500000400,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"in_progress"}}}}
{"t":1764500001300,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}}}
{"t":1764500001400,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}}
`
	// An ACP command announced already in progress.
	const acpRunningLog = `{"t":1764500000000,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"test"}]}}}
{"t":1764500000100,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","title":"go test","kind":"execute","status":"in_progress"}}}}
{"t":1764500000500,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"t1","status":"completed"}}}}
`
	const (
		movePending   = "step 1 move pending · Moving · tui/view.go"
		moveRunning   = "step 1 move running · Moving · tui/view.go"
		moveCompleted = "step 1 move completed · Moved · tui/view.go · 1.2s"
	)
	tests := []struct {
		name string
		log  string
		acp  bool // log is an ACP recording, not AG-UI
		// applies is how many records each Apply folds; nil for one each.
		applies []int
		// want is what each Apply printed, its lines joined by "\n".
		want []string
	}{{
		name: "arguments stream over several applies",
		log:  moveLog,
		want: []string{"run r1 started", movePending, "", "", "", moveRunning, moveCompleted, "run r1 completed"},
	}, {
		name: "log ends while the step is pending",
		log:  cutLog,
		want: []string{"run r1 started", "step 1 edit pending · Editing · big.go", "", ""},
	}, {
		name:    "log ending pending, all at once",
		log:     cutLog,
		applies: []int{4},
		want:    []string{"run r1 started\nstep 1 edit pending · Editing · big.go"},
	}, {
		name:    "step arrives whole in one apply",
		log:     moveLog,
		applies: []int{1, 6, 1},
		want:    []string{"run r1 started", moveRunning + "\n" + moveCompleted, "run r1 completed"},
	}, {
		name:    "whole log at once",
		log:     moveLog,
		applies: []int{8},
		want:    []string{"run r1 started\n" + moveRunning + "\n" + moveCompleted + "\nrun r1 completed"},
	}, {
		name:    "seen pending, then finished in one apply",
		log:     moveLog,
		applies: []int{1, 2, 4, 1},
		want:    []string{"run r1 started", movePending, moveRunning + "\n" + moveCompleted, "run r1 completed"},
	}, {
		name:    "first seen running",
		log:     moveLog,
		applies: []int{1, 5, 1, 1},
		want:    []string{"run r1 started", moveRunning, moveCompleted, "run r1 completed"},
	}, {
		name: "failed command",
		log:  execLog,
		want: []string{"run r1 started",
			"step 1 execute pending · Running command · go test ./...", "",
			"step 1 execute running · Running command · go test ./...",
			"step 1 execute failed · Command failed (exit 2) · go test ./... · 412ms"},
	}, {
		name: "left to the client: no pending line after running",
		log:  clientLog,
		want: []string{"run r1 started", movePending, "", moveRunning, "run r1 completed"},
	}, {
		name:    "left to the client, all at once: seen pending only",
		log:     clientLog,
		applies: []int{5},
		want:    []string{"run r1 started\n" + movePending + "\nrun r1 completed"},
	}, {
		name: "ACP step pending, in progress, completed",
		log:  acpLog,
		acp:  true,
		want: []string{"run 1 started\nyou: move view.go", movePending, moveRunning, moveCompleted, "run 1 completed (end_turn)"},
	}, {
		name:    "ACP step pending, then completed in one apply",
		log:     acpLog,
		acp:     true,
		applies: []int{2, 3},
		want:    []string{"run 1 started\nyou: move view.go\n" + movePending, moveRunning + "\n" + moveCompleted + "\nrun 1 completed (end_turn)"},
	}, {
		name: "ACP step announced in progress",
		log:  acpRunningLog,
		acp:  true,
		want: []string{"run 1 started\nyou: test", "step 1 execute running · Running command · go test", "step 1 execute completed · Ran command · go test · 400ms"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recs []model.Record
			if tt.acp {
				var err error
				if recs, err = sources.ReadACPRecording(strings.NewReader(tt.log)); err != nil {
					t.Fatal(err)
				}
			} else {
				recs = readPlainLog(t, []byte(tt.log))
			}
			applies := tt.applies
			if applies == nil {
				applies = slices.Repeat([]int{1}, len(recs))
			}
			f := fold.New(fold.Options{})
			var out bytes.Buffer
			p := NewPlainPrinter(&out, f)
			var got []string
			for _, n := range applies {
				if n > len(recs) {
					t.Fatalf("%d records left, apply wants %d", len(recs), n)
				}
				u, _ := f.Apply(recs[:n]...)
				recs = recs[n:]
				out.Reset()
				if err := p.Print(u); err != nil {
					t.Fatal(err)
				}
				got = append(got, strings.TrimSuffix(out.String(), "\n"))
			}
			if len(recs) > 0 {
				t.Fatalf("%d records not applied", len(recs))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("printed, apply by apply:\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

func TestPlainProblemAndDeltas(t *testing.T) {
	log := []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"hi"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello\n"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"world"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"RUN_ERROR","message":"out of\ntokens"}
`)
	recs := readPlainLog(t, log)
	f := fold.New(fold.Options{})
	var out bytes.Buffer
	p := NewPlainPrinter(&out, f)
	var got [][]string
	for _, r := range recs {
		u, _ := f.Apply(r)
		out.Reset()
		if err := p.Print(u); err != nil {
			t.Fatal(err)
		}
		// Printing the same update again adds nothing.
		if err := p.Print(u); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Fields(strings.ReplaceAll(out.String(), "\n", " |")))
	}
	lines := func(i int) string { return strings.Join(got[i], " ") }
	want := []string{
		"run r1 started |",
		"problem #2 TEXT_MESSAGE_CONTENT: TEXT_MESSAGE_CONTENT for message 'nope' that is not open [R6-text-not-open] |",
		"",
		"",
		"",
		"agent: Hello… |",
		"run r1 failed: out of tokens |",
	}
	for i, w := range want {
		if i == 1 {
			if !strings.HasPrefix(lines(i), "problem #2 TEXT_MESSAGE_CONTENT: ") || !strings.HasSuffix(lines(i), " [R6-text-not-open] |") {
				t.Errorf("record %d printed %q, want a problem line for rule R6", i+1, lines(i))
			}
			continue
		}
		if lines(i) != w {
			t.Errorf("record %d printed %q, want %q", i+1, lines(i), w)
		}
	}
	if all := printPlain(t, recs, false); len(all) != 4 {
		t.Errorf("all at once: %q, want 4 lines", all)
	}
}

func TestPlainHostileText(t *testing.T) {
	recs := readPlainLog(t, hostileLog())
	for _, oneByOne := range []bool{true, false} {
		lines := printPlain(t, recs, oneByOne)
		out := strings.Join(lines, "\n")
		for _, bad := range []string{"\x1b", "\x07", "\u009b", "]52;", "[2J", "]0;"} {
			if strings.Contains(out, bad) {
				t.Errorf("output holds %q:\n%s", bad, out)
			}
		}
		if indexOf(lines, "you: user asks") < 0 || indexOf(lines, "run r2 started (continues r1)") < 0 {
			t.Errorf("lines missing:\n%s", out)
		}
		if i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "run r2 failed: boom") }); i < 0 || indexOf(lines, "step 11 execute failed") > i {
			t.Errorf("no failed run line after its failed step:\n%s", out)
		}
		if indexOf(lines, "problem #") < 0 {
			t.Errorf("no problem line:\n%s", out)
		}
	}
}

func TestPlainFirstLineAndDuration(t *testing.T) {
	long := strings.Repeat("é", 200)
	if got := plainFirstLine(long, 120); len([]rune(got)) != 120 || !strings.HasSuffix(got, "…") {
		t.Errorf("long line: %d runes %q", len([]rune(got)), got)
	}
	if got := plainFirstLine("\n\n  a\tb \x1b[2J c\n\nmore", 120); got != "a b c…" {
		t.Errorf("got %q", got)
	}
	if got := plainFirstLine("only", 120); got != "only" {
		t.Errorf("got %q", got)
	}
	for d, want := range map[int64]string{412: "412ms", 1234: "1.2s", 14700: "14.7s", 123000: "2m3s"} {
		if got := plainDuration(timeMS(d)); got != want {
			t.Errorf("%dms: %q, want %q", d, got, want)
		}
	}
}

func timeMS(ms int64) (d time.Duration) { return time.Duration(ms) * time.Millisecond }

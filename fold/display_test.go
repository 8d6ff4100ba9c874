package fold_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// log builds records from event lines, each 100 ms after the previous.
func log(lines ...string) []model.Record {
	recs := make([]model.Record, len(lines))
	t0 := time.UnixMilli(1760000000000)
	for i, l := range lines {
		recs[i] = model.Record{Seq: uint64(i + 1), Raw: []byte(l), Event: agui.Decode([]byte(l)), At: t0.Add(time.Duration(i) * 100 * time.Millisecond)}
	}
	return recs
}

func foldLog(t *testing.T, opts fold.Options, lines ...string) *fold.Fold {
	t.Helper()
	f := fold.New(opts)
	if _, err := f.Apply(log(lines...)...); err != nil {
		t.Fatal(err)
	}
	return f
}

const runStart = `{"type":"RUN_STARTED","threadId":"t","runId":"r1"}`

func TestStepCategoryAndLocation(t *testing.T) {
	kinds, err := fold.ParseToolKinds([]byte(`{"bash":{"category":"execute","location":"/cmd"},"cat":"read"}`))
	if err != nil {
		t.Fatal(err)
	}
	f := foldLog(t, fold.Options{ToolKinds: kinds}, runStart,
		`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"x","metadata":{"category":"edit","location":"fold/fold.go"}}`,
		`{"type":"TOOL_CALL_END","toolCallId":"a"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"b","toolCallName":"y","metadata":{"kind":"fetch","location":"https://example.com"}}`,
		`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"bash"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"c","delta":"{\"cmd\":\"ls -la\"}"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"c"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"d","toolCallName":"cat"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"e","toolCallName":"read_file"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"g","toolCallName":"z","metadata":{"category":"teleport"}}`,
	)
	want := []struct {
		cat   model.Category
		loc   string
		label string
		st    model.Status
	}{
		{model.CategoryEdit, "fold/fold.go", "Editing · fold/fold.go", model.StatusRunning},
		{model.CategoryFetch, "https://example.com", "Fetching · https://example.com", model.StatusPending},
		{model.CategoryExecute, "ls -la", "Running command · ls -la", model.StatusRunning},
		{model.CategoryRead, "", "Reading", model.StatusPending},
		{model.CategoryOther, "", "Using read_file", model.StatusPending}, // never guessed from the name
		{model.CategoryOther, "", "Using z", model.StatusPending},
	}
	steps := f.Steps()
	if len(steps) != len(want) {
		t.Fatalf("%d steps", len(steps))
	}
	for i, w := range want {
		s := steps[i]
		if s.Category != w.cat || s.Location != w.loc || s.Label() != w.label || s.Status != w.st {
			t.Errorf("step %d: %s %q %q %s, want %s %q %q %s", i, s.Category, s.Location, s.Label(), s.Status, w.cat, w.loc, w.label, w.st)
		}
	}
	if string(steps[2].ArgsJSON) != `{"cmd":"ls -la"}` {
		t.Errorf("args json %s", steps[2].ArgsJSON)
	}
}

func TestParseToolKindsRejectsBadInput(t *testing.T) {
	for _, in := range []string{`[]`, `{"x":"teleport"}`, `{"x":{"category":"read","location":"no-slash"}}`, `{"x":3}`, `not json`} {
		if _, err := fold.ParseToolKinds([]byte(in)); err == nil {
			t.Errorf("%s: accepted", in)
		}
	}
}

func TestStepResultStatusScreenshotsDuration(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nfake"))
	f := foldLog(t, fold.Options{}, runStart,
		`{"type":"TOOL_CALL_START","toolCallId":"ok","toolCallName":"sh","metadata":{"category":"execute","location":"make"}}`,
		`{"type":"TOOL_CALL_END","toolCallId":"ok"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m1","toolCallId":"ok","content":"done","metadata":{"exitCode":0}}`,
		`{"type":"TOOL_CALL_START","toolCallId":"bad","toolCallName":"sh","metadata":{"category":"execute"}}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m2","toolCallId":"bad","content":"boom","metadata":{"exitCode":2}}`,
		`{"type":"TOOL_CALL_START","toolCallId":"shot","toolCallName":"browser","metadata":{"category":"fetch"}}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m3","toolCallId":"shot","content":[{"type":"text","text":"page"},{"type":"image","source":{"type":"data","mimeType":"image/png","value":"`+png+`"}},{"type":"image","source":{"type":"url","value":"https://x/y.png"}}]}`,
		`{"type":"TOOL_CALL_START","toolCallId":"err","toolCallName":"x"}`,
		`{"type":"TOOL_CALL_RESULT","messageId":"m4","toolCallId":"err","content":"nope","metadata":{"isError":true}}`,
	)
	s := f.Steps()
	if s[0].Status != model.StatusCompleted || s[0].Label() != "Ran command · make" || s[0].Duration() != 200*time.Millisecond || *s[0].ExitCode != 0 {
		t.Errorf("step 0: %+v %s %v", s[0], s[0].Label(), s[0].Duration())
	}
	if s[1].Status != model.StatusFailed || *s[1].ExitCode != 2 {
		t.Errorf("step 1: %+v", s[1])
	}
	if len(s[2].Screenshots) != 2 || !strings.HasPrefix(string(s[2].Screenshots[0].Data), "\x89PNG") || s[2].Screenshots[1].URL != "https://x/y.png" || s[2].Result != "page" {
		t.Errorf("step 2: %+v", s[2])
	}
	if strings.Contains(string(s[2].ResultJSON), png) || !strings.Contains(string(s[2].ResultJSON), "bytes of base64 image/png") {
		t.Errorf("result JSON keeps the inline image: %s", s[2].ResultJSON)
	}
	if s[3].Status != model.StatusFailed {
		t.Errorf("step 3: %s", s[3].Status)
	}
}

func TestRunsTreeAndEndings(t *testing.T) {
	f := foldLog(t, fold.Options{}, runStart,
		`{"type":"TOOL_CALL_START","toolCallId":"front","toolCallName":"ask_user"}`,
		`{"type":"TOOL_CALL_END","toolCallId":"front"}`,
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r1"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r2","parentRunId":"r1"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"slow","toolCallName":"sh"}`,
		`{"type":"TEXT_MESSAGE_START","messageId":"a","role":"assistant"}`,
		`{"type":"RUN_ERROR","message":"model overloaded","code":"529"}`,
	)
	runs := f.Runs()
	if len(runs) != 2 || runs[1].ParentRunID != "r1" || runs[0].Status != model.StatusCompleted || runs[1].Status != model.StatusFailed || runs[1].Error != "model overloaded" {
		t.Fatalf("runs %+v %+v", runs[0], runs[1])
	}
	if got := runs[0].PendingToolCalls; len(got) != 1 || got[0] != "front" {
		t.Errorf("pending %v", got)
	}
	steps := f.Steps()
	if steps[0].Status != model.StatusPending || steps[1].Status != model.StatusFailed {
		t.Errorf("steps %s %s", steps[0].Status, steps[1].Status)
	}
	var kinds []string
	for _, it := range f.Items() {
		kinds = append(kinds, fmt.Sprintf("%s:%s", it.Kind, it.Status))
		if it.Status == model.StatusOpen {
			t.Errorf("item %s still open after its run failed", it.ID)
		}
	}
	want := "run:completed tool_call:pending run:failed tool_call:failed message:completed error:failed"
	if strings.Join(kinds, " ") != strings.Replace(want, "tool_call:pending", "tool_call:open", 1) && strings.Join(kinds, " ") != want {
		t.Errorf("items %s", strings.Join(kinds, " "))
	}
}

func TestItemsStreamAndKeepEverything(t *testing.T) {
	f := foldLog(t, fold.Options{}, runStart,
		`{"type":"TEXT_MESSAGE_START","messageId":"a","role":"assistant"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"hel"}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"lo"}`,
		`{"type":"VENDOR_THING","x":1}`,
		`{"type":"CUSTOM","name":"progress","value":{"pct":10}}`,
		`{"type":"STEP_STARTED","stepName":"plan"}`,
		`garbage`,
	)
	items := f.Items()
	byKind := map[model.ItemKind]*model.Item{}
	for _, it := range items {
		byKind[it.Kind] = it
	}
	if m := byKind[model.ItemMessage]; m == nil || m.Text != "hello" || m.Status != model.StatusOpen {
		t.Errorf("message %+v", m)
	}
	if u := byKind[model.ItemUnknown]; u == nil || u.Name != "VENDOR_THING" || !strings.Contains(string(u.Data), `"x":1`) {
		t.Errorf("unknown %+v", u)
	}
	if c := byKind[model.ItemCustom]; c == nil || string(c.Data) != `{"pct":10}` {
		t.Errorf("custom %+v", c)
	}
	if p := byKind[model.ItemPhase]; p == nil || p.Status != model.StatusOpen {
		t.Errorf("phase %+v", p)
	}
	if d := byKind[model.ItemDiagnostic]; d == nil || d.Name != string(fold.RuleUnreadable) {
		t.Errorf("diagnostic %+v", d)
	}
	// Item numbers follow arrival and each change bumps a version.
	for i := 1; i < len(items); i++ {
		if items[i].Seq <= items[i-1].Seq {
			t.Fatal("items out of order")
		}
	}
	if byKind[model.ItemMessage].Version < 3 {
		t.Errorf("message version %d after 3 changes", byKind[model.ItemMessage].Version)
	}
}

func TestMessagesSnapshotGivesSteps(t *testing.T) {
	f := foldLog(t, fold.Options{},
		`{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"u","role":"user","content":"list files"},{"id":"a","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"sh","arguments":"{\"cmd\":\"ls\"}"},"metadata":{"category":"execute","location":"ls"}}]},{"id":"t1","role":"tool","toolCallId":"c1","content":"a.txt"}]}`)
	waiting := foldLog(t, fold.Options{}, `{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"a","role":"assistant","toolCalls":[{"id":"c1","type":"function","function":{"name":"sh","arguments":"{}"}}]}]}`)
	if st := waiting.Steps()[0].Status; st != model.StatusPending {
		t.Errorf("a call with no result in the snapshot is %s", st)
	}
	s := f.Steps()
	if len(s) != 1 || s[0].Category != model.CategoryExecute || s[0].Result != "a.txt" || s[0].Status != model.StatusCompleted || s[0].Label() != "Ran command · ls" {
		t.Fatalf("steps %+v", s)
	}
}

func TestHugeStreamIsLinear(t *testing.T) {
	// 5,000 deltas of 10 kB into one message: quadratic appends would copy ~125 GB.
	lines := []string{runStart, `{"type":"TEXT_MESSAGE_START","messageId":"m"}`}
	delta := `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"` + strings.Repeat("x", 10000) + `"}`
	f := fold.New(fold.Options{})
	f.Apply(log(lines...)...)
	rec := log(delta)[0]
	for i := 0; i < 5000; i++ {
		rec.Seq = uint64(i + 3)
		f.Apply(rec)
	}
	if n := len(f.Messages()[0].Content.Text); n != 50_000_000 {
		t.Fatalf("message has %d bytes", n)
	}
}

func TestRunTree(t *testing.T) {
	f := foldLog(t, fold.Options{},
		`{"type":"RUN_STARTED","threadId":"t","runId":"a"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"a"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"b","parentRunId":"a"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"b"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"c","parentRunId":"a"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"c"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"d","parentRunId":"b"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"d"}`,
		`{"type":"RUN_STARTED","threadId":"t","runId":"e","parentRunId":"gone"}`, `{"type":"RUN_FINISHED","threadId":"t","runId":"e"}`,
	)
	var show func(ns []*fold.RunNode) string
	show = func(ns []*fold.RunNode) string {
		var parts []string
		for _, n := range ns {
			s := n.Run.RunID
			if len(n.Children) > 0 {
				s += "(" + show(n.Children) + ")"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, " ")
	}
	if got := show(f.RunTree()); got != "a(b(d) c) e" {
		t.Fatalf("tree %s", got)
	}
}

func TestToolCallItemsPointAtTheirSteps(t *testing.T) {
	f := foldLog(t, fold.Options{}, runStart,
		`{"type":"TOOL_CALL_START","toolCallId":"a","toolCallName":"x"}`,
		`{"type":"TOOL_CALL_START","toolCallId":"b","toolCallName":"y"}`,
		`{"type":"TOOL_CALL_ARGS","toolCallId":"a","delta":"{}"}`,
		`{"type":"CUSTOM","name":"n","value":1}`,
	)
	want := map[string]int{"a": 0, "b": 1}
	for _, it := range f.Items() {
		switch it.Kind {
		case model.ItemToolCall:
			if it.Step != want[it.ID] {
				t.Errorf("tool call %s shows step %d, want %d", it.ID, it.Step, want[it.ID])
			}
			if it.ID == "a" && it.Version < 2 {
				t.Errorf("a step change left its item at version %d", it.Version)
			}
		default:
			if it.Step != -1 {
				t.Errorf("%s item has step %d", it.Kind, it.Step)
			}
		}
	}
}

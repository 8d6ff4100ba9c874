package loggen_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// event is the part of an event the shape checks look at.
type event struct {
	Type      string          `json:"type"`
	Timestamp int64           `json:"timestamp"`
	Content   json.RawMessage `json:"content"`
	Delta     json.RawMessage `json:"delta"`
	Metadata  struct {
		Category string `json:"category"`
		Location string `json:"location"`
	} `json:"metadata"`
}

func lines(log []byte) [][]byte {
	return bytes.Split(bytes.TrimSuffix(log, []byte("\n")), []byte("\n"))
}

func TestDeterministic(t *testing.T) {
	a, b := loggen.Generate(3_000, 42), loggen.Generate(3_000, 42)
	if !bytes.Equal(a, b) {
		t.Fatal("same n and seed gave different logs")
	}
	if bytes.Equal(a, loggen.Generate(3_000, 43)) {
		t.Fatal("different seeds gave the same log")
	}
}

func TestSize(t *testing.T) {
	for _, n := range []int{200, 1_000, 12_345, 50_000} {
		got := len(lines(loggen.Generate(n, 1)))
		if d := got - n; d < -n/20-20 || d > n/20+60 {
			t.Errorf("Generate(%d) gave %d events", n, got)
		}
	}
}

// TestShape checks the log against what the benchmarks claim it is: valid
// JSON Lines, increasing timestamps, the event mix of a real agent run.
func TestShape(t *testing.T) {
	const n = 40_000
	log := loggen.Generate(n, 5)
	count := map[string]int{}
	categories := map[string]int{}
	images, sinceDelta, maxGap := 0, 0, 0
	var last int64
	for i, ln := range lines(log) {
		if !utf8.Valid(ln) || !json.Valid(ln) {
			t.Fatalf("line %d is not valid UTF-8 JSON: %.200s", i+1, ln)
		}
		var ev event
		if err := json.Unmarshal(ln, &ev); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if !bytes.HasPrefix(ln, []byte(`{"type":"`+ev.Type+`"`)) {
			t.Fatalf("line %d: type is not the first member: %.80s", i+1, ln)
		}
		if ev.Timestamp <= last {
			t.Fatalf("line %d: timestamp %d not after %d", i+1, ev.Timestamp, last)
		}
		last = ev.Timestamp
		count[ev.Type]++
		switch ev.Type {
		case "TOOL_CALL_START":
			categories[ev.Metadata.Category]++
		case "TOOL_CALL_RESULT":
			if bytes.Contains(ev.Content, []byte(`"type":"image"`)) {
				images++
			}
		case "TEXT_MESSAGE_CONTENT", "REASONING_MESSAGE_CONTENT", "TOOL_CALL_ARGS":
			var d string
			_ = json.Unmarshal(ev.Delta, &d)
			if len(d) < 3 || len(d) > 43 { // 40 bytes plus the rest of a cut UTF-8 sequence
				t.Errorf("line %d: delta of %d bytes", i+1, len(d))
			}
		}
		if ev.Type == "STATE_DELTA" || ev.Type == "STATE_SNAPSHOT" || ev.Type == "RUN_STARTED" {
			sinceDelta = 0
		} else {
			sinceDelta++
			maxGap = max(maxGap, sinceDelta)
		}
	}
	t.Logf("%d bytes; mix %v; categories %v; %d screenshots", len(log), count, categories, images)

	for _, typ := range []string{"RUN_STARTED", "RUN_FINISHED", "STATE_SNAPSHOT", "STATE_DELTA", "STEP_STARTED", "STEP_FINISHED",
		"REASONING_START", "REASONING_MESSAGE_START", "REASONING_MESSAGE_CONTENT", "REASONING_MESSAGE_END", "REASONING_END",
		"TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END",
		"TOOL_CALL_START", "TOOL_CALL_ARGS", "TOOL_CALL_END", "TOOL_CALL_RESULT", "CUSTOM"} {
		if count[typ] == 0 {
			t.Errorf("no %s event", typ)
		}
	}
	if runs := count["RUN_STARTED"]; runs < 3 || runs != count["RUN_FINISHED"] || runs != count["STATE_SNAPSHOT"] {
		t.Errorf("%d runs started, %d finished, %d state snapshots", runs, count["RUN_FINISHED"], count["STATE_SNAPSHOT"])
	}
	if d := count["STATE_DELTA"]; d < n/60 || d > n/40 || maxGap > 60 {
		t.Errorf("%d state deltas in %d events, longest gap %d: want one about every 50", d, n, maxGap)
	}
	calls := count["TOOL_CALL_START"]
	if calls != count["TOOL_CALL_END"] || calls != count["TOOL_CALL_RESULT"] {
		t.Errorf("%d tool calls started, %d ended, %d results", calls, count["TOOL_CALL_END"], count["TOOL_CALL_RESULT"])
	}
	if images*100 < calls*2 || images*100 > calls*9 {
		t.Errorf("%d screenshots in %d tool results: want about 5%%", images, calls)
	}
	if len(categories) != 10 {
		t.Errorf("tool categories seen: %v, want all ten", categories)
	}
	if deltas := count["TEXT_MESSAGE_CONTENT"] + count["REASONING_MESSAGE_CONTENT"] + count["TOOL_CALL_ARGS"]; deltas*100 < n*60 {
		t.Errorf("%d streaming deltas in %d events: a real log is mostly deltas", deltas, n)
	}
}

func TestArray(t *testing.T) {
	log := loggen.Generate(2_000, 9)
	var events []json.RawMessage
	arr := loggen.GenerateArray(2_000, 9)
	if err := json.Unmarshal(arr, &events); err != nil {
		t.Fatalf("array form is not a JSON array: %v", err)
	}
	want := lines(log)
	if len(events) != len(want) {
		t.Fatalf("array has %d events, JSON Lines %d", len(events), len(want))
	}
	for i := range want {
		if !bytes.Equal(events[i], want[i]) {
			t.Fatalf("event %d differs: %s vs %s", i, events[i], want[i])
		}
	}
	if !strings.HasPrefix(string(arr), "[\n{") {
		t.Errorf("array form starts %q", arr[:4])
	}
}

// TestGenerateBytes pins Generate's output: other packages' tests and
// golden files are built on these logs, so a change to the generator must
// leave them byte for byte as they were (or update those on purpose).
func TestGenerateBytes(t *testing.T) {
	for _, c := range []struct {
		n      int
		seed   int64
		sha256 string
	}{
		{100_000, 1, "a2fbc1b0bd0a110274168fc1966d9774ef0cc2639a14d672b1ecb6c4a8cecf6a"},
		{40_000, 5, "cd79e65fb64b54b2dd0ec61e618591f17aa10aa8afe796f0b4f96e106e1e444c"},
		{3_000, 42, "438e14d8ae1bd6df16181d900462f73aa934767015474fb6eaf4ef239ae3e26b"},
		{200, 1, "324a6356af04aefbaef0bf8d41d26fc41389db352ef06da278d8a5aa3f7a6a13"},
	} {
		if got := fmt.Sprintf("%x", sha256.Sum256(loggen.Generate(c.n, c.seed))); got != c.sha256 {
			t.Errorf("Generate(%d, %d) has sha256 %s, want %s", c.n, c.seed, got, c.sha256)
		}
	}
}

// Package hostile writes the inputs that once made agentwatch slow or
// unresponsive: one enormous message, one enormous command output, very
// many tool calls, a tool call whose arguments stream a token at a time,
// and very many state patches. Tests, benchmarks and the smoke script
// generate them here instead of keeping big files.
package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
)

// Kinds names the inputs Write makes, for help texts.
var Kinds = []string{"message", "output", "tool-calls", "arg-deltas", "state-deltas"}

// Write writes the input of the given kind as JSON Lines: for "message" and
// "output", n is the size of the text in bytes; for the others, n is how
// many tool calls, argument deltas or state patches it holds.
func Write(w io.Writer, kind string, n int) error {
	b := &writer{w: w}
	b.ev(`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`)
	switch kind {
	case "message":
		b.ev(`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`)
		b.ev(fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":%s}`, quote(Prose(n, 1))))
		b.ev(`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`)
	case "output":
		b.call("c1", `{"command":"make all"}`, 1)
		b.ev(fmt.Sprintf(`{"type":"TOOL_CALL_RESULT","messageId":"r-c1","toolCallId":"c1","content":%s}`, quote(Lines(n))))
	case "tool-calls":
		b.calls(0, n)
	case "arg-deltas":
		b.ev(`{"type":"TOOL_CALL_START","toolCallId":"c1","toolCallName":"write_file"}`)
		b.ev(`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"{\"text\":\""}`)
		for range n {
			b.ev(`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"tok "}`)
		}
		b.ev(`{"type":"TOOL_CALL_ARGS","toolCallId":"c1","delta":"\"}"}`)
		b.ev(`{"type":"TOOL_CALL_END","toolCallId":"c1"}`)
	case "state-deltas":
		b.ev(`{"type":"STATE_SNAPSHOT","snapshot":{"items":[]}}`)
		for i := range n {
			b.ev(fmt.Sprintf(`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/items/-","value":%d}]}`, i))
		}
	default:
		return fmt.Errorf("unknown kind %q (want one of %s)", kind, strings.Join(Kinds, ", "))
	}
	b.ev(`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`)
	return b.err
}

// ToolCalls writes run of thread t1 holding n finished tool calls as
// "tool-calls" has them, numbered from first: runs with distinct numbers
// appended one after another make one thread that keeps growing.
func ToolCalls(w io.Writer, run string, first, n int) error {
	b := &writer{w: w}
	b.ev(fmt.Sprintf(`{"type":"RUN_STARTED","threadId":"t1","runId":%q}`, run))
	b.calls(first, n)
	b.ev(fmt.Sprintf(`{"type":"RUN_FINISHED","threadId":"t1","runId":%q}`, run))
	return b.err
}

// calls writes n whole tool calls with their results, numbered from first.
func (b *writer) calls(first, n int) {
	for i := first; i < first+n; i++ {
		id := fmt.Sprintf("c%d", i)
		b.call(id, fmt.Sprintf(`{"command":"echo %d"}`, i), 1)
		b.ev(fmt.Sprintf(`{"type":"TOOL_CALL_RESULT","messageId":"r-%s","toolCallId":%q,"content":"%d"}`, id, id, i))
	}
}

// writer writes events one per line and keeps the first error.
type writer struct {
	w   io.Writer
	err error
}

func (b *writer) ev(line string) {
	if b.err == nil {
		_, b.err = io.WriteString(b.w, line+"\n")
	}
}

// call writes a whole tool call with its arguments in parts deltas.
func (b *writer) call(id, args string, parts int) {
	b.ev(fmt.Sprintf(`{"type":"TOOL_CALL_START","toolCallId":%q,"toolCallName":"bash","metadata":{"category":"execute"}}`, id))
	step := max(len(args)/parts, 1)
	for i := 0; i < len(args); i += step {
		b.ev(fmt.Sprintf(`{"type":"TOOL_CALL_ARGS","toolCallId":%q,"delta":%s}`, id, quote(args[i:min(i+step, len(args))])))
	}
	b.ev(fmt.Sprintf(`{"type":"TOOL_CALL_END","toolCallId":%q}`, id))
}

// Prose is about n bytes of markdown paragraphs, each starting with its
// number ("para12"), with a heading now and then.
func Prose(n int, seed uint64) string {
	words := strings.Fields("the agent reads a file runs the tests edits the build and checks again")
	rng := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	b.Grow(n + 256)
	for p := 0; b.Len() < n; p++ {
		if rng.IntN(10) == 0 {
			fmt.Fprintf(&b, "## part %d\n\n", p)
		}
		fmt.Fprintf(&b, "para%d", p)
		for range 10 + rng.IntN(150) {
			b.WriteByte(' ')
			b.WriteString(words[rng.IntN(len(words))])
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

// Lines is about n bytes of numbered output lines.
func Lines(n int) string {
	var b strings.Builder
	b.Grow(n + 128)
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "line %d: compiling module %d of the build\n", i, i%977)
	}
	return b.String()
}

func quote(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(buf.String(), "\n")
}

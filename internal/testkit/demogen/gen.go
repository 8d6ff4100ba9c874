package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"unicode/utf8"
)

// obj is a JSON object whose members keep the order they were written in,
// so that every event starts with its type, as producers write them.
type obj []member

type member struct {
	key   string
	value any
}

// pairs makes an obj of alternating keys and values.
func pairs(kv ...any) obj {
	o := make(obj, 0, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		o = append(o, member{kv[i].(string), kv[i+1]})
	}
	return o
}

// MarshalJSON writes the members in order.
func (o obj) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, marshal(m.key)...)
		b = append(b, ':')
		b = append(b, marshal(m.value)...)
	}
	return append(b, '}'), nil
}

// marshal encodes v as JavaScript producers do: no HTML escaping. The
// demo's values always encode, so an error is a bug in the generator.
func marshal(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'})
}

// gen writes the recording: events with timestamps that advance as a real
// agent's would.
type gen struct {
	rng    *rand.Rand
	out    bytes.Buffer
	now    int64 // timestamp of the last event, ms since the epoch
	events int
	thread string
	state  planState
}

// emit writes one event of type typ with the given members and the current time.
func (g *gen) emit(typ string, kv ...any) {
	ev := append(obj{{"type", typ}}, pairs(kv...)...)
	ev = append(ev, member{"timestamp", g.now})
	g.out.Write(marshal(ev))
	g.out.WriteByte('\n')
	g.events++
}

// wait lets between lo and hi milliseconds pass.
func (g *gen) wait(lo, hi int) { g.now += int64(lo + g.rng.IntN(hi-lo+1)) }

// pause is the model thinking before it starts its next output.
func (g *gen) pause() { g.wait(1200, 3600) }

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// id returns prefix followed by n random base62 characters, the shape of
// Anthropic message and tool-use ids.
func (g *gen) id(prefix string, n int) string {
	b := []byte(prefix)
	for range n {
		b = append(b, base62[g.rng.IntN(len(base62))])
	}
	return string(b)
}

func (g *gen) msgID() string  { return g.id("msg_01", 22) }
func (g *gen) toolID() string { return g.id("toolu_01", 22) }

// uuid returns a random version 4 UUID.
func (g *gen) uuid() string {
	const hex = "0123456789abcdef"
	var b []byte
	for i := range 32 {
		switch i {
		case 8, 12, 16, 20:
			b = append(b, '-')
		}
		c := hex[g.rng.IntN(16)]
		switch i {
		case 12:
			c = '4'
		case 16:
			c = hex[8+g.rng.IntN(4)]
		}
		b = append(b, c)
	}
	return string(b)
}

// tokens splits text into the pieces a model streams: a word or two with
// their spaces, long words cut, never an empty piece or a split rune.
func (g *gen) tokens(text string, most int) []string {
	var words []string
	for len(text) > 0 {
		end := strings.IndexAny(text, " \n")
		if end < 0 {
			end = len(text)
		}
		for end < len(text) && (text[end] == ' ' || text[end] == '\n') {
			end++
		}
		words = append(words, text[:end])
		text = text[end:]
	}
	var out []string
	cur := ""
	for _, w := range words {
		for len(w) > most {
			cut := runeCut(w, 4+g.rng.IntN(most-3))
			if cur != "" {
				out = append(out, cur)
				cur = ""
			}
			out = append(out, w[:cut])
			w = w[cut:]
		}
		if cur != "" && (len(cur)+len(w) > most || g.rng.IntN(3) == 0) {
			out = append(out, cur)
			cur = ""
		}
		cur += w
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// chunks splits s into pieces of lo to hi bytes at rune boundaries.
func (g *gen) chunks(s string, lo, hi int) []string {
	var out []string
	for len(s) > 0 {
		n := runeCut(s, lo+g.rng.IntN(hi-lo+1))
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// runeCut returns n, or less to end at a rune boundary, or len(s).
func runeCut(s string, n int) int {
	if n >= len(s) {
		return len(s)
	}
	for n > 1 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// say streams an assistant message and returns its id.
func (g *gen) say(text string) string {
	id := g.msgID()
	g.emit("TEXT_MESSAGE_START", "messageId", id, "role", "assistant")
	for _, d := range g.tokens(text, 14) {
		g.wait(20, 80)
		g.emit("TEXT_MESSAGE_CONTENT", "messageId", id, "delta", d)
	}
	g.wait(10, 40)
	g.emit("TEXT_MESSAGE_END", "messageId", id)
	return id
}

// reason streams a reasoning span with one reasoning message.
func (g *gen) reason(text string) {
	span, id := g.id("rs_", 24), g.msgID()
	g.emit("REASONING_START", "messageId", span)
	g.wait(5, 20)
	g.emit("REASONING_MESSAGE_START", "messageId", id, "role", "reasoning")
	for _, d := range g.tokens(text, 12) {
		g.wait(20, 60)
		g.emit("REASONING_MESSAGE_CONTENT", "messageId", id, "delta", d)
	}
	g.wait(5, 20)
	g.emit("REASONING_MESSAGE_END", "messageId", id)
	g.wait(2, 10)
	g.emit("REASONING_END", "messageId", span)
}

// call is one tool call of the story: what the agent asks for and what the
// tool gives back after running for ms milliseconds.
type call struct {
	name     string
	category string
	location string
	args     obj
	ms       int
	text     string // the result, or the text part beside a screenshot
	shot     []byte // a PNG screenshot, sent as an image part
	exit     int    // exit code of an execute call

	id string
}

// tools makes the calls of one model turn under the assistant message
// parent (a new one when parent is ""): the calls' arguments stream one
// after the other, then each tool runs and its result arrives.
func (g *gen) tools(parent string, calls ...*call) {
	if parent == "" {
		parent = g.msgID()
	}
	for i, c := range calls {
		if i > 0 {
			g.wait(30, 120)
		}
		c.id = g.toolID()
		g.emit("TOOL_CALL_START", "toolCallId", c.id, "toolCallName", c.name, "parentMessageId", parent,
			"metadata", obj{{"category", c.category}, {"location", c.location}})
		for _, d := range g.chunks(string(marshal(c.args)), 8, 36) {
			g.wait(15, 60)
			g.emit("TOOL_CALL_ARGS", "toolCallId", c.id, "delta", d)
		}
		g.wait(5, 30)
		g.emit("TOOL_CALL_END", "toolCallId", c.id)
	}
	for _, c := range calls {
		g.now += int64(c.ms)
		var content any = c.text
		if c.shot != nil {
			content = []any{
				obj{{"type", "text"}, {"text", c.text}},
				obj{{"type", "image"}, {"source", obj{{"type", "data"}, {"mimeType", "image/png"},
					{"value", base64.StdEncoding.EncodeToString(c.shot)}}}},
			}
		}
		kv := []any{"messageId", g.uuid(), "toolCallId", c.id, "content", content, "role", "tool"}
		if c.category == "execute" {
			kv = append(kv, "metadata", obj{{"exitCode", c.exit}})
		}
		g.emit("TOOL_CALL_RESULT", kv...)
	}
}

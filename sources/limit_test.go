package sources

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// big is an event of about n bytes whose strings hold brackets, braces and
// escaped quotes, so a scan that does not understand strings gets lost.
func big(n int) string {
	pad := strings.Repeat(`]}[{\"x`, n/7+1)
	return `{"type":"TEXT_MESSAGE_CONTENT","delta":"` + pad + `"}`
}

func TestOversize(t *testing.T) {
	const limit = 64
	b := big(100)
	huge := big(3 * bufferSize) // longer than the read buffer: gathered, then dropped
	tooBigAt := func(in, part, where string) string {
		at := strings.Index(in, part)
		return fmt.Sprintf("!%d %sevent at byte %d is larger than 64 bytes; skipped", at, where, at)
	}
	A, B := `{"type":"A"}`, `{"type":"B"}`
	type tc struct {
		name   string
		format Format
		in     string
		want   func(in string) []string
	}
	cases := []tc{
		{"jsonl", FormatAuto, A + "\n" + b + "\n" + B + "\n",
			func(in string) []string { return []string{A, tooBigAt(in, b, "line 2: "), B} }},
		{"jsonl longer than the buffer", FormatAuto, A + "\n" + huge + "\r\n" + B,
			func(in string) []string { return []string{A, tooBigAt(in, huge, "line 2: "), B} }},
		{"jsonl last line", FormatAuto, A + "\n" + huge,
			func(in string) []string { return []string{A, tooBigAt(in, huge, "line 2: ")} }},
		{"sse", FormatAuto, "data: " + A + "\n\ndata: " + b + "\n\ndata: " + B + "\n\n",
			func(in string) []string {
				return []string{A, tooBigAt(in, "data: "+b, "line 3: "), B}
			}},
		{"sse longer than the buffer", FormatAuto, "data: " + A + "\n\nevent: x\ndata: " + huge + "\nid: 1\n\ndata: " + B + "\n\n",
			func(in string) []string {
				return []string{A, tooBigAt(in, "data: "+huge, "line 4: "), B}
			}},
		{"sse data lines add up", FormatAuto, "data: " + A + "\n\ndata: {\"type\":\"C\",\ndata: \"delta\":\"" + strings.Repeat("x", 60) + "\"}\n\ndata: " + B + "\n\n",
			func(in string) []string {
				return []string{A, tooBigAt(in, "data: {\"type\":\"C\"", "line 3: "), B}
			}},
		{"sse long comment is ignored", FormatAuto, "data: " + A + "\n\n: " + huge + "\n\ndata: " + B + "\n\n",
			func(in string) []string { return []string{A, B} }},
		{"array", FormatAuto, "[" + A + ",\n" + b + ",\n" + B + "]",
			func(in string) []string { return []string{A, tooBigAt(in, b, ""), B} }},
		{"array longer than the buffer", FormatAuto, "[" + A + ",\n" + huge + ",\n" + B + "]",
			func(in string) []string { return []string{A, tooBigAt(in, huge, ""), B} }},
		{"array two in a row", FormatAuto, "[" + b + "," + huge + "," + A + "," + b + "]",
			func(in string) []string {
				last := strings.LastIndex(in, b)
				return []string{tooBigAt(in, b, ""), tooBigAt(in, huge, ""), A,
					fmt.Sprintf("!%d event at byte %d is larger than 64 bytes; skipped", last, last)}
			}},
		{"array last", FormatAuto, "[" + A + ",\n" + huge + "]",
			func(in string) []string { return []string{A, tooBigAt(in, huge, "")} }},
		{"array last without ]", FormatAuto, "[" + A + ",\n" + huge + "\n",
			func(in string) []string { return []string{A, tooBigAt(in, huge, "")} }},
		{"array last cut off", FormatAuto, "[" + A + ",\n" + huge[:len(huge)-5],
			func(in string) []string {
				at := strings.Index(in, huge[:10])
				return []string{A, fmt.Sprintf("!%d event at byte %d: input ends inside an event (the log is still being written or was cut off): %d bytes not read", at, at, len(huge)-5)}
			}},
		{"array long string", FormatAuto, "[" + A + `,"` + strings.Repeat(`\"`, 200) + `",` + B + "]",
			func(in string) []string { return []string{A, tooBigAt(in, `"\"`, ""), B} }},
		{"array long number", FormatAuto, "[" + A + "," + strings.Repeat("7", 200) + " ," + B + "]",
			func(in string) []string { return []string{A, tooBigAt(in, "777", ""), B} }},
		{"array long whitespace before a small event", FormatAuto, "[" + A + "," + strings.Repeat(" ", 200) + B + "," + A + "]",
			func(in string) []string { return []string{A, B, A} }},
		{"array long whitespace before a bad event", FormatAuto, "[" + A + "," + strings.Repeat(" ", 200) + `{"type" 1},` + A + "]",
			func(in string) []string {
				at := strings.Index(in, `{"type" 1}`)
				return []string{A, fmt.Sprintf("!%d event at byte %d: invalid character '1' after object name (expecting ':') at byte %d", at, at, at+8)}
			}},
		{"array long whitespace before ]", FormatAuto, "[" + A + "," + strings.Repeat(" ", 200) + "]",
			func(in string) []string { return []string{A} }},
		{"array long whitespace before the end", FormatAuto, "[" + A + "," + strings.Repeat(" ", 200),
			func(in string) []string { return []string{A} }},
		{"array long whitespace before a non-object", FormatAuto, "[" + A + "," + strings.Repeat(" ", 200) + "42]",
			func(in string) []string {
				at := strings.Index(in, "42")
				return []string{A, fmt.Sprintf("!%d event at byte %d: a JSON number, not an event object raw=42", at, at)}
			}},
		{"array junk after oversize", FormatAuto, "[" + b + " y]",
			func(in string) []string {
				at := strings.Index(in, "y]")
				return []string{tooBigAt(in, b, ""), fmt.Sprintf("!%d event at byte %d: invalid character 'y' at start of value at byte %d", at, at, at)}
			}},
		{"events object", FormatAuto, "{\n\"events\": [" + A + ",\n" + huge + ",\n" + B + "], \"x\": 1}",
			func(in string) []string { return []string{A, tooBigAt(in, huge, ""), B} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			recs, _ := read(t, c.in, c.format, limit)
			checkSeq(t, recs)
			var got []string
			for _, rec := range recs {
				got = append(got, show(rec))
			}
			want := c.want(c.in)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("records:\n got  %.300q\n want %.300q", got, want)
			}
		})
	}
}

// TestLimitEdge checks that an event of exactly the limit is read and one
// byte more is not, in every format.
func TestLimitEdge(t *testing.T) {
	ev := big(100)
	n := int64(len(ev))
	for _, tc := range []struct {
		name, in string
	}{
		{"jsonl", ev + "\n"},
		{"sse", "data: " + ev + "\n\n"},
		{"array", "[" + ev + "]"},
	} {
		for _, limit := range []int64{n, n - 1} {
			recs, _ := read(t, tc.in, FormatAuto, limit)
			if len(recs) != 1 {
				t.Fatalf("%s, limit %d: %d records", tc.name, limit, len(recs))
			}
			gotBig := strings.Contains(show(recs[0]), "larger than")
			if gotBig != (limit < n) {
				t.Errorf("%s: event of %d bytes with limit %d: %s", tc.name, n, limit, show(recs[0]))
			}
		}
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{64 << 20: "64 MiB", 512 << 10: "512 KiB", 100: "100 bytes", 1: "1 byte", 1536: "1536 bytes", 3 << 20: "3 MiB"} {
		if got := size(n); got != want {
			t.Errorf("size(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestBigEventsKept reads events bigger than the read buffer and the
// decoder's usual buffer, under the default limit, in every format: they
// are read whole, and what follows them too.
func TestBigEventsKept(t *testing.T) {
	ev := big(2 << 20)
	A := `{"type":"A"}`
	for _, in := range []string{
		"[" + A + ",\n" + ev + " ,\n" + A + "," + ev + "]",
		"{\"x\":1,\n\"events\":[" + A + ",\n" + ev + " ,\n" + A + "," + ev + "]}",
		A + "\n" + ev + "\n" + A + "\n" + ev,
		"data: " + A + "\n\ndata: " + ev + "\n\ndata: " + A + "\n\ndata: " + ev,
	} {
		recs, r := read(t, in, FormatAuto, 0)
		checkSeq(t, recs)
		if len(recs) != 4 {
			t.Fatalf("%v: %d records", r.Format(), len(recs))
		}
		for i, want := range []string{A, ev, A, ev} {
			if string(recs[i].Raw) != want {
				t.Errorf("%v: record %d is %.60s", r.Format(), i, show(recs[i]))
			}
		}
	}
}

// filler is what hugeReader streams between head and tail.
var filler = bytes.Repeat([]byte{'x'}, 64<<10)

// hugeReader streams head, n filler bytes, then tail, without holding them.
type hugeReader struct {
	head, tail []byte
	n          int64
}

func (h *hugeReader) Read(p []byte) (int, error) {
	switch {
	case len(h.head) > 0:
		c := copy(p, h.head)
		h.head = h.head[c:]
		return c, nil
	case h.n > 0:
		c := copy(p[:min(int64(len(p)), h.n)], filler)
		h.n -= int64(c)
		return c, nil
	case len(h.tail) > 0:
		c := copy(p, h.tail)
		h.tail = h.tail[c:]
		return c, nil
	}
	return 0, io.EOF
}

// TestOversizeNotHeld streams a 48 MiB event through a Reader limited to
// 1 MiB and checks the Reader skipped it without allocating anywhere near
// its size, then read the event after it.
func TestOversizeNotHeld(t *testing.T) {
	const n = 48 << 20
	A := `{"type":"A"}`
	for _, tc := range []struct{ name, head, tail string }{
		{"jsonl", A + "\n" + `{"type":"B","d":"`, `"}` + "\n" + A + "\n"},
		{"sse", "data: " + A + "\n\n" + `data: {"type":"B","d":"`, `"}` + "\n\ndata: " + A + "\n\n"},
		{"array", "[" + A + `,{"type":"B","d":"`, `"},` + A + "]"},
		{"events object", "{\"events\":\n[" + A + `,{"type":"B","d":"`, `"},` + A + "]}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := NewReader(&hugeReader{head: []byte(tc.head), tail: []byte(tc.tail), n: n})
			r.MaxEventBytes = 1 << 20
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			var got []string
			for {
				rec, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, show(rec))
			}
			runtime.ReadMemStats(&after)
			if len(got) != 3 || got[0] != A || got[2] != A || !strings.Contains(got[1], "is larger than 1 MiB; skipped") {
				t.Fatalf("records %.200q", got)
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
				t.Errorf("allocated %d MiB to skip a %d MiB event", alloc>>20, n>>20)
			}
		})
	}
}

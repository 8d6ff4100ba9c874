package sources

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// read reads every record of in with format f and a size limit (0: default),
// failing the test on an error other than io.EOF.
func read(t *testing.T, in string, f Format, limit int64) ([]model.Record, *Reader) {
	t.Helper()
	r := NewReaderFormat(strings.NewReader(in), f)
	if limit > 0 {
		r.MaxEventBytes = limit
		r.slack = 8
	}
	var recs []model.Record
	for i := 0; ; i++ {
		if i > len(in)+2 {
			t.Fatalf("more records than input bytes: reader does not advance")
		}
		rec, err := r.Next()
		if err == io.EOF {
			return recs, r
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		recs = append(recs, rec)
	}
}

// show writes a record the way the tables expect it: the raw JSON of an
// event, or "!OFFSET REASON" for input the reader found unreadable (with
// " raw=RAW" when the bytes were valid JSON). What agui.Decode makes of an
// object is not this package's business: its Unreadables (offset -1, as
// it cannot know one) show as the raw JSON.
func show(rec model.Record) string {
	if u, ok := rec.Event.(*model.Unreadable); ok && u.Offset >= 0 {
		s := fmt.Sprintf("!%d %s", u.Offset, u.Reason)
		if rec.Raw != nil {
			s += " raw=" + string(rec.Raw)
		}
		return s
	}
	return string(rec.Raw)
}

func checkSeq(t *testing.T, recs []model.Record) {
	t.Helper()
	for i, rec := range recs {
		if rec.Seq != uint64(i+1) {
			t.Errorf("record %d has Seq %d", i, rec.Seq)
		}
		if rec.Proto != model.ProtoAGUI {
			t.Errorf("record %d has Proto %q", i, rec.Proto)
		}
		if rec.Event == nil {
			t.Errorf("record %d has no Event", i)
		}
	}
}

type readCase struct {
	name   string
	format Format // forced; FormatAuto detects
	limit  int64  // MaxEventBytes; 0 for the default
	in     string
	want   []string
	detect Format // what Format() reports afterwards
}

func runCases(t *testing.T, cases []readCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			recs, r := read(t, tc.in, tc.format, tc.limit)
			checkSeq(t, recs)
			var got []string
			for _, rec := range recs {
				got = append(got, show(rec))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("records:\n got  %q\n want %q", got, tc.want)
			}
			if r.Format() != tc.detect {
				t.Errorf("Format() = %v, want %v", r.Format(), tc.detect)
			}
		})
	}
}

const bom = "\xEF\xBB\xBF"

func TestJSONArray(t *testing.T) {
	runCases(t, []readCase{
		{name: "simple", in: `[{"type":"A"},{"type":"B"}]`,
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatJSONArray},
		{name: "pretty keeps bytes", in: "[\n  {\n    \"type\": \"A\"\n  }\n]\n",
			want: []string{"{\n    \"type\": \"A\"\n  }"}, detect: FormatJSONArray},
		{name: "BOM", in: bom + "[\r\n {\"type\":\"A\"}\r\n]",
			want: []string{`{"type":"A"}`}, detect: FormatJSONArray},
		{name: "empty array", in: "[]", detect: FormatJSONArray},
		{name: "only bracket", in: "[", detect: FormatJSONArray},
		{name: "missing ]", in: "[{\"type\":\"A\"},\n{\"type\":\"B\"}\n",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatJSONArray},
		{name: "missing ] after comma", in: "[{\"type\":\"A\"},\n",
			want: []string{`{"type":"A"}`}, detect: FormatJSONArray},
		{name: "trailing comma", in: `[{"type":"A"},]`,
			want: []string{`{"type":"A"}`}, detect: FormatJSONArray},
		{name: "cut-off last", in: `[{"type":"A"},{"type":"B","delta":"hel`,
			want: []string{`{"type":"A"}`,
				`!14 event at byte 14: input ends inside an event (the log is still being written or was cut off): 24 bytes not read`},
			detect: FormatJSONArray},
		{name: "broken middle ends the stream", in: `[{"type":"A"}, x, {"type":"B"}]`,
			want: []string{`{"type":"A"}`,
				"!15 event at byte 15: invalid character 'x' at start of value at byte 15"},
			detect: FormatJSONArray},
		{name: "missing comma", in: `[{"type":"A"} {"type":"B"}]`,
			want: []string{`{"type":"A"}`,
				"!14 event at byte 14: invalid character '{' after array element (expecting ',' or ']') at byte 14"},
			detect: FormatJSONArray},
		{name: "non-objects", in: `[1, "x", [1], null, true, {"type":"A"}]`,
			want: []string{
				"!1 event at byte 1: a JSON number, not an event object raw=1",
				`!4 event at byte 4: a JSON string, not an event object raw="x"`,
				"!9 event at byte 9: a JSON array, not an event object raw=[1]",
				"!14 event at byte 14: a JSON null, not an event object raw=null",
				"!20 event at byte 20: a JSON boolean, not an event object raw=true",
				`{"type":"A"}`},
			detect: FormatJSONArray},
		{name: "data after ]", in: `[{"type":"A"}] x`,
			want:   []string{`{"type":"A"}`, "!15 byte 15: data after the closing ] of the event array; not read"},
			detect: FormatJSONArray},
		{name: "second array after ]", in: "[{\"type\":\"A\"}]\n[{\"type\":\"B\"}]",
			want:   []string{`{"type":"A"}`, "!15 byte 15: data after the closing ] of the event array; not read"},
			detect: FormatJSONArray},
		{name: "forced on an object", format: FormatJSONArray, in: `{"type":"A"}`,
			want:   []string{"!0 byte 0: expected a JSON array of events, found a JSON object"},
			detect: FormatJSONArray},
		{name: "forced on whitespace", format: FormatJSONArray, in: " \n\t", detect: FormatJSONArray},
		{name: "duplicate names and bad UTF-8 accepted", in: "[{\"type\":\"A\",\"type\":\"B\",\"d\":\"\xff\"}]",
			want: []string{"{\"type\":\"A\",\"type\":\"B\",\"d\":\"\xff\"}"}, detect: FormatJSONArray},
	})
}

func TestEventsObject(t *testing.T) {
	runCases(t, []readCase{
		{name: "members before and after", in: "{\n \"version\": 1,\n \"meta\": {\"tags\": [\"a\", {\"events\": 2}]},\n \"events\": [\n  {\"type\":\"A\"},\n  {\"type\":\"B\"}\n ],\n \"after\": [1, 2]\n}\n",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatEventsObject},
		{name: "one line", in: `{"events":[{"type":"A"}],"threadId":"t"}`,
			want: []string{`{"type":"A"}`}, detect: FormatEventsObject},
		{name: "BOM", in: bom + "{\n\"events\":[{\"type\":\"A\"}]}",
			want: []string{`{"type":"A"}`}, detect: FormatEventsObject},
		{name: "broken after the array is not read", in: "{\n\"events\":[{\"type\":\"A\"}], garbage",
			want: []string{`{"type":"A"}`}, detect: FormatEventsObject},
		{name: "no events member", in: "{\n \"simple\": [{\"type\":\"A\"}]\n}",
			want:   []string{`!0 byte 0: the object has no "events" member, so it holds no AG-UI events`},
			detect: FormatEventsObject},
		{name: "events not an array", in: "{\n \"events\": {\"type\":\"A\"}\n}",
			want:   []string{`!13 byte 13: the "events" member is a JSON object, not an array`},
			detect: FormatEventsObject},
		{name: "cut before the array", in: "{\n \"meta\": {\"a\":",
			want:   []string{`!15 byte 15: input ends before the "events" array`},
			detect: FormatEventsObject},
		{name: "cut-off last", in: "{\"events\":[\n{\"type\":\"A\"},\n{\"type\":\"B\"",
			want: []string{`{"type":"A"}`,
				"!26 event at byte 26: input ends inside an event (the log is still being written or was cut off): 11 bytes not read"},
			detect: FormatEventsObject},
		{name: "missing ] and }", in: "{\"events\":[\n{\"type\":\"A\"},\n",
			want: []string{`{"type":"A"}`}, detect: FormatEventsObject},
		{name: "forced on an array", format: FormatEventsObject, in: `[{"type":"A"}]`,
			want:   []string{`!0 byte 0: expected an object with an "events" array, found a JSON array`},
			detect: FormatEventsObject},
	})
}

func TestJSONL(t *testing.T) {
	runCases(t, []readCase{
		{name: "lines", in: "{\"type\":\"A\"}\n{\"type\":\"B\"}\n",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatJSONL},
		{name: "CRLF, blank lines, padding", in: "\r\n{\"type\":\"A\"}\r\n\r\n  {\"type\":\"B\"} \t\r\n\n",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatJSONL},
		{name: "BOM", in: bom + "{\"type\":\"A\"}\n",
			want: []string{`{"type":"A"}`}, detect: FormatJSONL},
		{name: "garbage in the middle", in: "{\"type\":\"A\"}\nxyz\n{\"type\":\"B\"}\n{\"type\":\"C\"} junk\n{\"type\":\"D\"}\n",
			want: []string{`{"type":"A"}`,
				"!13 line 2: invalid character 'x' at start of value (column 1)",
				`{"type":"B"}`,
				"!30 line 4: invalid character 'j' at start of value (column 14)",
				`{"type":"D"}`},
			detect: FormatJSONL},
		{name: "line ends early", in: "{\"type\":\"A\"}\n{\"type\":\"B\"\n{\"type\":\"C\"}\n",
			want: []string{`{"type":"A"}`, "!13 line 2: the JSON value ends early", `{"type":"C"}`}, detect: FormatJSONL},
		{name: "pretty-printed object is not JSONL", in: "{\"type\":\"A\"\n}\n",
			want: []string{`!0 byte 0: the object has no "events" member, so it holds no AG-UI events`}, detect: FormatEventsObject},
		{name: "partial last line complete", in: "{\"type\":\"A\"}\n{\"type\":\"B\"}",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatJSONL},
		{name: "partial last line cut off", in: "{\"type\":\"A\"}\n{\"type\":\"B\",\"de",
			want: []string{`{"type":"A"}`,
				"!13 line 2: input ends inside an event (the log is still being written or was cut off): 15 bytes not read"},
			detect: FormatJSONL},
		{name: "non-objects", in: "42\n\"x\"\n[1]\n{\"type\":\"A\"}\n",
			want: []string{
				"!0 line 1: a JSON number, not an event object raw=42",
				`!3 line 2: a JSON string, not an event object raw="x"`,
				"!7 line 3: a JSON array, not an event object raw=[1]",
				`{"type":"A"}`},
			detect: FormatJSONL},
		{name: "leading blank lines count", in: "\n\n\nnope\n",
			want: []string{"!3 line 4: invalid character 'o' in literal null (expecting 'u') (column 2)"}, detect: FormatJSONL},
		{name: "first line without type is still JSONL", in: "{\"a\":1}\n{\"type\":\"A\"}\n",
			want: []string{`{"a":1}`, `{"type":"A"}`}, detect: FormatJSONL},
		{name: "first line broken is JSONL", in: "{\"type\" 1}\n{\"type\":\"A\"}\n",
			want:   []string{"!0 line 1: invalid character '1' after object name (expecting ':') (column 9)", `{"type":"A"}`},
			detect: FormatJSONL},
		{name: "events line with a type is JSONL", in: "{\"type\":\"X\",\"events\":[]}\n",
			want: []string{`{"type":"X","events":[]}`}, detect: FormatJSONL},
		{name: "forced on an array", format: FormatJSONL, in: "[{\"type\":\"A\"},\n{\"type\":\"B\"}]\n",
			want: []string{
				"!0 line 1: the JSON value ends early",
				"!15 line 2: invalid character ']' at start of value (column 13)"},
			detect: FormatJSONL},
	})
}

func TestSSE(t *testing.T) {
	runCases(t, []readCase{
		{name: "frames", in: "data: {\"type\":\"A\"}\n\ndata: {\"type\":\"B\"}\n\n",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatSSE},
		{name: "other fields and comments", in: ": hello\nevent: message\nid: 1\nretry: 10\ndata: {\"type\":\"A\"}\n\nid: 2\n\n: keepalive\n\n",
			want: []string{`{"type":"A"}`}, detect: FormatSSE},
		{name: "starts with event:", in: "event: x\ndata:{\"type\":\"A\"}\n\n",
			want: []string{`{"type":"A"}`}, detect: FormatSSE},
		{name: "starts with id:", in: "id: 7\ndata:{\"type\":\"A\"}\n\n",
			want: []string{`{"type":"A"}`}, detect: FormatSSE},
		{name: "no space and two spaces", in: "data:{\"type\":\"A\"}\n\ndata:  {\"type\":\"B\"}\n\n",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatSSE},
		{name: "CRLF", in: "data: {\"type\":\"A\"}\r\n\r\ndata: {\"type\":\"B\"}\r\n\r\n",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatSSE},
		{name: "multi-line data", in: "data: {\"type\":\"A\",\ndata: \"delta\":\"x\"}\n\n",
			want: []string{"{\"type\":\"A\",\n\"delta\":\"x\"}"}, detect: FormatSSE},
		{name: "BOM", in: bom + "data: {\"type\":\"A\"}\n\n",
			want: []string{`{"type":"A"}`}, detect: FormatSSE},
		{name: "last frame without blank line", in: "data: {\"type\":\"A\"}\n\ndata: {\"type\":\"B\"}\n",
			want: []string{`{"type":"A"}`, `{"type":"B"}`}, detect: FormatSSE},
		{name: "last frame without newline", in: "data: {\"type\":\"A\"}",
			want: []string{`{"type":"A"}`}, detect: FormatSSE},
		{name: "last frame cut off", in: "data: {\"type\":\"A\"}\n\ndata: {\"type\":\"B\",\n",
			want: []string{`{"type":"A"}`,
				"!20 line 3: input ends inside an event (the log is still being written or was cut off): 19 bytes not read"},
			detect: FormatSSE},
		{name: "bad frame then good", in: "data: nope\n\ndata: 42\n\ndata: {\"type\":\"A\"}\n\n",
			want: []string{
				"!0 line 1: invalid character 'o' in literal null (expecting 'u')",
				"!12 line 3: a JSON number, not an event object raw=42",
				`{"type":"A"}`},
			detect: FormatSSE},
		{name: "frame closed early", in: "data: {\"type\":\n\ndata: {\"type\":\"A\"}\n\n",
			want: []string{"!0 line 1: the JSON value ends early", `{"type":"A"}`}, detect: FormatSSE},
		{name: "empty data skipped", in: "data:\n\ndata: \n\ndata: {\"type\":\"A\"}\n\n",
			want: []string{`{"type":"A"}`}, detect: FormatSSE},
		{name: "forced on JSONL reads nothing", format: FormatSSE, in: "{\"type\":\"A\"}\n",
			detect: FormatSSE},
	})
}

func TestEmpty(t *testing.T) {
	for _, in := range []string{"", " ", "\n\r\n\t ", bom, bom + "\n"} {
		for _, f := range []Format{FormatAuto, FormatJSONArray, FormatEventsObject, FormatJSONL, FormatSSE} {
			recs, r := read(t, in, f, 0)
			if len(recs) != 0 {
				t.Errorf("%q as %v: %d records, want none", in, f, len(recs))
			}
			if r.Format() != f {
				t.Errorf("%q as %v: Format() = %v", in, f, r.Format())
			}
			if _, err := r.Next(); err != io.EOF {
				t.Errorf("%q as %v: Next after the end = %v, want io.EOF", in, f, err)
			}
		}
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Format
	}{
		{"[", FormatJSONArray},
		{"  \n [{}]", FormatJSONArray},
		{bom + "[]", FormatJSONArray},
		{"{\n", FormatEventsObject},
		{"{\"events\": [\n", FormatEventsObject},
		{"{\"events\": []}", FormatEventsObject},
		{"{\"type\":\"A\"}", FormatJSONL},
		{"{\"type\":\"A\"}\n", FormatJSONL},
		{"{\"events\": [], \"type\": \"A\"}\n", FormatJSONL},
		{"{\"events\": 1}\n", FormatJSONL},
		{"data: x", FormatSSE},
		{"data:x", FormatSSE},
		{"event: x\n", FormatSSE},
		{"id: 1\n", FormatSSE},
		{"retry: 1\n", FormatSSE},
		{": comment\n", FormatSSE},
		{"dat", FormatJSONL},
		{"42\n", FormatJSONL},
		{"\"x\"", FormatJSONL},
		{"garbage", FormatJSONL},
		// A first line longer than the read buffer: the member names decide.
		{`{"events":[{"type":"A","d":"` + strings.Repeat("x", bufferSize) + "\"}]}\n", FormatEventsObject},
		{`{"type":"A","d":"` + strings.Repeat("x", bufferSize) + "\"}\n", FormatJSONL},
		{`{"d":"` + strings.Repeat("x", bufferSize) + "\",\"events\":[]}\n", FormatJSONL},
	} {
		r := NewReader(strings.NewReader(tc.in))
		r.Next()
		if got := r.Format(); got != tc.want {
			t.Errorf("%.40q: Format() = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func TestFormatString(t *testing.T) {
	for f, want := range map[Format]string{FormatAuto: "auto", FormatJSONArray: "json-array",
		FormatEventsObject: "events-object", FormatJSONL: "jsonl", FormatSSE: "sse", FormatGemini: "gemini", Format(99): "Format(99)"} {
		if got := f.String(); got != want {
			t.Errorf("Format(%d).String() = %q, want %q", int(f), got, want)
		}
	}
}

// TestRawIsOwned reads more than the read buffer holds and checks every
// Raw afterwards: none may alias a buffer that was reused.
func TestRawIsOwned(t *testing.T) {
	const n = 5000
	var jsonl, array, sse strings.Builder
	array.WriteString("[")
	for i := range n {
		ev := fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"%06d"}`, i)
		jsonl.WriteString(ev + "\n")
		if i > 0 {
			array.WriteString(",")
		}
		array.WriteString(ev)
		sse.WriteString("data: " + ev + "\n\n")
	}
	array.WriteString("]")
	for _, in := range []string{jsonl.String(), array.String(), sse.String()} {
		recs, err := ReadAll(strings.NewReader(in))
		if err != nil || len(recs) != n {
			t.Fatalf("ReadAll: %d records, %v", len(recs), err)
		}
		checkSeq(t, recs)
		for i, rec := range recs {
			want := fmt.Sprintf(`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"%06d"}`, i)
			if string(rec.Raw) != want {
				t.Fatalf("record %d: Raw = %s", i, rec.Raw)
			}
		}
	}
}

// TestReadError checks that an error from the input ends reading with that
// error, after the records before it, in every format.
func TestReadError(t *testing.T) {
	boom := errors.New("disk on fire")
	for _, in := range []string{"[{\"type\":\"A\"},", "{\"events\":[{\"type\":\"A\"},", "{\"type\":\"A\"}\n", "data: {\"type\":\"A\"}\n\n"} {
		r := NewReader(io.MultiReader(strings.NewReader(in), &failingReader{err: boom}))
		rec, err := r.Next()
		if err != nil || string(rec.Raw) != `{"type":"A"}` {
			t.Errorf("%q: first Next = %s, %v", in, rec.Raw, err)
		}
		if _, err := r.Next(); !errors.Is(err, boom) {
			t.Errorf("%q: second Next error = %v, want %v", in, err, boom)
		}
		if _, err := r.Next(); !errors.Is(err, boom) {
			t.Errorf("%q: Next after the error = %v, want it again", in, err)
		}
	}
	if _, err := NewReader(&failingReader{err: boom}).Next(); !errors.Is(err, boom) {
		t.Errorf("error before any byte: %v", err)
	}
}

type failingReader struct{ err error }

func (f *failingReader) Read([]byte) (int, error) { return 0, f.err }

func TestReadAll(t *testing.T) {
	recs, err := ReadAll(strings.NewReader("{\"type\":\"A\"}\nbad\n{\"type\":\"B\"}"))
	if err != nil || len(recs) != 3 {
		t.Fatalf("ReadAll = %d records, %v", len(recs), err)
	}
	checkSeq(t, recs)
	boom := errors.New("boom")
	recs, err = ReadAll(io.MultiReader(strings.NewReader("{\"type\":\"A\"}\n"), &failingReader{err: boom}))
	if !errors.Is(err, boom) || len(recs) != 1 {
		t.Fatalf("ReadAll with a failing input = %d records, %v", len(recs), err)
	}
}

func TestSamples(t *testing.T) {
	const dir = "../testdata/peer/samples/"
	for name, want := range map[string]struct {
		n int
		f Format
	}{
		"full.json":                  {30, FormatJSONArray},
		"dotnet-reasoning.json":      {272, FormatJSONArray},
		"dotnet-parallel-tools.json": {48, FormatJSONArray},
		"legacy-thinking.jsonl":      {10, FormatJSONL},
		"bad-sequence.sse":           {3, FormatSSE},
	} {
		f, err := Open(dir + name)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReader(f)
		n := 0
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if _, bad := rec.Event.(*model.Unreadable); bad {
				t.Errorf("%s: record %d unreadable: %+v", name, rec.Seq, rec.Event)
			}
			n++
		}
		f.Close()
		if n != want.n || r.Format() != want.f {
			t.Errorf("%s: %d records as %v, want %d as %v", name, n, r.Format(), want.n, want.f)
		}
	}
}

func TestOpen(t *testing.T) {
	if _, err := Open("/no/such/log.json"); err == nil || err.Error() != "open /no/such/log.json: no such file or directory" {
		t.Errorf("Open of a missing file: %v", err)
	}
	dir := t.TempDir()
	if _, err := Open(dir); err == nil || !strings.HasPrefix(err.Error(), "open "+dir+": ") {
		t.Errorf("Open of a folder: %v", err)
	}
	rc, err := Open("-")
	if err != nil {
		t.Fatalf("Open(-): %v", err)
	}
	if err := rc.Close(); err != nil {
		t.Errorf("closing stdin's reader: %v", err)
	}
	_ = bytes.MinRead
}

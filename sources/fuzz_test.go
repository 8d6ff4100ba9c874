package sources

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"testing"
	"testing/iotest"

	"github.com/agentwatch/agentwatch/model"
)

// seeds are real-looking logs in every format, and their broken cousins.
var seeds = []string{
	"[{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"timestamp\":1760000000000},\n {\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"},\n {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"Hi \\\"there\\\" ]}\"},\n {\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"},\n {\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}]\n",
	"\xEF\xBB\xBF[\r\n  {\r\n    \"type\": \"RUN_STARTED\",\r\n    \"threadId\": \"thread_Id_1\",\r\n    \"runId\": \"run_Id_1\"\r\n  },\r\n  {\r\n    \"type\": \"REASONING_START\",\r\n    \"messageId\": \"msg_Id_3\"\r\n  }\r\n]",
	"[{\"type\":\"RUN_STARTED\"},\n{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c\",\"delta\":\"{\\\"a\\\":",
	"[{\"type\":\"RUN_STARTED\"}, 42, \"x\", [1], null, {\"type\":\"RUN_FINISHED\"},",
	"{\n  \"threadId\": \"t\",\n  \"meta\": {\"events\": 3},\n  \"events\": [\n    {\"type\": \"RUN_STARTED\"},\n    {\"type\": \"STATE_DELTA\", \"delta\": [{\"op\":\"add\",\"path\":\"/a\",\"value\":1}]}\n  ],\n  \"after\": true\n}\n",
	"{\"events\":[{\"type\":\"RUN_STARTED\"},{\"type\":\"RUN_FINISHED\"}]}",
	"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n{\"type\":\"THINKING_START\",\"title\":\"pondering\"}\r\n\r\nnot json\n{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"hi\"}\n42\n{\"type\":\"RUN_FINISHED\"",
	"data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\nevent: message\nid: 2\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\",\ndata: \"messageId\":\"m\",\"delta\":\"x\"}\n\n: keepalive\n\ndata:{\"type\":\"RUN_FINISHED\"}\r\n\r\ndata: {\"type\":",
	": hello\r\nretry: 100\r\n\r\ndata: nope\r\n\r\ndata: [1]\n\n",
	// Hostile text (8-bit CSI and OSC, a bidi override, OSC 52 escaped and
	// raw) and a stream cut inside its second frame.
	"data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"\u009b2J\u009d0;t\u009c\u202egnp.exe \\u001b]52;c;aGk=\\u0007\"}\n\nevent: message\ndata: {\"type\":\"TEXT_MES",
	"\x1b]52;c;aGk=\x07\u009b2J\ndata: {}\n\n",
	"",
	" \n\t",
	// An ACP recording: a message, a line whose message is not JSON
	// ("bad"), a line that is not a recording line, and a cut one.
	"{\"t\":1764500000000,\"dir\":\"recv\",\"msg\":{\"jsonrpc\":\"2.0\",\"method\":\"session/update\",\"params\":{\"sessionId\":\"s\",\"update\":{\"sessionUpdate\":\"agent_message_chunk\",\"content\":{\"type\":\"text\",\"text\":\"hi\"}}}}}\n{\"t\":1764500000010,\"dir\":\"recv\",\"bad\":\"not json\"}\n{\"type\":\"RUN_STARTED\"}\n{\"t\":1764500000020,\"dir\":\"send\",\"msg\":{\"jsonrpc\":\"2.0\",\"id\":1,",
}

// fuzzRead checks the laws every input must keep: no panic, an end, Seq
// from 1 without gaps, Raw valid JSON (an object for events) and copied
// from the input, offsets inside the input, and the same records whatever
// sizes the input arrives in.
func fuzzRead(t *testing.T, data []byte, f Format, limit uint16) {
	got := f
	read := func(in io.Reader) []model.Record {
		r := NewReaderFormat(in, f)
		if limit > 0 {
			r.MaxEventBytes = int64(limit)
			r.slack = int64(limit % 64)
		}
		var recs []model.Record
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("Next: %v (bytes.Reader never fails)", err)
			}
			recs = append(recs, rec)
			if len(recs) > len(data)+1 {
				t.Fatalf("%d records from %d bytes: the reader does not advance", len(recs), len(data))
			}
		}
		if _, err := r.Next(); err != io.EOF {
			t.Fatalf("Next after io.EOF: %v", err)
		}
		got = r.Format()
		return recs
	}
	recs := read(bytes.NewReader(data))
	for i, rec := range recs {
		if rec.Seq != uint64(i+1) {
			t.Fatalf("record %d: Seq %d", i, rec.Seq)
		}
		proto := model.ProtoAGUI
		if got == FormatACPRecording {
			proto = model.ProtoACP
		}
		if rec.Event == nil || rec.Proto != proto {
			t.Fatalf("record %d: Event %v, Proto %q", i, rec.Event, rec.Proto)
		}
		u, bad := rec.Event.(*model.Unreadable)
		if bad && u.Offset >= 0 {
			if u.Reason == "" || u.Offset > int64(len(data)) {
				t.Fatalf("record %d: unreadable %+v in %d bytes", i, u, len(data))
			}
		} else if len(rec.Raw) == 0 || rec.Raw[0] != '{' {
			t.Fatalf("record %d: event with Raw %q", i, rec.Raw)
		}
		if rec.Raw != nil {
			if !json.Valid(rec.Raw) {
				t.Fatalf("record %d: Raw %q is not valid JSON", i, rec.Raw)
			}
			if got != FormatSSE && !bytes.Contains(data, rec.Raw) {
				t.Fatalf("record %d: Raw %q is not from the input", i, rec.Raw)
			}
		}
	}
	if limit > 0 {
		return // how far the decoder reads ahead decides which path an oversize event takes
	}
	again := read(iotest.OneByteReader(bytes.NewReader(data)))
	if len(again) != len(recs) {
		t.Fatalf("one byte at a time: %d records, want %d", len(again), len(recs))
	}
	for i := range recs {
		// jsontext quotes as much of the bad text as it has buffered, so
		// only where a syntax error is must not depend on read sizes.
		a := syntaxDetail.ReplaceAllString(show(recs[i]), "$1…$2")
		b := syntaxDetail.ReplaceAllString(show(again[i]), "$1…$2")
		if a != b {
			t.Fatalf("one byte at a time, record %d:\n got  %s\n want %s", i, show(again[i]), show(recs[i]))
		}
	}
}

// syntaxDetail matches the jsontext message in a JSON array's syntax error.
var syntaxDetail = regexp.MustCompile(`^(!\d+ event at byte \d+: ).*( at byte \d+)$`)

func addSeeds(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s), uint16(0))
		f.Add([]byte(s), uint16(40))
	}
}

func FuzzReader(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) { fuzzRead(t, data, FormatAuto, limit) })
}

func FuzzReaderJSONArray(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) { fuzzRead(t, data, FormatJSONArray, limit) })
}

func FuzzReaderEventsObject(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) { fuzzRead(t, data, FormatEventsObject, limit) })
}

func FuzzReaderJSONL(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) { fuzzRead(t, data, FormatJSONL, limit) })
}

func FuzzReaderACPRecording(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) { fuzzRead(t, data, FormatACPRecording, limit) })
}

func FuzzReaderSSE(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, limit uint16) { fuzzRead(t, data, FormatSSE, limit) })
}

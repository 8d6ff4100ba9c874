package sources

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

var errCutTest = errors.New("cut")

// readLive reads data as Connect reads a stream: SSE that must end
// between frames.
func readLive(in io.Reader) (types []string, err error) {
	r := NewReaderFormat(in, FormatSSE)
	r.cutFrame = errCutTest
	for {
		rec, err := r.Next()
		if err != nil {
			return types, err
		}
		types = append(types, show(rec))
	}
}

// endsInFrame says, from the text alone, whether an SSE stream stops
// inside a frame: its last line has no line end, or a field (not a
// comment) came after the last blank line. Leading white space is not
// part of any frame.
func endsInFrame(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 {
		return false
	}
	if data[len(data)-1] != '\n' {
		return true
	}
	open := false
	for _, ln := range bytes.Split(data[:len(data)-1], []byte("\n")) {
		ln = bytes.TrimSuffix(ln, []byte("\r"))
		switch {
		case len(ln) == 0:
			open = false
		case ln[0] != ':':
			open = true
		}
	}
	return open
}

// A live stream that stops between frames ends cleanly; one that stops
// inside a frame (a connection closed mid-event) ends with the cut error,
// and the frame it was in is not an event.
func TestLiveSSEEnds(t *testing.T) {
	ev := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	for _, tc := range []struct {
		name   string
		in     string
		events int
		cut    bool
	}{
		{"empty", "", 0, false},
		{"after a blank line", "data: " + ev + "\n\n", 1, false},
		{"after a comment", "data: " + ev + "\n\n: ping\n", 1, false},
		{"CRLF frames", "data: " + ev + "\r\n\r\n", 1, false},
		{"in the data", "data: " + ev + "\n\ndata: {\"ty", 1, true},
		{"after a data line", "data: " + ev + "\n\ndata: " + ev + "\n", 1, true},
		{"after an event line", "data: " + ev + "\n\nevent: message\n", 1, true},
		{"in a field name", "data: " + ev + "\n\nda", 1, true},
		{"in a comment", "data: " + ev + "\n\n: pi", 1, true},
		{"between the lines of a frame", "data: {\"type\":\n", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			types, err := readLive(bytes.NewReader([]byte(tc.in)))
			if len(types) != tc.events {
				t.Errorf("events %v, want %d", types, tc.events)
			}
			if tc.cut != errors.Is(err, errCutTest) || (!tc.cut && err != io.EOF) {
				t.Errorf("end %v, cut %v", err, tc.cut)
			}
			if endsInFrame([]byte(tc.in)) != tc.cut {
				t.Errorf("the test's own rule disagrees on %q", tc.in)
			}
		})
	}
}

// Any input: a live read returns what a file read returns, less the frame
// the input stopped in, and ends with the cut error exactly when the input
// stops inside a frame, however it arrives.
func FuzzReaderLiveSSE(f *testing.F) {
	addSeeds(f)
	for _, s := range []string{
		"data: {\"type\":\"RUN_STARTED\"}\n\ndata: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"delta\":\"\u009b2J\u202e",
		"data: {\"type\":\"RUN_STARTED\"}\n\nevent: x\nid: 3\n",
		"data: {\"type\":\"RUN_STARTED\"}\r\n\r\n: keepalive\r\n",
		"\r\n\r\ndata: {}\r\n",
		"data: {\"a\":1}\n\n\x1b]52;c;aGk=\x07",
	} {
		f.Add([]byte(s), uint16(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, _ uint16) {
		types, err := readLive(bytes.NewReader(data))
		all, ferr := readLive(iotest.OneByteReader(bytes.NewReader(data)))
		if len(all) != len(types) || (err == nil) != (ferr == nil) || (err != nil && err.Error() != ferr.Error()) {
			t.Fatalf("one byte at a time: %v %v, want %v %v", all, ferr, types, err)
		}
		file := NewReaderFormat(bytes.NewReader(data), FormatSSE)
		var want []string
		for {
			rec, err := file.Next()
			if err != nil {
				break
			}
			want = append(want, show(rec))
		}
		cut := endsInFrame(data)
		if cut != errors.Is(err, errCutTest) || (!cut && err != io.EOF) {
			t.Fatalf("ended with %v; stops inside a frame: %v", err, cut)
		}
		if cut && len(want) > len(types)+1 || !cut && len(want) != len(types) {
			t.Fatalf("live read %d events, file read %d (cut %v)", len(types), len(want), cut)
		}
		for i := range types {
			if types[i] != want[i] {
				t.Fatalf("event %d: live %s, file %s", i, types[i], want[i])
			}
		}
	})
}

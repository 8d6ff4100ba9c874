package otlp

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
)

// LooksLikeOTLP tells from a file's first bytes that it holds OTLP/JSON
// export requests.
func LooksLikeOTLP(head []byte) bool {
	_, ok := SniffJSON(bytes.TrimLeft(bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n"))
	return ok
}

// File is what an OTLP file held.
type File struct {
	// Records are its agents' telemetry as AG-UI records, in the order of
	// their times, after one unreadable record per request that could not
	// be decoded.
	Records []model.Record
	// Requests counts the export requests read; Metrics those of metrics,
	// which are not shown.
	Requests, Metrics int
}

// Read reads OTLP/JSON export requests, one per line (the Collector's
// file exporter) or one for the whole input (a request written out
// pretty), and maps them together, so that what a batching exporter sent
// out of order is put back in order. A request that cannot be decoded is
// an unreadable record saying which line; the rest is read.
func Read(r io.Reader, opts otel.Options) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	tr := otel.New(opts)
	f := &File{}
	var bad []model.Record
	add := func(b []byte, line int, off int64) {
		b = bytes.TrimSpace(b)
		if len(b) == 0 {
			return
		}
		f.Requests++
		sig, ok := SniffJSON(b)
		if !ok {
			bad = append(bad, unreadable(fmt.Sprintf("line %d: not an OTLP/JSON export request (it does not start with resourceSpans, resourceLogs or resourceMetrics)", line), off))
			return
		}
		req, err := DecodeJSON(sig, b)
		if err != nil {
			bad = append(bad, unreadable(fmt.Sprintf("line %d: %v", line, err), off))
			return
		}
		switch sig {
		case SignalTraces:
			tr.AddTraces(req.Traces)
		case SignalLogs:
			tr.AddLogs(req.Logs)
		case SignalMetrics:
			f.Metrics++
		}
	}
	body := bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	if oneLine(body) {
		forLines(body, add)
	} else {
		add(body, 1, int64(len(data)-len(body)))
	}
	recs := append(tr.Flush(), tr.Finish()...)
	f.Records = append(bad, recs...)
	for i := range f.Records {
		f.Records[i].Seq = uint64(i + 1)
	}
	return f, nil
}

// oneLine reports whether the input holds a request per line: unless its
// first line is not a whole request and the next goes on as a request
// written out pretty would (indented, or closing it).
func oneLine(b []byte) bool {
	b = bytes.TrimLeft(b, " \t\r\n")
	line, rest, _ := bytes.Cut(b, []byte("\n"))
	if jsonValid(bytes.TrimSpace(line)) {
		return true
	}
	rest = bytes.TrimLeft(rest, "\r\n")
	return len(rest) == 0 || !strings.ContainsRune(" \t\"}]", rune(rest[0]))
}

// forLines calls f for each line of b with its number and offset.
func forLines(b []byte, f func(line []byte, n int, off int64)) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, len(b)+1)
	n, off := 0, int64(0)
	for sc.Scan() {
		n++
		f(sc.Bytes(), n, off)
		off += int64(len(sc.Bytes())) + 1
	}
}

// unreadable is a record for input that is not a request.
func unreadable(why string, off int64) model.Record {
	return model.Record{Proto: model.ProtoAGUI, Event: &model.Unreadable{Reason: why, Offset: off}}
}

// PerLine tells from a file's first bytes that it holds a request per
// line (the Collector's file exporter), which can be followed as it
// grows, and not one request written out pretty, which is read whole.
func PerLine(head []byte) bool {
	return oneLine(bytes.TrimPrefix(head, []byte{0xEF, 0xBB, 0xBF}))
}

package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/sources"
)

// piece is a stretch of one sample's events.
type piece struct {
	sample int
	events [][]byte
}

// mix is a way to combine samples into one log.
type mix struct {
	name  string
	order func([]sample) []piece
}

var mixes = []mix{
	{"peer-concat", concat},
	{"peer-interleave", interleave},
}

// concat puts the samples one after another.
func concat(samples []sample) []piece {
	out := make([]piece, len(samples))
	for i, s := range samples {
		out[i] = piece{i, s.events}
	}
	return out
}

// interleave takes the samples' runs in turns: the first run of each
// sample, then the second run of each sample that has one, and so on.
func interleave(samples []sample) []piece {
	var out []piece
	for round := 0; ; round++ {
		n := len(out)
		for i, s := range samples {
			if round >= len(s.runs) {
				continue
			}
			end := len(s.events)
			if round+1 < len(s.runs) {
				end = s.runs[round+1]
			}
			out = append(out, piece{i, s.events[s.runs[round]:end]})
		}
		if len(out) == n {
			return out
		}
	}
}

// container is one of the formats a log comes in.
type container struct {
	ext string
	// event is an event as this container holds it, and as a reader gives
	// it back.
	event func(ev []byte) []byte
	// frame writes one event; sep goes between events, open and close
	// around them all.
	frame              func(b *bytes.Buffer, ev []byte)
	open, sep, closing string
}

var containers = []container{
	{ext: ".jsonl", event: oneLine, frame: func(b *bytes.Buffer, ev []byte) { b.Write(ev); b.WriteByte('\n') }},
	{ext: ".json", event: asIs, frame: func(b *bytes.Buffer, ev []byte) { b.Write(ev) }, open: "[\n", sep: ",\n", closing: "\n]\n"},
	{ext: ".sse", event: asIs, frame: sseFrame},
}

func asIs(ev []byte) []byte { return ev }

// oneLine compacts an event written over several lines; JSON Lines needs
// it on one.
func oneLine(ev []byte) []byte {
	if !bytes.ContainsAny(ev, "\r\n") {
		return ev
	}
	v := jsontext.Value(bytes.Clone(ev))
	if err := v.Compact(); err != nil {
		panic(fmt.Sprintf("compact %s: %v", ev, err)) // every sample event was read as JSON
	}
	return v
}

// sseFrame writes an event as one SSE message, a data line per line of
// the event.
func sseFrame(b *bytes.Buffer, ev []byte) {
	for line := range bytes.Lines(ev) {
		b.WriteString("data: ")
		b.Write(bytes.TrimRight(line, "\r\n"))
		b.WriteByte('\n')
	}
	b.WriteByte('\n')
}

// write lays out the pieces' events in the container.
func (c container) write(pieces []piece) []byte {
	var b bytes.Buffer
	b.WriteString(c.open)
	first := true
	for _, p := range pieces {
		for _, ev := range p.events {
			if !first {
				b.WriteString(c.sep)
			}
			first = false
			c.frame(&b, c.event(ev))
		}
	}
	b.WriteString(c.closing)
	return b.Bytes()
}

// checkSplit reads back log, written from pieces, splits it by thread as agentwatch does, and
// says where the threads are not the samples: each sample a thread of its
// own id, in order of first appearance, holding all of its events in order
// and nothing else.
func checkSplit(log []byte, c container, samples []sample, pieces []piece) error {
	var wantIDs []string
	want := map[string][][]byte{}
	for _, p := range pieces {
		id := samples[p.sample].id
		if _, seen := want[id]; !seen {
			wantIDs = append(wantIDs, id)
		}
		for _, ev := range p.events {
			want[id] = append(want[id], c.event(ev))
		}
	}

	ts := fold.NewThreads(fold.Options{})
	got := map[*fold.Thread][][]byte{}
	r := sources.NewReader(bytes.NewReader(log))
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		th := ts.Route("log", &rec)
		got[th] = append(got[th], rec.Raw)
	}
	var gotIDs []string
	for _, th := range ts.List() {
		gotIDs = append(gotIDs, th.ID)
	}
	if !slices.Equal(gotIDs, wantIDs) {
		return fmt.Errorf("threads %q, want %q", gotIDs, wantIDs)
	}
	for _, th := range ts.List() {
		if !slices.EqualFunc(got[th], want[th.ID], bytes.Equal) {
			return fmt.Errorf("thread %s: %d events, not the sample's %d events as written", th.ID, len(got[th]), len(want[th.ID]))
		}
	}
	return nil
}

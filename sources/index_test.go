package sources

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
)

// indexAll indexes data step records at a time (step < 1: in one call)
// and checks each call adds exactly step records until the last.
func indexAll(t testing.TB, data []byte, step int) Index {
	t.Helper()
	ix := NewIndexer(bytes.NewReader(data))
	prev := 0
	for {
		x, err := ix.Next(step)
		added := x.Len() - prev
		prev = x.Len()
		if err == io.EOF {
			if step >= 1 && added > step {
				t.Fatalf("Next(%d) added %d records", step, added)
			}
			again, err := ix.Next(step)
			if err != io.EOF || again.Len() != x.Len() {
				t.Fatalf("Next after io.EOF: %d records, %v", again.Len(), err)
			}
			return x
		}
		if err != nil {
			t.Fatalf("Next: %v (bytes.Reader never fails)", err)
		}
		if step >= 1 && added != step {
			t.Fatalf("Next(%d) added %d records before the end", step, added)
		}
	}
}

// checkIndex checks the index of data against ReadAll: its length, every
// At and Type, all records at once, and a few random ranges.
func checkIndex(t testing.TB, name string, data []byte, step int, rng *rand.Rand) {
	t.Helper()
	want, err := ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s: ReadAll: %v", name, err)
	}
	x := indexAll(t, data, step)
	if x.Len() != len(want) {
		t.Fatalf("%s: index of %d records, ReadAll read %d", name, x.Len(), len(want))
	}
	for i, rec := range want {
		if at := x.At(i); at != rec.At {
			t.Fatalf("%s: At(%d) = %v, the record says %v (%s)", name, i, at, rec.At, show(rec))
		}
		if typ := x.Type(i); typ != rec.Event.EventType() {
			t.Fatalf("%s: Type(%d) = %q, the record says %q (%s)", name, i, typ, rec.Event.EventType(), show(rec))
		}
	}
	ra := bytes.NewReader(data)
	got, err := x.Records(ra, 0, x.Len())
	if err != nil {
		t.Fatalf("%s: Records: %v", name, err)
	}
	sameRecords(t, name, got, want)
	for range 8 {
		if rng == nil || len(want) == 0 {
			break
		}
		i := rng.IntN(len(want) + 1)
		j := i + rng.IntN(len(want)-i+1)
		got, err := x.Records(ra, i, j)
		if err != nil {
			t.Fatalf("%s: Records(%d, %d): %v", name, i, j, err)
		}
		sameRecords(t, fmt.Sprintf("%s [%d:%d]", name, i, j), got, want[i:j])
	}
}

// sameRecords compares records field by field: Seq, At, Proto, Raw (and
// whether it is nil) and the decoded Event.
func sameRecords(t testing.TB, name string, got, want []model.Record) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d records, want %d", name, len(got), len(want))
	}
	for k := range want {
		if !reflect.DeepEqual(got[k], want[k]) {
			t.Fatalf("%s: record %d (Seq %d):\n got  %+v %s\n want %+v %s", name, k, want[k].Seq,
				got[k], show(got[k]), want[k], show(want[k]))
		}
	}
}

// asSSE turns a JSON Lines log into SSE frames; every fifth event (when it
// has a comma to split at) comes in two data: lines, which the index must
// keep whole.
func asSSE(jsonl []byte) []byte {
	var out bytes.Buffer
	for i, line := range bytes.Split(bytes.TrimRight(jsonl, "\n"), []byte{'\n'}) {
		if k := bytes.IndexByte(line, ','); i%5 == 0 && k > 0 {
			fmt.Fprintf(&out, "event: message\ndata: %s\ndata: %s\n\n", line[:k+1], line[k+1:])
			continue
		}
		fmt.Fprintf(&out, "id: %d\ndata: %s\n\n", i, line)
	}
	return out.Bytes()
}

// asEventsObject wraps a JSON array log in an {"events":[…]} object.
func asEventsObject(array []byte) []byte {
	return append(append([]byte("{\n\"threadId\": \"t\",\n\"events\": "), array...), "}\n"...)
}

func TestIndexSamples(t *testing.T) {
	files, err := filepath.Glob("../testdata/peer/samples/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no samples: %v", err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, step := range []int{0, 1, 3} {
			checkIndex(t, fmt.Sprintf("%s step %d", filepath.Base(f), step), data, step, rng)
		}
	}
}

// TestIndexReaderCorpus runs the reader's own fuzz corpus and fuzz seeds
// through the index.
func TestIndexReaderCorpus(t *testing.T) {
	files, err := filepath.Glob("testdata/fuzz/*/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	n := 0
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(text), "\n") {
			if !strings.HasPrefix(line, "[]byte(") {
				continue
			}
			data, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(line, "[]byte("), ")"))
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			checkIndex(t, f, []byte(data), 2, rng)
			n++
		}
	}
	for i, s := range seeds {
		checkIndex(t, "seed "+strconv.Itoa(i), []byte(s), 1, rng)
	}
	if n < 50 {
		t.Fatalf("only %d corpus entries read", n)
	}
}

func TestIndexGenerated(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, seed := range []int64{1, 2} {
		jsonl := loggen.Generate(20000, seed)
		array := loggen.ToArray(jsonl)
		for _, f := range []struct {
			name string
			data []byte
		}{
			{"jsonl", jsonl},
			{"array", array},
			{"events-object", asEventsObject(array)},
			{"sse", asSSE(jsonl)},
			{"crlf", bytes.ReplaceAll(jsonl, []byte("\n"), []byte("\r\n"))},
			{"bom-array", append([]byte("\xEF\xBB\xBF"), array...)},
		} {
			checkIndex(t, fmt.Sprintf("%s seed %d", f.name, seed), f.data, 1000, rng)
		}
	}
}

// TestIndexFastPath checks the scan, not the decoder, reads the type and
// time of the events real producers write, so the speed measured is the
// speed a real log gets.
func TestIndexFastPath(t *testing.T) {
	recs, err := ReadAll(bytes.NewReader(loggen.Generate(5000, 7)))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		if _, ok := scanEvent(rec.Raw); !ok {
			t.Fatalf("the scan leaves %s to the decoder", rec.Raw)
		}
	}
}

// TestIndexOddEvents covers what the scan must hand to the decoder: every
// line here is one record, whose Type and At must still be the decoder's.
func TestIndexOddEvents(t *testing.T) {
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	lines := []string{
		`{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1760000000000}`,
		`{ "type" : "TEXT_MESSAGE_CONTENT" , "messageId":"m","delta":"x", "timestamp" : 1760000000001 }`,
		`{"type":"A","timestamp":1760000000000.5}`,
		`{"type":"A","timestamp":"1760000000000"}`,
		`{"type":"A","timestamp":"2025-10-09T10:00:00.123Z"}`,
		`{"type":"A","timestamp":null}`,
		`{"type":"A","timestamp":true}`,
		`{"type":"A","timestamp":1e3}`,
		`{"type":"A","timestamp":-0}`,
		`{"type":"A","timestamp":-1760000000000}`,
		`{"type":"A","timestamp":9300000000000}`,
		`{"type":"A","timestamp":1234567890123456}`,
		`{"type":"A","timestamp":1,"timestamp":2}`,
		`{"type":"A","Timestamp":5}`,
		`{"type":"A","t\u0069mestamp":5}`,
		`{"type":"A","type":"B","timestamp":5}`,
		`{"type":"A","t\u0079pe":"B","timestamp":5}`,
		`{"timestamp":5,"type":"A"}`,
		`{"type":"","timestamp":5}`,
		`{"type":5,"timestamp":5}`,
		`{"type":"A\u0042","timestamp":5}`,
		"{\"type\":\"A\xff\",\"timestamp\":5}",
		"{\"type\":\"A\",\"delta\":\"\xff\xfe\",\"timestamp\":5}",
		`{"type":"A","metadata":"x","timestamp":5}`,
		`{"type":"A","timestamp":5,"metadata":7}`,
		`{"type":"A","metadata":{"category":"read"},"timestamp":5}`,
		`{"type":"A","metadata":null,"timestamp":5}`,
		`{"type":"A","subagentRunId":3,"timestamp":5}`,
		`{"type":"A","subagentRunId":"s","rawEvent":[1,{"a":null}],"timestamp":5}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":5,"delta":"x","timestamp":5}`,
		`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","timestamp":5}`,
		`{"type":"TEXT_MESSAGE_CONTENT","metadata":"x","messageId":"m","delta":"d","timestamp":5}`,
		`{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a","value":{"b":[true,false,null,1.5e-3]}}],"timestamp":5}`,
		`{"type":"A","x":"\ud83d\ude00","timestamp":5}`,
		`{"type":"A","x":"\ud800","timestamp":5}`,
		`{"type":"A","x":"\u00e9\n\t\"\\\/","timestamp":5}`,
		`{"type":"A","x":` + deep + `,"timestamp":5}`,
		`{"type":"A","x":{},"y":[],"z":[{}],"timestamp":5}`,
		`{"type":"A","x":01,"timestamp":5}`,
		`{"type":"A","x":[1,],"timestamp":5}`,
		`{"type":"A","timestamp":5,}`,
		`{"type":"A","timestamp":5} {"type":"B"}`,
		`{"type":"A","timestamp":5}x`,
		`{"type":"A","x":"` + "\x01" + `","timestamp":5}`,
		`{"type":"A","x":tru,"timestamp":5}`,
		`{"type":"A","x":1.,"timestamp":5}`,
		`{"type":"A","x":-,"timestamp":5}`,
		`{"type":"A","x":"\q","timestamp":5}`,
		`{"type":"A","x":"\u12","timestamp":5}`,
		`{"noType":true}`,
		`{}`,
		`[1,2]`,
		`"text"`,
		`not json`,
	}
	data := []byte(strings.Join(lines, "\n") + "\n")
	checkIndex(t, "jsonl", data, 1, nil)
	var array bytes.Buffer
	array.WriteString("[")
	for i, l := range lines[:len(lines)-1] { // a broken element ends an array
		if !validJSON([]byte(l)) {
			continue
		}
		if i > 0 {
			array.WriteString(",\n")
		}
		array.WriteString(l)
	}
	array.WriteString("]")
	checkIndex(t, "array", array.Bytes(), 1, nil)
}

// TestIndexCutArray indexes every prefix of a small array log: a log still
// being written, cut anywhere, indexes as the reader reads it.
func TestIndexCutArray(t *testing.T) {
	data := loggen.GenerateArray(40, 9)
	if len(data) > 40_000 {
		data = data[:40_000]
	}
	step := max(1, len(data)/600)
	for n := 0; n <= len(data); n += step {
		checkIndex(t, fmt.Sprintf("cut at %d", n), data[:n], 4, nil)
	}
}

// TestIndexGrowing feeds an array through a pipe one event at a time: each
// Next(1) returns as soon as its event has arrived, and every index handed
// out stays valid, and unchanged, as later ones grow.
func TestIndexGrowing(t *testing.T) {
	jsonl := loggen.Generate(300, 11)
	events := bytes.Split(bytes.TrimRight(jsonl, "\n"), []byte{'\n'})
	pr, pw := io.Pipe()
	ix := NewIndexer(pr)
	var written bytes.Buffer
	var views []Index
	for i, ev := range events {
		chunk := []byte("[\n")
		if i > 0 {
			chunk = []byte(",\n")
		}
		chunk = append(chunk, ev...)
		written.Write(chunk)
		go pw.Write(chunk)
		x, err := ix.Next(1)
		if err != nil || x.Len() != i+1 {
			t.Fatalf("event %d: Next(1) gave %d records, %v", i, x.Len(), err)
		}
		views = append(views, x)
	}
	go func() {
		pw.Write([]byte("\n]\n"))
		pw.Close()
	}()
	final, err := ix.Next(0)
	if err != io.EOF || final.Len() != len(events) {
		t.Fatalf("at the end: %d records, %v", final.Len(), err)
	}
	want, err := ReadAll(bytes.NewReader(written.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	ra := bytes.NewReader(written.Bytes())
	for _, x := range views {
		got, err := x.Records(ra, 0, x.Len())
		if err != nil {
			t.Fatalf("view of %d: %v", x.Len(), err)
		}
		sameRecords(t, fmt.Sprintf("view of %d", x.Len()), got, want[:x.Len()])
	}
}

// TestIndexConcurrentViews reads earlier views from other goroutines while
// the Indexer goes on (run with -race).
func TestIndexConcurrentViews(t *testing.T) {
	data := loggen.GenerateArray(6000, 13)
	want, err := ReadAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	ix := NewIndexer(bytes.NewReader(data))
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for {
		x, err := ix.Next(700)
		if x.Len() > 0 {
			wg.Go(func() {
				for i := range x.Len() {
					if x.Type(i) != want[i].Event.EventType() || x.At(i) != want[i].At {
						errs <- fmt.Errorf("view of %d: record %d differs", x.Len(), i)
						return
					}
				}
				got, err := x.Records(bytes.NewReader(data), max(0, x.Len()-500), x.Len())
				if err == nil && !reflect.DeepEqual(got, want[max(0, x.Len()-500):x.Len()]) {
					err = fmt.Errorf("view of %d: records differ", x.Len())
				}
				if err != nil {
					errs <- err
				}
			})
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestIndexErrors(t *testing.T) {
	boom := errors.New("boom")
	data := loggen.Generate(50, 17)
	n := bytes.Count(data, []byte{'\n'})
	ix := NewIndexer(io.MultiReader(bytes.NewReader(data), iotest.ErrReader(boom)))
	x, err := ix.Next(0)
	if err != boom || x.Len() != n {
		t.Fatalf("after a read error: %d records of %d, %v", x.Len(), n, err)
	}
	if x, err = ix.Next(1); err != boom || x.Len() != n {
		t.Fatalf("again: %d records of %d, %v", x.Len(), n, err)
	}
	for _, r := range [][2]int{{-1, 2}, {3, 2}, {0, n + 1}} {
		if _, err := x.Records(bytes.NewReader(data), r[0], r[1]); err == nil {
			t.Errorf("Records(%d, %d) of %d: no error", r[0], r[1], n)
		}
	}
	if _, err := x.Records(bytes.NewReader(data[:len(data)/2]), 0, n); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Records from a shorter file: %v", err)
	}
	if recs, err := x.Records(bytes.NewReader(data), 7, 7); err != nil || len(recs) != 0 {
		t.Errorf("an empty range: %d records, %v", len(recs), err)
	}
}

// TestIndexFootprint holds the index to its budget: well under 32 bytes an
// event, the raw events not kept.
func TestIndexFootprint(t *testing.T) {
	data := loggen.Generate(20000, 19)
	x := indexAll(t, data, 0)
	per := float64(x.Footprint()) / float64(x.Len())
	if per > 32 {
		t.Fatalf("%.1f bytes an event", per)
	}
	t.Logf("%d events, %.1f bytes an event, %.2f%% of the log", x.Len(), per, 100*float64(x.Footprint())/float64(len(data)))
}

// TestIndexLargeEvent reads an event bigger than the read window back.
func TestIndexLargeEvent(t *testing.T) {
	big := `{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"c","content":"` +
		strings.Repeat("x", 3*readWindow) + `","timestamp":1760000000000}`
	data := []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n" + big + "\n" +
		`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}` + "\n")
	checkIndex(t, "large", data, 1, rand.New(rand.NewPCG(1, 1)))
}

// FuzzIndex indexes any bytes, step records at a time, and checks that
// the index agrees with the Reader on every record, read back whole and
// in random ranges, and that whatever the scan accepts is JSON. Too slow
// for CI's few seconds, it is run by hand; CI fuzzes FuzzIndexLight.
func FuzzIndex(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(2))
	}
	f.Add(loggen.Generate(30, 1), uint8(5))
	f.Add(loggen.GenerateArray(30, 2), uint8(1))
	f.Add(asSSE(loggen.Generate(30, 3)), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		checkIndex(t, "fuzz", data, int(step%8), rand.New(rand.NewPCG(uint64(len(data)), 1)))
		// Whatever the scan accepts is JSON.
		for line := range bytes.SplitSeq(data, []byte{'\n'}) {
			if _, ok := scanEvent(line); ok && !validJSON(line) {
				t.Fatalf("the scan accepts %q", line)
			}
		}
	})
}

// TestIndexColumnsOverflow covers what the narrow columns cannot hold:
// more type names than the type column numbers, times more than 24 days
// from their chunk's first, times going back, times with nanoseconds, and
// times before 1970. Every record still reads back as the Reader reads it.
func TestIndexColumnsOverflow(t *testing.T) {
	var b bytes.Buffer
	for i := range 70_000 {
		fmt.Fprintf(&b, `{"type":"T%d"}`+"\n", i)
	}
	checkIndex(t, "types", b.Bytes(), 0, rand.New(rand.NewPCG(1, 2)))

	b.Reset()
	ms := int64(1_760_000_000_000)
	for i := range 3 * chunkLen {
		switch i % 7 {
		case 0:
			ms += 30 * 24 * 3600 * 1000 // a month later
		case 1:
			ms -= 40 * 24 * 3600 * 1000 // back
		}
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `{"type":"A","timestamp":%d.25}`+"\n", ms)
		case 1:
			fmt.Fprintf(&b, `{"type":"A","timestamp":-%d.5}`+"\n", i)
		case 2:
			b.WriteString(`{"type":"A"}` + "\n")
		default:
			fmt.Fprintf(&b, `{"type":"A","timestamp":%d}`+"\n", ms)
		}
	}
	checkIndex(t, "times", b.Bytes(), 1000, rand.New(rand.NewPCG(3, 4)))
}

// A place more than 4 GiB from its chunk's first goes to the extras and
// comes back from them.
func TestIndexFarPlace(t *testing.T) {
	ix := NewIndexer(bytes.NewReader(nil))
	offs := []int64{10, 20, 5 << 30, 5<<30 + 100, 1 << 40}
	for _, off := range offs {
		ix.add(item{raw: []byte(`{"type":"A"}`), off: off, placed: true})
	}
	for i, off := range offs {
		if got, size := ix.x.place(i); got != off || size != len(`{"type":"A"}`) {
			t.Errorf("record %d at %d, %d bytes; want %d", i, got, size, off)
		}
	}
}

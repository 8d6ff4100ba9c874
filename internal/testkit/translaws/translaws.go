// Package translaws holds the laws every translator of an agent's session
// file keeps (protocol/codex, protocol/copilot, protocol/gemini): a file
// appended a piece at a time, its lines torn anywhere, gives what it gives
// read whole.
package translaws

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// Writer is a translator that takes a session file's bytes as they are
// appended, and its last line without a newline at Flush.
type Writer interface {
	Write(p []byte) []model.Record
	Flush() []model.Record
}

// SplitsFoldAlike checks that data, written in two pieces split at each
// line's end, one byte either side and every 13th byte between, gives
// the records it gives whole (which the fold, being deterministic, folds
// alike; every byte took 20 s), and that written line by line with every
// line torn in two it folds alike. fresh makes a translator that has seen
// nothing.
func SplitsFoldAlike(t *testing.T, data []byte, fresh func() Writer) {
	t.Helper()
	all := writeAll(fresh(), data)
	whole := exported(t, all)
	for k := 0; k <= len(data); k++ {
		if k%13 != 0 && !NearLineEnd(data, k) {
			continue
		}
		tr := fresh()
		recs := tr.Write(data[:k])
		recs = append(recs, tr.Write(data[k:])...)
		recs = append(recs, tr.Flush()...)
		if !SameRecords(recs, all) {
			t.Fatalf("split at byte %d translates otherwise", k)
		}
	}
	tr := fresh()
	var recs []model.Record
	for line := range bytes.SplitAfterSeq(data, []byte("\n")) {
		half := len(line) / 2
		recs = append(recs, tr.Write(line[:half])...)
		recs = append(recs, tr.Write(line[half:])...)
	}
	recs = append(recs, tr.Flush()...)
	if got := exported(t, recs); got != whole {
		t.Fatal("torn lines fold otherwise")
	}
}

// FlushReadsTheLastLine checks that a last line without its newline (data
// has none at its end) is read by Flush, not before, and once.
func FlushReadsTheLastLine(t *testing.T, data []byte, fresh func() Writer) {
	t.Helper()
	tr := fresh()
	n := len(tr.Write(data))
	if rest := tr.Flush(); len(rest) == 0 {
		t.Fatalf("Flush made nothing of the last line (%d records before)", n)
	}
	if again := tr.Flush(); len(again) != 0 {
		t.Fatal("a second Flush made records again")
	}
}

func writeAll(tr Writer, data []byte) []model.Record {
	return append(tr.Write(data), tr.Flush()...)
}

// NearLineEnd reports whether byte k of b is a line's end or next to one.
func NearLineEnd(b []byte, k int) bool {
	for _, i := range []int{k - 1, k, k + 1} {
		if i >= 0 && i < len(b) && b[i] == '\n' {
			return true
		}
	}
	return false
}

// SameRecords reports whether a and b are the same records: numbers,
// times, threads and bytes.
func SameRecords(a, b []model.Record) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Seq != y.Seq || !x.At.Equal(y.At) || x.Thread != y.Thread || !bytes.Equal(x.Raw, y.Raw) {
			return false
		}
	}
	return true
}

// exported is the fold of recs as JSON, renumbered as a source numbers
// records in arrival order; a fold with problems fails the test.
func exported(t testing.TB, recs []model.Record) string {
	t.Helper()
	recs = append([]model.Record(nil), recs...)
	for i := range recs {
		recs[i].Seq = uint64(i + 1)
	}
	f := fold.New(fold.Options{})
	if _, err := f.Apply(recs...); err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Diagnostics() {
		t.Errorf("diagnostic: %+v", d)
	}
	snap, err := f.Export()
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// ReadFile is the fixture at path; a file that cannot be read fails the
// test.
func ReadFile(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Translate is what a fresh translator makes of data read whole.
func Translate(tr Writer, data []byte) []model.Record { return writeAll(tr, data) }

// Fold folds recs into one fold and fails the test on a diagnostic.
func Fold(t testing.TB, recs []model.Record) *fold.Fold {
	t.Helper()
	f := fold.New(fold.Options{})
	if _, err := f.Apply(recs...); err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Diagnostics() {
		t.Errorf("diagnostic: %+v", d)
	}
	return f
}

// FoldsClean checks what a translator made of any bytes, as a fuzz target
// does: every record has an event, and folded (numbered in order) it
// breaks no rule of AG-UI's but where a record stands for input that was
// not read.
func FoldsClean(t *testing.T, recs []model.Record) {
	t.Helper()
	f := fold.New(fold.Options{})
	for i := range recs {
		if recs[i].Event == nil {
			t.Fatalf("record %d has no event", i)
		}
		recs[i].Seq = uint64(i + 1)
	}
	if _, err := f.Apply(recs...); err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Diagnostics() {
		if !unreadable(recs, d.Seq) {
			t.Fatalf("diagnostic on a translated event: %+v", d)
		}
	}
}

// unreadable reports whether record seq stands for input that was not read.
func unreadable(recs []model.Record, seq uint64) bool {
	if seq == 0 || seq > uint64(len(recs)) {
		return false
	}
	_, ok := recs[seq-1].Event.(*model.Unreadable)
	return ok
}

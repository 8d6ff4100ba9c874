package gemini_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// A session file appended a piece at a time, its lines torn anywhere, folds to
// what it folds to read whole: split at each line's end, one byte either
// side and every 13th byte between (the same records, which the fold,
// being deterministic, folds alike; every byte took 20 s), and line by
// line with every line torn in two (the same fold).
func TestSplitsFoldAlike(t *testing.T) {
	b := readFixture(t)
	all := translate(b)
	whole := exported(t, all)
	for k := 0; k <= len(b); k++ {
		if k%13 != 0 && !nearLineEnd(b, k) {
			continue
		}
		tr := gemini.New()
		recs := tr.Write(b[:k])
		recs = append(recs, tr.Write(b[k:])...)
		recs = append(recs, tr.Flush()...)
		if !sameRecords(recs, all) {
			t.Fatalf("split at byte %d translates otherwise", k)
		}
	}
	tr := gemini.New()
	var recs []model.Record
	for line := range bytes.SplitAfterSeq(b, []byte("\n")) {
		half := len(line) / 2
		recs = append(recs, tr.Write(line[:half])...)
		recs = append(recs, tr.Write(line[half:])...)
	}
	recs = append(recs, tr.Flush()...)
	if got := exported(t, recs); got != whole {
		t.Fatal("torn lines fold otherwise")
	}
}

// nearLineEnd reports whether byte k of b is a line's end or next to one.
func nearLineEnd(b []byte, k int) bool {
	for _, i := range []int{k - 1, k, k + 1} {
		if i >= 0 && i < len(b) && b[i] == '\n' {
			return true
		}
	}
	return false
}

// sameRecords reports whether a and b are the same records.
func sameRecords(a, b []model.Record) bool {
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
// records in arrival order.
func exported(t testing.TB, recs []model.Record) string {
	t.Helper()
	for i := range recs {
		recs[i].Seq = uint64(i + 1)
	}
	snap, err := foldAll(t, recs).Export()
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// A last line without its newline is read by Flush, not before.
func TestFlushReadsTheLastLine(t *testing.T) {
	b := []byte(`{"sessionId":"s","projectHash":"p"}` + "\n" + `{"id":"u","timestamp":"2026-04-20T09:15:09.402Z","type":"user","content":[{"text":"hi"}]}`)
	tr := gemini.New()
	n := len(tr.Write(b))
	if rest := tr.Flush(); len(rest) == 0 {
		t.Fatalf("Flush made nothing of the last line (%d records before)", n)
	}
	if again := tr.Flush(); len(again) != 0 {
		t.Fatal("a second Flush made records again")
	}
}

package sources

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/model"
)

// acpRecordings are the recordings every reader must read alike: the
// hand-written ones (one with broken lines) and a long generated turn.
func acpRecordings(t *testing.T) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	files, err := filepath.Glob("../testdata/acp/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = b
	}
	var long bytes.Buffer
	if err := hostile.ACPTurn(&long, 0, 3000); err != nil {
		t.Fatal(err)
	}
	out["long turn"] = long.Bytes()
	return out
}

// A Reader knows an ACP recording by its first line and reads it as
// ReadACPRecording does, record for record; the pipelined batches and an
// index of it give the same records.
func TestReaderReadsACPRecordings(t *testing.T) {
	for name, b := range acpRecordings(t) {
		want, err := ReadACPRecording(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || want[0].Proto != model.ProtoACP {
			t.Fatalf("%s: %d records, the first %+v", name, len(want), want)
		}
		r := NewReader(bytes.NewReader(b))
		var got []model.Record
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			got = append(got, rec)
		}
		if r.Format() != FormatACPRecording {
			t.Errorf("%s: read as %s", name, r.Format())
		}
		sameRecords(t, name+" (Reader)", got, want)

		batches, wait := Batches(context.Background(), NewReader(bytes.NewReader(b)), 97)
		got = nil
		for bt := range batches {
			got = append(got, bt...)
		}
		if err := wait(); err != nil {
			t.Fatal(err)
		}
		sameRecords(t, name+" (Batches)", got, want)

		x, err := NewIndexer(bytes.NewReader(b)).Next(0)
		if err.Error() != "EOF" {
			t.Fatalf("%s: index: %v", name, err)
		}
		for _, span := range [][2]int{{0, len(want)}, {len(want) / 3, len(want) / 2}} {
			got, err := x.Records(bytes.NewReader(b), span[0], span[1])
			if err != nil {
				t.Fatal(err)
			}
			sameRecords(t, name+" (Index)", got, want[span[0]:span[1]])
		}
		for i := range want {
			if at := x.At(i); !at.Equal(want[i].At) {
				t.Fatalf("%s: the index has record %d at %v, want %v", name, i+1, at, want[i].At)
			}
		}
	}
}

// A followed recording, written a few lines at a time, gives the records
// of the whole file, ACP ones with the times the lines say.
func TestTailACPRecording(t *testing.T) {
	var b bytes.Buffer
	if err := hostile.ACPTurn(&b, 0, 200); err != nil {
		t.Fatal(err)
	}
	want, err := ReadACPRecording(bytes.NewReader(b.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "session.jsonl")
	lines := strings.SplitAfter(b.String(), "\n")
	appendFile(t, path, strings.Join(lines[:5], ""))
	l := startTail(t, path)
	l.waitEvent(t, TailFollowing)
	for i := 5; i < len(lines); i += 40 {
		appendFile(t, path, strings.Join(lines[i:min(i+40, len(lines))], ""))
	}
	l.waitFor(t, "every record", func(r []model.Record, _ []TailEvent) bool { return len(r) >= len(want) })
	l.mu.Lock()
	defer l.mu.Unlock()
	sameRecords(t, "tail", l.recs, want)
}

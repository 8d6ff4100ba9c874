package fold_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// fuzzLightBytes bounds what the light fuzz targets read of an input: a
// few dozen events fold in microseconds, so the fuzzer spends its time on
// new inputs, not on one long log (or on minimising one).
const fuzzLightBytes = 4 << 10

// FuzzFoldLight is FuzzFold's light twin, the one CI fuzzes
// (scripts/fuzz-all.sh): it decodes any log, one event per line, folds
// it, trims it and reads every view, checking what holds after any input
// but no law. FuzzFold checks the laws on every input; run it by hand:
//
//	go test ./fold/ -run '^$' -fuzz '^FuzzFold$' -fuzztime 5m
func FuzzFoldLight(f *testing.F) {
	for _, s := range fuzzFoldSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := fuzzRecords(data[:min(len(data), fuzzLightBytes)])
		fuzzLightFold(t, recs, fuzzChecksum(data))
	})
}

// FuzzACPFoldLight is FuzzACPFold's light twin, the one CI fuzzes: it folds
// any ACP traffic (one message a line, '>' before what the client sent),
// trims it and reads every view, checking no law. FuzzACPFold checks them;
// run it by hand:
//
//	go test ./fold/ -run '^$' -fuzz '^FuzzACPFold$' -fuzztime 5m
func FuzzACPFoldLight(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/acp/*.jsonl")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		var lines [][]byte
		for line := range bytes.SplitSeq(bytes.TrimSpace(b), []byte("\n")) {
			l, err := acp.ParseLine(line)
			if err != nil {
				continue
			}
			if l.Dir == acp.Send {
				lines = append(lines, append([]byte{'>'}, l.Msg...))
			} else {
				lines = append(lines, l.Msg)
			}
		}
		for _, w := range fuzzWindows(lines) {
			f.Add(w)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := acpFuzzRecords(data[:min(len(data), fuzzLightBytes)])
		fuzzLightFold(t, recs, fuzzChecksum(data))
	})
}

// fuzzLightFold folds recs, reads every view, trims to a Keep taken from
// sum (from nothing kept to a little of every tier), folds the records
// again on the trimmed fold and reads every view again: nothing may panic,
// and the views keep what holds after any input.
func fuzzLightFold(t *testing.T, recs []model.Record, sum uint32) {
	f := fold.New(fold.Options{})
	fuzzApply(t, f, recs...)
	fuzzReadViews(t, f, len(recs))
	n := int(sum % 4)
	tombs := fold.Tombstones(sum >> 2 % 3)
	f.Trim(fold.Keep{Items: n, Content: n, Skeletons: n, Tombstones: tombs})
	// The same records once more: every id now names something kept, shed
	// or forgotten.
	again := make([]model.Record, len(recs))
	for i, r := range recs {
		r.Seq += uint64(len(recs))
		again[i] = r
	}
	fuzzApply(t, f, again...)
	_ = f.Summary()
	_ = f.Runs()
	for _, it := range f.Items() {
		if it.Step >= 0 {
			_ = f.Step(it.Step)
		}
	}
	fuzzCheckItemOrder(t, f.Items(), "after a trim")
}

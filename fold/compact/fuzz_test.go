package compact_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/agentwatch/agentwatch/fold/compact"
	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// FuzzCompact: law 2 on fuzzed logs. The corpus is every sample, generated
// and hostile log; the fuzzer changes their bytes (fields, types, ids) and,
// through ops, the order of their events: each pair of op bytes moves,
// drops or copies one event, which is where compaction can go wrong. Fixed
// alone must keep law 2, and Compact must never need to fall back to the
// input.
func FuzzCompact(f *testing.F) {
	for _, s := range peerSamples(f) {
		f.Add(s.raw, []byte{})
		f.Add(s.raw, []byte{3, 1, 0, 4, 7, 2})
	}
	for _, sc := range genScenarios {
		f.Add(genLog(sc.sc, 7), []byte{1, 9, 2, 5})
	}
	for seed := range uint64(8) {
		f.Add(hostileLog(seed), []byte{})
	}
	f.Fuzz(func(t *testing.T, log, ops []byte) {
		if len(log) > 1<<16 || len(ops) > 64 {
			return
		}
		recs, err := sources.ReadAll(bytes.NewReader(log))
		if err != nil || len(recs) == 0 || len(recs) > 2000 {
			return
		}
		recs = reorder(recs, ops)
		res, err := compact.Compact(recs, equiv.Against(recs))
		if err != nil {
			if !errors.Is(err, compact.ErrUnreadable) {
				t.Fatalf("Compact: %v", err)
			}
			return
		}
		if res.Method == compact.MethodUnchanged {
			t.Fatalf("Compact fell back to the input: %v", res.Rejected)
		}
		if err := equiv.Against(recs)(compact.Fixed(recs)); err != nil {
			t.Fatalf("Fixed breaks law 2: %v", err)
		}
	})
}

// reorder applies ops to a log's events: for each pair (op, arg), event
// arg%n moves to the end (op%4 == 0), moves one place earlier (1), is
// dropped (2) or is copied to the end (3). Records are numbered afresh.
func reorder(recs []model.Record, ops []byte) []model.Record {
	out := append([]model.Record(nil), recs...)
	for i := 0; i+1 < len(ops) && len(out) > 0; i += 2 {
		k := int(ops[i+1]) % len(out)
		switch ops[i] % 4 {
		case 0:
			r := out[k]
			out = append(append(out[:k:k], out[k+1:]...), r)
		case 1:
			if k > 0 {
				out[k-1], out[k] = out[k], out[k-1]
			}
		case 2:
			out = append(out[:k:k], out[k+1:]...)
		case 3:
			out = append(out, out[k])
		}
	}
	for i := range out {
		out[i].Seq = uint64(i + 1)
	}
	return out
}

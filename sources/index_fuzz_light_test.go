package sources

import (
	"bytes"
	"testing"
)

// indexFuzzLightBytes bounds what FuzzIndexLight reads of an input: a
// short log indexes in microseconds, so the fuzzer spends its time on new
// inputs, not on one long log (or on minimising one).
const indexFuzzLightBytes = 4 << 10

// FuzzIndexLight is FuzzIndex's light twin, the one CI fuzzes
// (scripts/fuzz-all.sh): it indexes any bytes, step records at a time,
// and reads every record back through the index, checking only that the
// index says what it holds, not that it agrees with the Reader. FuzzIndex
// checks that; run it by hand:
//
//	go test ./sources/ -run '^$' -fuzz '^FuzzIndex$' -fuzztime 5m
func FuzzIndexLight(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(2))
	}
	f.Fuzz(func(t *testing.T, data []byte, step uint8) {
		data = data[:min(len(data), indexFuzzLightBytes)]
		x := indexAll(t, data, int(step%8))
		for i := range x.Len() {
			_, _ = x.At(i), x.Type(i)
		}
		recs, err := x.Records(bytes.NewReader(data), 0, x.Len())
		if err != nil {
			t.Fatalf("Records of all %d indexed records: %v", x.Len(), err)
		}
		for i, r := range recs {
			if r.Seq != uint64(i+1) || r.Event == nil {
				t.Fatalf("record %d read back as Seq %d, event %v", i, r.Seq, r.Event)
			}
		}
	})
}

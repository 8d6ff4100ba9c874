package compact_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold/compact"
	"github.com/agentwatch/agentwatch/fold/compact/equiv"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

const (
	samplesDir = "../../testdata/peer/samples"
	goldenDir  = "../../testdata/compact"
)

// readLog reads a log as the CLI does.
func readLog(t testing.TB, raw []byte) []model.Record {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	return recs
}

// sample is a log to test on.
type sample struct {
	name string
	raw  []byte
}

// peerSamples are the reference samples, then the generated ones kept for the peer.
func peerSamples(t testing.TB) []sample {
	t.Helper()
	var out []sample
	for _, dir := range []string{samplesDir, filepath.Join(goldenDir, "gen")} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, sample{name: e.Name(), raw: raw})
		}
	}
	if len(out) < 23 {
		t.Fatalf("only %d samples", len(out))
	}
	return out
}

// law2 checks that out keeps law 2 against in, with the fold as judge.
func law2(t *testing.T, in, out []model.Record, what string) {
	t.Helper()
	if err := equiv.Against(in)(out); err != nil {
		t.Errorf("%s breaks law 2: %v", what, err)
	}
}

// TestLaw2Samples: on every sample, Fixed's output and Compact's keep law 2
// (verify whenever the input does, same messages in the same order, same
// state, by our fold), and Compact never has to fall back to the input.
func TestLaw2Samples(t *testing.T) {
	for _, s := range peerSamples(t) {
		t.Run(s.name, func(t *testing.T) {
			in := readLog(t, s.raw)
			law2(t, in, compact.Fixed(in), "Fixed")
			res, err := compact.Compact(in, equiv.Against(in))
			if err != nil {
				t.Fatal(err)
			}
			if res.Method == compact.MethodUnchanged {
				t.Fatalf("Compact fell back to the input: %v", res.Rejected)
			}
			law2(t, in, res.Records, "Compact ("+string(res.Method)+")")
			t.Logf("%d events -> %d (%s)", len(in), len(res.Records), res.Method)
		})
	}
}

// genSeeds is how many logs of each scenario the law tests generate.
const genSeeds = 60

// TestLaw2Generated: on generated logs with overlapping text, parallel tool
// calls ending in reverse order, interleaved reasoning and runs ending
// mid-stream, Fixed and Compact keep law 2. It also counts how often the
// reference breaks it, to show the logs do reach its faults.
func TestLaw2Generated(t *testing.T) {
	for _, sc := range genScenarios {
		t.Run(sc.name, func(t *testing.T) {
			refBroken, inVerified, fixedUsed := 0, 0, 0
			for seed := range uint64(genSeeds) {
				in := readLog(t, genLog(sc.sc, seed))
				judge := equiv.Against(in)
				if err := judge(compact.Fixed(in)); err != nil {
					t.Errorf("seed %d: Fixed breaks law 2: %v", seed, err)
				}
				if judge(compact.Reference(in)) != nil {
					refBroken++
				}
				if equiv.Fold(in).Verified() {
					inVerified++
				}
				res, err := compact.Compact(in, judge)
				if err != nil {
					t.Fatal(err)
				}
				if res.Method == compact.MethodUnchanged {
					t.Errorf("seed %d: Compact fell back to the input: %v", seed, res.Rejected)
				}
				if res.Method == compact.MethodFixed {
					fixedUsed++
				}
			}
			t.Logf("%d logs (%d verify): the reference breaks law 2 on %d, Compact used Fixed on %d", genSeeds, inVerified, refBroken, fixedUsed)
			if sc.sc != genMixed && refBroken == 0 {
				t.Errorf("no log of this scenario reaches a reference fault")
			}
		})
	}
}

// TestLaw2Reordered: Fixed keeps law 2 on the samples with events moved,
// dropped and copied at random (the fuzz target's reorder, fixed seeds),
// which makes logs that break the rules in every way the samples allow.
func TestLaw2Reordered(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	checked, verified := 0, 0
	for _, s := range peerSamples(t) {
		in := readLog(t, s.raw)
		if len(in) > 400 {
			continue // the big logs take long to fold 80 times over
		}
		for range 80 {
			ops := make([]byte, 2*(1+rnd.IntN(6)))
			for i := range ops {
				ops[i] = byte(rnd.IntN(256))
			}
			recs := reorder(in, ops)
			if equiv.Fold(recs).Verified() {
				verified++
			}
			if err := equiv.Against(recs)(compact.Fixed(recs)); err != nil {
				t.Errorf("%s with ops %v: Fixed breaks law 2: %v", s.name, ops, err)
			}
			checked++
		}
	}
	t.Logf("%d reordered logs (%d verify)", checked, verified)
}

package compact_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

var updateGen = flag.Bool("update-gen", false, "write testdata/compact/gen/ from the generator")

// genSampleSeeds are the generated logs kept as files, so that the peer can
// check them too (testdata/compact/regen.sh).
var genSampleSeeds = []uint64{1, 3}

// TestGenSamples: testdata/compact/gen/ holds exactly what the generator
// makes for genSampleSeeds (regenerate with -update-gen).
func TestGenSamples(t *testing.T) {
	dir := filepath.Join(goldenDir, "gen")
	for _, sc := range genScenarios {
		for _, seed := range genSampleSeeds {
			name := fmt.Sprintf("gen-%s-%d.json", sc.name, seed)
			want := genLog(sc.sc, seed)
			path := filepath.Join(dir, name)
			if *updateGen {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, want, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run testdata/compact/regen.sh)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the generator's output (run testdata/compact/regen.sh)", name)
			}
		}
	}
}

package sources

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"
)

// The index of a session file (Claude Code's, Codex's, Copilot's, Gemini's) gives
// back, by position, the records the session read in order gives (each
// naming its thread), however it is read: all at once, or any range.
func TestIndexSession(t *testing.T) {
	formats := map[string]Format{"claude": FormatClaude, "codex": FormatCodexRollout, "copilot": FormatCopilot, "gemini": FormatGemini}
	for name, fixture := range sessionFixtures {
		t.Run(name, func(t *testing.T) { indexSession(t, fixture, formats[name]) })
	}
}

func indexSession(t *testing.T, fixture string, format Format) {
	data, whole := sessionWhole(t, fixture)
	for _, step := range []int{0, 1, 5} {
		checkIndex(t, fmt.Sprintf("step %d", step), data, step, rand.New(rand.NewPCG(3, 4)))
	}
	x := indexAll(t, data, 0)
	if x.Format() != format {
		t.Fatalf("format %v, want %v", x.Format(), format)
	}
	ra := bytes.NewReader(data)
	for i := 0; i <= len(whole); i++ {
		for j := i; j <= len(whole); j++ {
			got, err := x.Records(ra, i, j)
			if err != nil {
				t.Fatal(err)
			}
			sameRecords(t, fmt.Sprintf("[%d:%d]", i, j), got, whole[i:j])
		}
	}
	// The records compared name their thread: the index must keep it.
	named := 0
	for _, r := range whole {
		if r.Thread != "" {
			named++
		}
	}
	if named == 0 {
		t.Fatal("no record names its thread")
	}
}

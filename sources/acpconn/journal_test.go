package acpconn

import (
	"strings"
	"testing"
)

// A splitter with a maximum drops a line that reaches it, whether its end
// comes in the same write or later, calls tooLong once for it, and cuts
// the lines around it whole, however the bytes are cut into writes.
func TestLineSplitterDropsLongLines(t *testing.T) {
	input := "short\n" + strings.Repeat("a", 9) + "\n" + strings.Repeat("b", 10) + "\nafter\n" + strings.Repeat("c", 25) + "\nlast"
	want := []string{"short", strings.Repeat("a", 9), "after", "last"}
	for chunk := 1; chunk <= len(input); chunk++ {
		var got []string
		tooLong := 0
		s := lineSplitter{max: 10, emit: func(l []byte) { got = append(got, string(l)) }, tooLong: func() { tooLong++ }}
		for i := 0; i < len(input); i += chunk {
			s.feed([]byte(input[i:min(i+chunk, len(input))]))
		}
		s.flush()
		if strings.Join(got, "|") != strings.Join(want, "|") || tooLong != 2 {
			t.Fatalf("writes of %d bytes: lines %q, %d too long; want %q and 2", chunk, got, tooLong, want)
		}
	}
}

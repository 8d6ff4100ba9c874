package lines

import (
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

// Lines cut anywhere come out whole, each once; a last line without its
// newline comes out at Flush, once.
func TestBufferCutsLines(t *testing.T) {
	data := "one\ntwo\n\nthree"
	for k := 0; k <= len(data); k++ {
		var got []string
		line := func(b []byte) []model.Record { got = append(got, string(b)); return nil }
		var b Buffer
		b.Write([]byte(data[:k]), line)
		b.Write([]byte(data[k:]), line)
		b.Flush(line)
		b.Flush(line)
		if len(got) != 4 || got[0] != "one" || got[1] != "two" || got[2] != "" || got[3] != "three" {
			t.Fatalf("cut at %d: %q", k, got)
		}
	}
}

package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// TestTailArrayBigElement follows a JSON array whose second element is
// bigger than a read step and is written in two parts: most of it, then,
// once the tail has read that and found the element unfinished, its last
// bytes alone. The element must arrive whole as soon as its end is written,
// although the last bytes did not double what the tail had of it: the
// tail waits for that only while it has more of the file to read.
func TestTailArrayBigElement(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec.json")
	small := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}`
	if err := os.WriteFile(path, []byte("[\n"+small+",\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	l := startTail(t, path)
	l.waitFor(t, "the first element", func(r []model.Record, _ []TailEvent) bool { return len(r) == 1 })
	text := strings.Repeat("0123456789abcdef", 3*tailDrainStep/16)
	big := `{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"` + text + `"}`
	appendFile(t, path, big[:len(big)-10])
	time.Sleep(300 * time.Millisecond) // several polls: the tail has read it all and tried it
	l.mu.Lock()
	early := len(l.recs)
	l.mu.Unlock()
	if early != 1 {
		t.Fatalf("%d records before the element ended", early)
	}
	appendFile(t, path, big[len(big)-10:]+",\n"+small+"\n]\n")
	l.waitFor(t, "the big element and the last", func(r []model.Record, _ []TailEvent) bool { return len(r) == 3 })
	l.mu.Lock()
	defer l.mu.Unlock()
	if got := string(l.recs[1].Raw); got != big {
		t.Errorf("element 2 is %d bytes, want %d: %.80s…", len(got), len(big), got)
	}
	if got := string(l.recs[2].Raw); got != small {
		t.Errorf("element 3 is %s", got)
	}
}

package gemini_test

import (
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"github.com/agentwatch/agentwatch/protocol/gemini"
)

func fresh() translaws.Writer { return gemini.New() }

// A session file appended a piece at a time, its lines torn anywhere, folds to
// what it folds to read whole.
func TestSplitsFoldAlike(t *testing.T) {
	translaws.SplitsFoldAlike(t, readFixture(t), fresh)
}

// A last line without its newline is read by Flush, not before.
func TestFlushReadsTheLastLine(t *testing.T) {
	translaws.FlushReadsTheLastLine(t, []byte(`{"sessionId":"s","projectHash":"p"}`+"\n"+`{"id":"u","timestamp":"2026-04-20T09:15:09.402Z","type":"user","content":[{"text":"hi"}]}`), fresh)
}

package codex_test

import (
	"bytes"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"github.com/agentwatch/agentwatch/protocol/codex"
)

func fresh() translaws.Writer { return codex.New() }

// A rollout appended a piece at a time, its lines torn anywhere, folds to
// what it folds to read whole.
func TestSplitsFoldAlike(t *testing.T) {
	translaws.SplitsFoldAlike(t, readFixture(t), fresh)
}

// A last line without its newline is read by Flush, not before.
func TestFlushReadsTheLastLine(t *testing.T) {
	translaws.FlushReadsTheLastLine(t, bytes.TrimRight(readFixture(t), "\n"), fresh)
}

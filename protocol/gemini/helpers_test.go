package gemini_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// chats is the fixture's chats folder.
var chats = filepath.Join("..", "..", "testdata", "gemini", "tmp",
	"e828acfc792e3bbcd2a6c6c35323cb44b7b438741c168c8ec59aefe347f193bb", "chats")

// fixture is the sample session: three runs (the second rewound away),
// upserted messages, parallel calls, thoughts, info, error, a summary.
var fixture = filepath.Join(chats, "session-2026-04-20T09-15-8e2b7c14.jsonl")

// subagentFixture is the file of the subagent the fixture's
// codebase_investigator call ran.
var subagentFixture = filepath.Join(chats, "8e2b7c14-3f5a-4d9e-b1c6-0a7f2e9d4c31", subagentID+".jsonl")

// subagentID is that subagent's id (its session id, the call's agentId).
const subagentID = "c41d9a77-2b8e-4f03-9d6a-5e1f7b3a0c92"

// fixtureThread is the fixture's session id.
const fixtureThread = "8e2b7c14-3f5a-4d9e-b1c6-0a7f2e9d4c31"

func readFixture(t testing.TB) []byte { return translaws.ReadFile(t, fixture) }

// translate reads a whole session file.
func translate(b []byte) []model.Record { return translaws.Translate(gemini.New(), b) }

// foldAll folds records into one fold and fails on a diagnostic.
func foldAll(t testing.TB, recs []model.Record) *fold.Fold { return translaws.Fold(t, recs) }

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

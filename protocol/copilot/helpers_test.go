package copilot_test

import (
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/copilot"
)

// fixtureThread is the fixture's session id.
const fixtureThread = "5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40"

// fixture is the sample session: two runs with every kind of event the
// translation handles, and one it does not know.
var fixture = filepath.Join("..", "..", "testdata", "copilot", "session-state", fixtureThread, "events.jsonl")

func readFixture(t testing.TB) []byte { return translaws.ReadFile(t, fixture) }

// translate reads a whole session file.
func translate(b []byte) []model.Record { return translaws.Translate(copilot.New(), b) }

// foldAll folds records into one fold and fails on a diagnostic.
func foldAll(t testing.TB, recs []model.Record) *fold.Fold { return translaws.Fold(t, recs) }

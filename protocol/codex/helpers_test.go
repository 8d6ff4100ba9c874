package codex_test

import (
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/codex"
)

// fixture is the sample rollout: a session of four turns with every kind
// of line the translation handles (the last spawns a subagent, whose own
// rollout is beside it).
var fixture = filepath.Join("..", "..", "testdata", "codex", "sessions", "2026", "02", "23",
	"rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl")

// fixtureThread is the fixture's session id.
const fixtureThread = "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"

func readFixture(t testing.TB) []byte { return translaws.ReadFile(t, fixture) }

// translate reads a whole rollout.
func translate(b []byte) []model.Record { return translaws.Translate(codex.New(), b) }

// foldAll folds records into one fold and fails on a diagnostic.
func foldAll(t testing.TB, recs []model.Record) *fold.Fold { return translaws.Fold(t, recs) }

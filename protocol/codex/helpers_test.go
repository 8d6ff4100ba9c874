package codex_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
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

func readFixture(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// translate reads a whole rollout.
func translate(b []byte) []model.Record {
	tr := codex.New()
	return append(tr.Write(b), tr.Flush()...)
}

// foldAll folds records into one fold and fails on a diagnostic.
func foldAll(t testing.TB, recs []model.Record) *fold.Fold {
	t.Helper()
	f := fold.New(fold.Options{})
	if _, err := f.Apply(recs...); err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Diagnostics() {
		t.Errorf("diagnostic: %+v", d)
	}
	return f
}

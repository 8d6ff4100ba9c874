package copilot_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/copilot"
)

// fixtureThread is the fixture's session id.
const fixtureThread = "5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40"

// fixture is the sample session: two runs with every kind of event the
// translation handles, and one it does not know.
var fixture = filepath.Join("..", "..", "testdata", "copilot", "session-state", fixtureThread, "events.jsonl")

func readFixture(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// translate reads a whole session file.
func translate(b []byte) []model.Record {
	tr := copilot.New()
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

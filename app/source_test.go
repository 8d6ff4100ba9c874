package app

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
)

// Identify tells every kind of argument apart, and a folder's files are
// each identified on their own: messages files and ACP recordings read
// whole, event logs left to be read or followed.
func TestIdentify(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "events.jsonl")
	if err := os.WriteFile(log, loggen.Generate(500, 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		arg  string
		kind Kind
	}{
		{"", KindDemo},
		{"-", KindStdin},
		{"https://agent.example/run", KindURL},
		{dir, KindFolder},
		{filepath.Join(dir, "*.jsonl"), KindFolder},
		{log, KindEventLog},
		{filepath.Join(dir, "not-yet.jsonl"), KindEventLog},
		{"../testdata/acp/coding-session.jsonl", KindEventLog}, // an ACP recording is read as it goes
		{"../testdata/messages/aisdk-coding-agent.json", KindMessages},
		{"../testdata/messages/agui-snapshot.json", KindMessages},
	} {
		src, err := New(&Options{}).Identify(c.arg)
		if err != nil || src.Kind != c.kind {
			t.Errorf("Identify(%q) = %v, %v; want %v", c.arg, src, err, c.kind)
		}
	}
	if _, err := New(&Options{}).Identify("../testdata/messages/aisdk-broken-tool.json"); err == nil {
		t.Error("a broken messages file: want an error naming the part")
	}
	for path, whole := range map[string]bool{
		log:                                    false,
		"../testdata/acp/coding-session.jsonl": false,
		"../testdata/messages/agui-snapshot.json":      true,
		"../testdata/messages/aisdk-coding-agent.json": true,
	} {
		if recs, ok := New(&Options{}).WholeFile(path); ok != whole || (ok && len(recs) == 0) {
			t.Errorf("WholeFile(%s) = %d records, %v; want %v", path, len(recs), ok, whole)
		}
	}
}

package sources

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentwatch/agentwatch/protocol/copilot"
)

var copilotFixture = filepath.Join("..", "testdata", "copilot", "session-state",
	"5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40", "events.jsonl")

// A Copilot CLI session file is told from its first line and read as the
// translation of its lines, numbered in order, each naming the session's
// thread.
func TestReadCopilotSession(t *testing.T) {
	b, err := os.ReadFile(copilotFixture)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadAll(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := copilot.New()
	want := append(tr.Write(b), tr.Flush()...)
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, rec := range recs {
		if rec.Seq != uint64(i+1) || !bytes.Equal(rec.Raw, want[i].Raw) || rec.Thread != tr.Thread() || !rec.At.Equal(want[i].At) {
			t.Fatalf("record %d = %d %s %q, want %s", i, rec.Seq, rec.Raw, rec.Thread, want[i].Raw)
		}
	}
	fr := NewReader(bytes.NewReader(b))
	if _, err := fr.Next(); err != nil || fr.Format() != FormatCopilot {
		t.Fatalf("format %v (%v), want %v", fr.Format(), err, FormatCopilot)
	}
	// A last line cut short is waited for: the records are those of the
	// lines before it, and no problem.
	cut := b[:len(b)-40]
	part, err := ReadAll(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	tr = copilot.New()
	if wantPart := tr.Write(cut); len(part) != len(wantPart) {
		t.Fatalf("cut short: %d records, want %d", len(part), len(wantPart))
	}
}

// What tells a Copilot session file: its first line's type is
// session.start beside a member of Copilot's event envelope, even when
// the line is cut short after them.
func TestLooksLikeCopilotSession(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`{"type":"session.start","data":{"sessionId":"x","version":1},"id":"e","timestamp":"t","parentId":null}`, true},
		{`{"type":"session.start","data":{"sessionId":"x","context":{"cwd":"/ho`, true},
		{`{"id":"e","type":"session.start"}`, true},
		{`{"type":"session.start"}`, false},
		{`{"type":"user.message","data":{"content":"hi"},"id":"e"}`, false},
		{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, false},
		{`{"timestamp":"t","type":"session_meta","payload":{}}`, false},
		{`[`, false},
	} {
		if got := LooksLikeCopilotSession([]byte(c.line)); got != c.want {
			t.Errorf("%s: %v, want %v", c.line, got, c.want)
		}
	}
}

package sources

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/codex"
)

var codexFixture = filepath.Join("..", "testdata", "codex", "sessions", "2026", "02", "23",
	"rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl")

// A rollout is told from its first line and read as the translation of
// its lines, numbered in order, each naming the session's thread.
func TestReadCodexRollout(t *testing.T) {
	b, err := os.ReadFile(codexFixture)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadAll(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := codex.New()
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
	if _, err := fr.Next(); err != nil || fr.Format() != FormatCodexRollout {
		t.Fatalf("format %v (%v), want %v", fr.Format(), err, FormatCodexRollout)
	}
}

// What tells a rollout: its first line's type is session_meta beside a
// timestamp, even when the line is cut short after them.
func TestLooksLikeCodexRollout(t *testing.T) {
	for _, c := range []struct {
		line string
		want bool
	}{
		{`{"timestamp":"2026-02-23T11:54:52.352Z","type":"session_meta","payload":{"id":"x"}}`, true},
		{`{"timestamp":"2026-02-23T11:54:52.352Z","type":"session_meta","payload":{"base_instructions":{"text":"…`, true},
		{`{"type":"session_meta","timestamp":"t"}`, true},
		{`{"timestamp":"t","type":"response_item","payload":{}}`, false},
		{`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`, false},
		{`{"type":"session_meta"}`, false},
		{`[`, false},
	} {
		if got := LooksLikeCodexRollout([]byte(c.line)); got != c.want {
			t.Errorf("%s: %v, want %v", c.line, got, c.want)
		}
	}
}

// A rollout cut inside its last line says so, after everything before it.
func TestCodexRolloutCutShort(t *testing.T) {
	b, err := os.ReadFile(codexFixture)
	if err != nil {
		t.Fatal(err)
	}
	whole, _ := ReadAll(bytes.NewReader(b))
	cut := b[:len(b)-20]
	recs, err := ReadAll(bytes.NewReader(cut))
	if err != nil {
		t.Fatal(err)
	}
	last := recs[len(recs)-1]
	if _, ok := last.Event.(*model.Unreadable); !ok {
		t.Fatalf("last record %s, want an unreadable one", last.Raw)
	}
	for i := range recs[:len(recs)-1] {
		if !bytes.Equal(recs[i].Raw, whole[i].Raw) {
			t.Fatalf("record %d of the cut rollout is %s, read whole %s", i+1, recs[i].Raw, whole[i].Raw)
		}
	}
}

// A rollout Codex compressed (rollout-*.jsonl.zst) reads as the rollout.
func TestReadCodexRolloutZstd(t *testing.T) {
	b, err := os.ReadFile(codexFixture)
	if err != nil {
		t.Fatal(err)
	}
	enc, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	z := enc.EncodeAll(b, nil)
	want, _ := ReadAll(bytes.NewReader(b))
	got, err := ReadAll(bytes.NewReader(z))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d records, want %d", len(got), len(want))
	}
	for i := range got {
		if !bytes.Equal(got[i].Raw, want[i].Raw) {
			t.Fatalf("record %d = %s, want %s", i+1, got[i].Raw, want[i].Raw)
		}
	}
}

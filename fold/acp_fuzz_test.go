package fold_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// acpFuzzRecords reads fuzz input as ACP traffic: one message a line, a
// line starting with '>' sent by the client, any other received from the
// agent.
func acpFuzzRecords(data []byte) []model.Record {
	var recs []model.Record
	t0 := time.UnixMilli(1764500000000).UTC()
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(recs) == fuzzMaxLines {
			break
		}
		dir := acp.Recv
		if len(line) > 0 && line[0] == '>' {
			dir, line = acp.Send, line[1:]
		}
		recs = append(recs, model.Record{Seq: uint64(len(recs) + 1), Proto: model.ProtoACP, Raw: line,
			Event: acp.DecodeDir(line, dir), At: t0.Add(time.Duration(i) * 7 * time.Millisecond)})
	}
	return recs
}

// FuzzACPFold folds arbitrary ACP traffic: it never panics, its state
// always exports, and a fold restored from the export at the middle and
// folded on ends where the uninterrupted fold ends, as does one restored
// from an in-memory checkpoint; shedding keeps its laws (fuzzCheckShed).
// Too slow for CI's few seconds, it is run by hand; CI fuzzes
// FuzzACPFoldLight.
func FuzzACPFold(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/acp/*.jsonl")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		var seed []byte
		for line := range bytes.SplitSeq(bytes.TrimSpace(b), []byte("\n")) {
			l, err := acp.ParseLine(line)
			if err != nil {
				continue
			}
			if l.Dir == acp.Send {
				seed = append(seed, '>')
			}
			seed = append(append(seed, l.Msg...), '\n')
		}
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := acpFuzzRecords(data)
		all := fold.New(fold.Options{})
		all.Apply(recs...)
		want := export(t, all)

		k := len(recs) / 2
		head := fold.New(fold.Options{})
		head.Apply(recs[:k]...)
		snap, err := head.Export()
		if err != nil {
			t.Fatal(err)
		}
		cp := head.Checkpoint()
		tail := fold.New(fold.Options{})
		if err := tail.Restore(snap); err != nil {
			t.Fatal(err)
		}
		tail.Apply(recs[k:]...)
		if !bytes.Equal(export(t, tail), want) {
			t.Fatal("restored fold differs from the uninterrupted fold")
		}
		head.Apply(recs[k:]...)
		again := fold.FromCheckpoint(cp, fold.Options{})
		again.Apply(recs[k:]...)
		if !bytes.Equal(export(t, head), want) || !bytes.Equal(export(t, again), want) {
			t.Fatal("a fold that took or restored a checkpoint differs from the uninterrupted fold")
		}
		fuzzCheckShed(t, recs, all, fuzzChecksum(data))
	})
}

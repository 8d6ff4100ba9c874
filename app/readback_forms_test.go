package app

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/claudegen"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/window"
)

// tailAsScreen tails the file at path to its end as the screen does,
// handing each batch to a window whose reader is a's, and folds them: the
// threads, and the reader the window made for the file.
func tailAsScreen(t *testing.T, a *App, path string) (*fold.Threads, *fileReader) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tail, events := sources.TailBatches(ctx, path, sources.TailOptions{Poll: 10 * time.Millisecond})
	go func() {
		for range events {
		}
	}()
	var reader *fileReader
	readers := a.fileReaders(func(s string) string { return s })
	w := window.New(window.Options{Reader: func(source string) window.Reader {
		reader = readers(source).(*fileReader)
		return reader
	}})
	ts := fold.NewThreads(fold.Options{})
	for b := range tail {
		w.Read(b)
		ts.Apply(b.Source, b.Records...)
		if b.Size == st.Size() && b.Read >= b.Size {
			cancel()
		}
	}
	if ctx.Err() == context.DeadlineExceeded || reader == nil || reader.had.Load() == nil {
		t.Fatalf("the tail did not read %s to its end, or the window made no reader told of it", path)
	}
	return ts, reader
}

// What a read back folds is checked against what the screen folded, in
// every form a file is tailed in: the tail's records and those read back
// through the index are the same records, so nothing the file still holds
// counts as rewritten, and every record is checked.
func TestReadBackCheckedInEveryForm(t *testing.T) {
	dir := t.TempDir()
	jsonl := loggen.Generate(6_000, 8)
	lines := bytes.Split(bytes.TrimSpace(jsonl), []byte("\n"))
	array := append(append([]byte("[\n"), bytes.Join(lines, []byte(",\n"))...), "\n]\n"...)
	sessions, err := claudegen.Write(filepath.Join(dir, "claude"), claudegen.Options{Sessions: 1, Projects: 1, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	forms := map[string]string{"claude session": sessions[0].Path}
	for name, log := range map[string][]byte{"jsonl": jsonl, "array": array} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, log, 0o644); err != nil {
			t.Fatal(err)
		}
		forms[name] = p
	}
	for name, path := range forms {
		t.Run(name, func(t *testing.T) {
			a := New(&Options{})
			ts, r := tailAsScreen(t, a, path)
			if ts.Len() == 0 {
				t.Fatal("the tail folded no thread")
			}
			th := ts.List()[0]
			made := th.Fold.ItemsMade()
			if made < 3 {
				t.Fatalf("the thread made %d items: nothing to read back", made)
			}
			got, err := r.Items(window.ItemsWanted{Source: path, Thread: th.ID, Step: -1, From: 1, To: made, Max: int(made)})
			if err != nil || len(got.Items) != int(made-1) {
				t.Fatalf("items 1 to %d read back: %d, %v", made, len(got.Items), err)
			}
			x := indexOf(t, a, path)
			if had := r.had.Load().Len(); had != x.Len() {
				t.Errorf("the screen folded %d records, the index holds %d: not every record read back is checked", had, x.Len())
			}
		})
	}
}

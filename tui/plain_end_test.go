package tui

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
)

// cutLog is a run whose second message has no end: the log stops in it.
const cutLog = `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"All tests pass."}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"Next I will remove\nthe build folder"}
`

// A message without its end is printed, marked unfinished, when the source
// ends, once; a finished one is not printed again.
func TestPlainFinishPrintsUnfinishedMessage(t *testing.T) {
	f := fold.New(fold.Options{})
	var out bytes.Buffer
	p := NewPlainPrinter(&out, f)
	for _, r := range readPlainLog(t, []byte(cutLog)) {
		u, _ := f.Apply(r)
		if err := p.Print(u); err != nil {
			t.Fatal(err)
		}
	}
	if strings.Contains(out.String(), "remove") {
		t.Fatalf("the open message printed before the end:\n%s", out.String())
	}
	for range 2 {
		if err := p.Finish(); err != nil {
			t.Fatal(err)
		}
	}
	want := "run r started\nagent: All tests pass.\nagent (unfinished): Next I will remove…\n"
	if out.String() != want {
		t.Fatalf("printed:\n%s\nwant:\n%s", out.String(), want)
	}
}

// A source that starts over leaves its open messages unfinished: they are
// printed before the line that says so.
func TestThreadsPrinterStartOverFinishes(t *testing.T) {
	ts := fold.NewThreads(fold.Options{})
	var out bytes.Buffer
	p := NewThreadsPrinter(&out, ts, false)
	if err := p.Print(ts.Apply("run.jsonl", readPlainLog(t, []byte(cutLog))...)); err != nil {
		t.Fatal(err)
	}
	if err := p.StartOver("run.jsonl", ts.Forget("run.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := p.Finish(); err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	want := []string{"== thread t ==", "run r started", "agent: All tests pass.", "agent (unfinished): Next I will remove…", "== run.jsonl started over (truncated or replaced) =="}
	if !slices.Equal(got, want) {
		t.Fatalf("printed:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// A file that started over is told in the title bar until content came
// after it, and for restartNoteFor at least; then the title drops it.
func TestRestartNoteGoesWithNewContent(t *testing.T) {
	recs := demoRecords(t)
	now := recs[len(recs)-1].At
	d := newThreadsApp(t, 160, 48, AppOptions{Title: "run", Layout: LayoutSheet, Now: func() time.Time { return now }},
		model.Batch{Source: "logs/run.jsonl", Records: recs[:100], Read: 10, Size: 10})
	const note = "run.jsonl started over (cut or replaced)"
	if strings.Contains(titleBar(d.App), note) {
		t.Fatalf("title bar %q before any restart", titleBar(d.App))
	}
	d.feed(t, model.Batch{Source: "logs/run.jsonl", Restart: true})
	if !strings.Contains(titleBar(d.App), note) {
		t.Fatalf("title bar %q after the restart", titleBar(d.App))
	}
	// Minutes pass without new content: the note stays.
	now = now.Add(10 * time.Minute)
	d.Update(quietTickMsg{})
	if !strings.Contains(titleBar(d.App), note) {
		t.Fatalf("title bar %q: the note went before new content came", titleBar(d.App))
	}
	// New content: the note goes.
	d.feed(t, model.Batch{Source: "logs/run.jsonl", Records: recs[:50], Read: 5, Size: 10})
	if top := titleBar(d.App); strings.Contains(top, "started over") {
		t.Fatalf("title bar %q after new content", top)
	}

	// Cut and written again at once: told for restartNoteFor, then not.
	d.feed(t, model.Batch{Source: "logs/run.jsonl", Restart: true}, model.Batch{Source: "logs/run.jsonl", Records: recs[:60], Read: 6, Size: 10})
	if !strings.Contains(titleBar(d.App), note) {
		t.Fatalf("title bar %q right after a restart with content", titleBar(d.App))
	}
	now = now.Add(restartNoteFor)
	d.Update(quietTickMsg{})
	if top := titleBar(d.App); strings.Contains(top, "started over") {
		t.Fatalf("title bar %q %v after the restart", top, restartNoteFor)
	}
}

package app

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/sources"
	"github.com/agentwatch/agentwatch/tui"
)

// screenListsFolder follows the folder dir of files logs as the screen
// does (sources.FollowFolder, then liveOTLP), and runs a screen on it as
// its program would, a frame drawn after each message, until every file's
// thread is listed: how many messages that took, and how long.
func screenListsFolder(tb testing.TB, dir string, files int) (updates int, took time.Duration) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	start := time.Now()
	out, events := sources.FollowFolder(ctx, dir, sources.FolderOptions{})
	go func() {
		for range events {
		}
	}()
	screen := tui.NewThreadsApp(fold.NewThreads(fold.Options{}), liveOTLP(ctx, &Options{}, out), tui.AppOptions{})
	screen.Update(tea.WindowSizeMsg{Width: 160, Height: 50})
	queue := []tea.Cmd{screen.Init()}
	for len(queue) > 0 && screen.Threads().Len() < files {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg := c()
		if b, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		if msg == nil {
			continue
		}
		_, next := screen.Update(msg)
		screen.View()
		updates++
		queue = append(queue, next)
		if ctx.Err() != nil {
			tb.Fatalf("%d of %d threads listed in 10 minutes", screen.Threads().Len(), files)
		}
	}
	return updates, time.Since(start)
}

// The screen of a folder takes its files' first batches in bursts, as
// many as are ready a frame, not one file a frame: a folder of 10,000
// logs took 301 s to list, against 2.2 s for agentwatch threads.
func TestScreenListsAFolderInBursts(t *testing.T) {
	const files = 1000
	dir := t.TempDir()
	if err := loggen.WriteThreadFolder(dir, 10*files, files, 3); err != nil {
		t.Fatal(err)
	}
	if updates, _ := screenListsFolder(t, dir, files); updates > files/4 {
		t.Fatalf("the screen took %d messages to list %d logs; want a burst of many a message", updates, files)
	}
}

// BenchmarkScreenListsFolder is the screen's first listing of a folder of
// 10,000 small logs (loggen's thread folder of 100,000 events), from the
// folder's follow to every thread listed.
//
//	go test ./app/ -run '^$' -bench ScreenListsFolder -benchtime 3x
func BenchmarkScreenListsFolder(b *testing.B) {
	const files = 10_000
	dir := b.TempDir()
	if err := loggen.WriteThreadFolder(dir, 10*files, files, 3); err != nil {
		b.Fatal(err)
	}
	var updates int
	var took time.Duration
	for b.Loop() {
		u, d := screenListsFolder(b, dir, files)
		updates += u
		took += d
	}
	b.ReportMetric(took.Seconds()/float64(b.N), "s-to-list")
	b.ReportMetric(float64(updates)/float64(b.N), "frames")
}

package serve

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/app"
	"github.com/agentwatch/agentwatch/fold"
)

// A viewer joining after the hub let go of the log's start takes up the
// hub's checkpoint: it sees the newest step as a viewer who watched from
// the start sees it, and reads the first step, which the hub let go of,
// back from the file.
func TestLateViewerReadsBackFromTheFile(t *testing.T) {
	window, keep := hubWindow, hubKeep
	hubWindow = windowLimit{records: 40, bytes: 1 << 30}
	hubKeep = fold.Keep{Items: 100, Content: 20, Skeletons: 200, Tombstones: fold.TombstonesRecent}
	t.Cleanup(func() { hubWindow, hubKeep = window, keep })

	// Over 4,096 records: the file's read-back index (app) folds nothing
	// of a file it reads in its first chunk.
	log := newGrowingLog(t, t.TempDir(), 3)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	opts := &app.Options{Layout: "auto", Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard}
	show, err := OpenShow(ctx, app.New(opts), []string{log.path}, ShowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ts := startShow(t, show, Config{}, nil)
	early := ts.view(t, ts.allowed, 160, 48)
	early.waitFor(stepOf(3, 3))
	log.add(1100)
	early.waitFor(stepOf(1103, 1103), "echo probe-1103")
	join := show.(*liveShow).hub.joinNow().threads
	if join == nil {
		t.Fatal("after 1,100 steps the hub kept no checkpoint")
	}
	// What a viewer joining now takes up has let go of the first steps:
	// the late viewer can only show step 1 by reading it back.
	made, _ := join.ItemsMade(log.path, "thread-1")
	if kept := len(join.Items(log.path, "thread-1")); uint64(kept) > made/2 {
		t.Fatalf("the hub's checkpoint keeps %d of the %d items made", kept, made)
	}

	late := ts.view(t, ts.allowed, 160, 48)
	late.waitFor(stepOf(1103, 1103), "echo probe-1103")
	late.send(keyHome)
	late.waitFor(stepOf(1, 1103), "echo probe-1")
	log.add(1)
	late.waitFor(stepOf(1, 1104))
	early.waitFor(stepOf(1104, 1104))
}

package app

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/agentwatch/agentwatch/sources"
)

// A followed file that cannot be opened is said, with how many and why, in
// the title bar's words until it opens, and on standard error without a
// screen.
func TestFolderStatusSaysWhatCannotBeOpened(t *testing.T) {
	events := make(chan sources.FolderEvent)
	var warned bytes.Buffer
	status := folderStatus(events, &warned)
	emfile := &os.PathError{Op: "open", Path: "/logs/b.jsonl", Err: syscall.EMFILE}
	say := func(ev sources.FolderEvent) string {
		events <- ev
		return <-status
	}
	say(sources.FolderEvent{Path: "/logs/a.jsonl", Added: true})
	say(sources.FolderEvent{Path: "/logs/b.jsonl", Added: true})
	if got := say(sources.FolderEvent{Path: "/logs/b.jsonl", Event: sources.TailUnopened, Unopened: emfile}); got != "2 logs · 1 cannot be opened: too many open files" {
		t.Fatalf("status %q", got)
	}
	if got := warned.String(); !strings.Contains(got, "cannot open /logs/b.jsonl: too many open files") {
		t.Fatalf("standard error %q", got)
	}
	if got := say(sources.FolderEvent{Path: "/logs/b.jsonl", Event: sources.TailFollowing}); got != "2 logs" {
		t.Fatalf("once it opened, status %q", got)
	}
	close(events)
}

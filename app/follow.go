package app

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/agentwatch/agentwatch/internal/sanitize"

	"github.com/agentwatch/agentwatch/model"

	"github.com/agentwatch/agentwatch/sources"
)

// Follow shows a source and what is appended to it (sources.Tail), with
// the tail's state in the title bar, until ctx ends or the screen quits.
// The screen of a big log takes up where the last screen of it left off
// (resume.go). A folder or a glob is followed with FollowFolder. An OTLP
// file of a request per line is mapped line by line as it grows
// (liveOTLP); one written out pretty has no lines to follow and opens
// for review, as agentwatch FILE does. Nothing reads the source's head
// again: what identifying it learned is on src.
func (a *App) Follow(ctx context.Context, src *Source) error {
	opts := a.Options
	switch {
	case src.Kind == KindFolder:
		return a.FollowFolder(ctx, src)
	case src.Kind == KindOTLP && !src.PerLine:
		if err := withToolKinds(opts, src); err != nil {
			return err
		}
		return a.reviewMessages(src)
	}
	var rv *resumeView
	if src.Found && opts.screen() && !opts.Plain {
		tuneForScreen(src.Size)
		if src.Regular {
			rv = a.resumeFor(src)
		}
	}
	batches, status := rv.follow(ctx, opts, src.Arg)
	return a.watch(ctx, src.Arg, liveOTLP(ctx, opts, batches), status, false, rv, nil, nil, nil)
}

// tailStatuses says each tail event in the words of the title bar.
func tailStatuses(events <-chan sources.TailEvent) <-chan string {
	status := make(chan string, 8)
	go func() {
		defer close(status)
		for ev := range events {
			status <- tailStatus(ev)
		}
	}()
	return status
}

// tailStatus says a tail event in the words of the title bar: only that
// the file is not there yet, or cannot be opened. Whether the file is
// live is the screen's to say, from what it holds; that it started over,
// too, from the batch that says so (model.Batch.Restart), until content
// comes after it.
func tailStatus(ev sources.TailEvent) string {
	switch ev {
	case sources.TailWaiting:
		return "waiting for the file"
	case sources.TailUnopened:
		return "cannot open the file; trying again when it changes"
	}
	return ""
}

// FollowFolder shows every log in a folder (or matching a glob: src is a
// KindFolder) and what
// is appended to them, each file's threads apart; files created meanwhile
// join, and the title bar counts the logs followed.
func (a *App) FollowFolder(ctx context.Context, src *Source) error {
	opts := a.Options
	if opts.screen() && !opts.Plain {
		tuneForScreen(src.Size)
	}
	fo := a.folderOptions(src)
	var open func(string)
	if src.glance {
		open = glanceOptions(ctx, &fo)
	}
	batches, events := sources.FollowFolder(ctx, src.followed(), fo)
	if src.glance {
		batches = src.projects.noting(ctx, batches)
		if src.agents != nil {
			w := *src.agents
			w.changed = src.projects.changedAt
			src.agents = &w
		}
	}
	var states <-chan model.AgentStates
	if opts.screen() && !opts.Plain {
		states = agentStates(ctx, src.agents, src.projects.paths, time.Now, agentsEvery)
	}
	return a.watch(ctx, src.Arg, liveOTLP(ctx, opts, batches), folderStatus(events, a.headlessWarnings()), true, nil, src.projects.project, states, open)
}

// folderOptions are how the folder src is followed: its files there when
// it was identified are judged by what their heads said then, and a file
// that comes later is looked at through a's openHead, as identifying does;
// what it passes over it never reports.
func (a *App) folderOptions(src *Source) sources.FolderOptions {
	return sources.FolderOptions{Whole: a.followedWhole(src), Known: src.verdicts, OpenHead: a.openHead, Ignore: src.ignore, Also: src.also}
}

// folderStatus says how a followed folder is doing, in the words of the
// title bar: how many logs are followed and skipped, how many cannot be
// opened now and why, and the latest note. warn, when not nil (no screen
// shows the title bar), is told of each file that cannot be opened.
func folderStatus(events <-chan sources.FolderEvent, warn io.Writer) <-chan string {
	status := make(chan string, 8)
	go func() {
		defer close(status)
		followed, skipped, note := 0, 0, ""
		unopened := map[string]string{} // why, by path
		why := ""
		take := func(ev sources.FolderEvent) {
			switch {
			case ev.Added:
				followed++
			case ev.Skipped != "":
				skipped++
			case ev.Err != nil:
				note = "cannot list: " + ev.Err.Error()
			case ev.Event == sources.TailUnopened:
				why = "cannot open"
				if ev.Unopened != nil {
					why = errCause(ev.Unopened)
				}
				unopened[ev.Path] = why
				if warn != nil {
					fmt.Fprintln(warn, "agentwatch:", sanitize.Plain(fmt.Sprintf("cannot open %s: %s; it is tried again when it changes", ev.Path, why)))
				}
			case ev.Event == sources.TailFollowing:
				delete(unopened, ev.Path)
			}
		}
		// A folder of a thousand logs starts with a thousand events: what
		// is ready is taken in before the title bar is told, once.
		for ev := range events {
			take(ev)
		more:
			for {
				select {
				case ev, ok := <-events:
					if !ok {
						break more
					}
					take(ev)
				default:
					break more
				}
			}
			text := Plural(followed, "log")
			if skipped > 0 {
				text += " · " + strconv.Itoa(skipped) + " skipped"
			}
			if len(unopened) > 0 {
				text += " · " + strconv.Itoa(len(unopened)) + " cannot be opened: " + why
			}
			if note != "" {
				text += " · " + note
				note = ""
			}
			status <- text
		}
	}()
	return status
}

// Plural is n things with the plural right, as the words on screen and in
// messages say them: "1 log", "12 logs".
func Plural(n int, one string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + one + "s"
}

// headlessWarnings is where a followed folder's warnings go when no
// screen shows them: standard error, for --plain and output that is not
// a terminal; nil on the screen, whose title bar says them.
func (a *App) headlessWarnings() io.Writer {
	if a.Plain || !a.screen() {
		return a.Stderr
	}
	return nil
}

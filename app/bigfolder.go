package app

// This file lists a big folder of Claude Code sessions cheaply: on the
// screen, each session is glanced at (its head and tail, read by the
// folder's follower: sources.FolderOptions.Glance) and listed from what
// that says; it is folded only when it is opened. Identifying the folder
// reads no file, and the per-second state check asks what the follower
// saw of each file rather than looking at it (agents.go).

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/claude"
	"github.com/agentwatch/agentwatch/sources"
)

// glancing reports whether a folder of sessions identified now is listed
// from glances: on the screen (the headless views read every session to
// its end anyway), or always for a test's App.
func (a *App) glancing() bool {
	return a.glanceAlways || (a.screen() && !a.Plain)
}

// listGlanced makes src the folder of the session files paths without
// reading them: each regular file is a member, glanced at when followed.
func listGlanced(src *Source, paths []string) {
	src.glance = true
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || !st.Mode().IsRegular() {
			continue
		}
		src.Size += st.Size()
		src.Files = append(src.Files, p)
	}
}

// glanceOptions sets fo to glance at Claude Code session files, and
// returns what asks for one to be folded: it hands the path to the
// follower without waiting.
func glanceOptions(ctx context.Context, fo *sources.FolderOptions) func(string) {
	opens := make(chan string)
	var queue []string
	asks := make(chan string, 16)
	go func() { // the screen's asks wait here, never on the follower
		for {
			var send chan<- string
			var next string
			if len(queue) > 0 {
				send, next = opens, queue[0]
			}
			select {
			case p := <-asks:
				queue = append(queue, p)
			case send <- next:
				queue = queue[1:]
			case <-ctx.Done():
				return
			}
		}
	}()
	fo.Glance = glanceClaude
	fo.Open = opens
	fo.Whole = nil // a session file is never a messages file
	return func(path string) {
		select {
		case asks <- path:
		case <-ctx.Done():
		}
	}
}

// glanceClaude is what the head and tail of a Claude Code session file
// say of it; a file whose lines name no session is not glanced at, but
// tailed.
func glanceClaude(_ string, head, tail []byte) (model.Glance, bool) {
	g := claude.Glance(head, tail)
	return g, g.ID != "" || len(head)+len(tail) == 0
}

// noting passes batches on, learning from each glance its session's
// project and when its file last changed, and from each batch of records
// when its file last did, before the screen gets them.
func (p *projectLabels) noting(ctx context.Context, batches <-chan model.Batch) <-chan model.Batch {
	out := make(chan model.Batch, cap(batches))
	go func() {
		defer close(out)
		for b := range batches {
			switch {
			case b.Glance != nil:
				project := b.Glance.Project
				if project == "" {
					project = filepath.Base(filepath.Dir(b.Source))
				}
				p.note(b.Source, project, b.Glance.Modified)
			case len(b.Records) > 0:
				p.note(b.Source, "", b.Records[len(b.Records)-1].At)
			}
			select {
			case out <- b:
			case <-ctx.Done():
				for range batches {
				}
				return
			}
		}
	}()
	return out
}

// note notes the project of the session file at path ("" keeps the one
// known) and that it changed at at (a zero at changes nothing).
func (p *projectLabels) note(path, project string, at time.Time) {
	path = filepath.Clean(path)
	p.mu.Lock()
	defer p.mu.Unlock()
	if project != "" || p.of[path] == "" {
		if project == "" {
			project = filepath.Base(filepath.Dir(path))
		}
		p.of[path] = project
	}
	if p.changed == nil {
		p.changed = map[string]time.Time{}
	}
	if !at.IsZero() && at.After(p.changed[path]) {
		p.changed[path] = at
	}
}

// changedAt is when the session file at path last changed as its glances
// and records said; ok is false for a file not seen yet.
func (p *projectLabels) changedAt(path string) (time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	at, ok := p.changed[filepath.Clean(path)]
	return at, ok
}

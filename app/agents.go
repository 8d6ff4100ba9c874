package app

// This file learns the state of each session of a folder of an agent's
// sessions (agentwatch claude, agentwatch codex) from what the agent keeps
// beside them: Claude Code's registry of running sessions, Codex's thread
// locks (sources/agents.go). Both are looked at again every second, so the
// thread list says what is true now, not what was when it opened.

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// agentsEvery is how often the agents' registries are looked at: a
// ReadDir of a small folder and a stat of the sessions it does not list.
const agentsEvery = time.Second

// writingFor is how long after its file last changed a session the agent
// no longer lists counts as working: the agent's last lines may still be
// arriving after it let the session go.
const writingFor = 5 * time.Second

// agentKind is which agent keeps a folder's sessions.
type agentKind uint8

const (
	agentClaude agentKind = iota + 1
	agentCodex
	agentCopilot // no registry: a session.shutdown line ends a session (agents_more.go)
	agentGemini  // no registry: only a file being written says anything
	agentMixed   // several agents' folders (agentwatch agents): parts says which
)

// agentWatch is where the state of a folder's sessions is learnt: the
// agent, and the folder of its registry (Claude Code's
// <config>/sessions, Codex's <home>/thread-writer-locks), which need not
// exist yet.
type agentWatch struct {
	kind agentKind
	dir  string
	// root is the folder of the sessions this watch knows, and parts the
	// watches of a mixed one, each with its root (agentwatch agents).
	root  string
	parts []*agentWatch
	// ended remembers, by file, whether a Copilot session's last line
	// ended it, and the size and time it had then.
	ended map[string]endedLook
	// changed, when set, is when the follower last saw a session's file
	// change (ok false when it never looked): a session it knows of is
	// not looked at again to tell whether it is being written.
	changed func(path string) (at time.Time, ok bool)
}

// claudeWatch is the registry of the Claude Code configuration folder
// whose projects folder is projects.
func claudeWatch(projects string) *agentWatch {
	return &agentWatch{kind: agentClaude, dir: filepath.Join(filepath.Dir(filepath.Clean(projects)), "sessions")}
}

// codexWatch is the thread locks of the Codex home folder, nil when folder
// is not one and not a home's sessions or archived_sessions folder.
func codexWatch(folder string) *agentWatch {
	home := filepath.Clean(folder)
	if !isDir(filepath.Join(home, "sessions")) && !isDir(filepath.Join(home, "archived_sessions")) {
		switch filepath.Base(home) {
		case "sessions", "archived_sessions":
			home = filepath.Dir(home)
		default:
			return nil
		}
	}
	return &agentWatch{kind: agentCodex, dir: filepath.Join(home, "thread-writer-locks")}
}

// states are the states of the sessions whose files are paths, now. A
// registry that cannot be read leaves every state unknown.
func (w *agentWatch) states(paths []string, now time.Time) model.AgentStates {
	out := make(model.AgentStates, len(paths))
	switch w.kind {
	case agentMixed:
		w.mixedStates(paths, now, out)
	case agentCopilot:
		for _, p := range paths {
			out[p] = w.copilotState(p, now)
		}
	case agentGemini:
		for _, p := range paths {
			if w.fileState(p, now) == model.AgentWorking {
				out[p] = model.AgentWorking
			}
		}
	case agentClaude:
		reg, err := sources.ReadClaudeRegistry(w.dir)
		if err != nil {
			return out
		}
		for _, p := range paths {
			s, ok := reg[strings.TrimSuffix(filepath.Base(p), ".jsonl")]
			switch {
			case !ok:
				out[p] = w.fileState(p, now)
			case s.Live == sources.LivenessUnknown:
				out[p] = model.AgentUnknown
			default:
				out[p] = ClaudeStatus(s.Status)
			}
		}
	case agentCodex:
		locks, err := sources.ReadCodexLocks(w.dir)
		if err != nil {
			return out
		}
		for _, p := range paths {
			if locks[codexThreadID(p)] {
				out[p] = model.AgentOpen // its last turn says whether it works
			} else {
				out[p] = w.fileState(p, now)
			}
		}
	}
	return out
}

// ClaudeStatus is the state a running Claude Code session's registry
// status says: busy and shell (running a command) are working, waiting is
// waiting for the person, idle is idle; no status (a session driven by the
// Agent SDK writes none) or one not known leaves it to the session's last
// turn (model.AgentOpen).
func ClaudeStatus(status string) model.AgentState {
	switch status {
	case "busy", "shell":
		return model.AgentWorking
	case "waiting":
		return model.AgentWaiting
	case "idle":
		return model.AgentIdle
	}
	return model.AgentOpen
}

// fileState is the state of a session no running agent lists: working
// while its file changed less than writingFor ago, else ended. When the
// folder's follower saw the file last change, that is asked, not the file.
func (w *agentWatch) fileState(path string, now time.Time) model.AgentState {
	var mod time.Time
	if at, ok := w.changedAt(path); ok {
		mod = at
	} else if st, err := os.Stat(path); err == nil {
		mod = st.ModTime()
	} else {
		return model.AgentEnded
	}
	if now.Sub(mod) < writingFor {
		return model.AgentWorking
	}
	return model.AgentEnded
}

// changedAt is w.changed's word on path, none when it has none.
func (w *agentWatch) changedAt(path string) (time.Time, bool) {
	if w.changed == nil {
		return time.Time{}, false
	}
	return w.changed(path)
}

// codexThreadID is the thread id in a rollout's name,
// rollout-<time>-<id>.jsonl(.zst): its last 36 characters, a UUID.
func codexThreadID(path string) string {
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".zst"), ".jsonl")
	const uuid = 36
	if len(name) < uuid {
		return name
	}
	return name[len(name)-uuid:]
}

// agentStates looks at w every so often (agentsEvery) until ctx ends and sends the
// states of the sessions paths names (asked again at each look: files
// join a followed folder) whenever they changed, the first at once. nil
// when w is.
func agentStates(ctx context.Context, w *agentWatch, paths func() []string, clock func() time.Time, every time.Duration) <-chan model.AgentStates {
	if w == nil {
		return nil
	}
	out := make(chan model.AgentStates, 1)
	go func() {
		defer close(out)
		tick := time.NewTicker(every)
		defer tick.Stop()
		var last model.AgentStates
		for {
			if now := w.states(paths(), clock()); !sameStates(now, last) {
				select {
				case out <- now:
					last = now
				case <-ctx.Done():
					return
				}
			}
			select {
			case <-tick.C:
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}

// sameStates reports whether a and b say the same of the same sessions.
func sameStates(a, b model.AgentStates) bool {
	if len(a) != len(b) || a == nil != (b == nil) {
		return false
	}
	for p, s := range a {
		if t, ok := b[p]; !ok || t != s {
			return false
		}
	}
	return true
}

package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// Names of the session fixtures in testdata.
const (
	claudeFixtureSession = "7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23"
	codexFixtureThread   = "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"
)

// copyFixture copies the files of testdata/<rel> into dir/<rel>.
func copyFixture(t *testing.T, dir, rel string) {
	t.Helper()
	from := filepath.Join("..", "testdata", rel)
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel, p[len(from):])
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o600)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// register writes a registry entry of this process for session id with
// status ("" writes none).
func register(t *testing.T, sessions, id, status string) {
	t.Helper()
	b, err := json.Marshal(sources.ClaudeSession{PID: os.Getpid(), SessionID: id, Cwd: "/home/dev/app", Kind: "interactive", Entrypoint: "cli", Status: status})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(sessions, strconv.Itoa(os.Getpid())+".json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestClaudeStatus(t *testing.T) {
	for status, want := range map[string]model.AgentState{
		"busy": model.AgentWorking, "shell": model.AgentWorking, "waiting": model.AgentWaiting,
		"idle": model.AgentIdle, "": model.AgentOpen, "blocked": model.AgentOpen,
	} {
		if got := ClaudeStatus(status); got != want {
			t.Errorf("%q: %v, want %v", status, got, want)
		}
	}
}

// TestClaudeAgentStates opens a copy of testdata/claude as agentwatch claude
// does and reads its sessions' states as the registry changes: the stale
// entry testdata keeps never counts, a live one says what it says, and a
// session no running process lists is ended unless its file just changed.
func TestClaudeAgentStates(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no way to ask whether a pid runs")
	}
	config := t.TempDir()
	copyFixture(t, config, "claude")
	src, err := New(&Options{}).ClaudeSessions(filepath.Join(config, "claude"), true)
	if err != nil {
		t.Fatal(err)
	}
	if src.agents == nil || src.agents.dir != filepath.Join(config, "claude", "sessions") {
		t.Fatalf("agents %+v, want the copy's sessions folder", src.agents)
	}
	path := fixtureSessionPath(t, src.projects.paths())
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	later := st.ModTime().Add(time.Hour)
	state := func(now time.Time) model.AgentState {
		t.Helper()
		return src.agents.states([]string{path}, now)[path]
	}
	if got := state(later); got != model.AgentEnded {
		t.Errorf("with only a stale entry: %v, want ended", got)
	}
	if got := state(st.ModTime().Add(time.Second)); got != model.AgentWorking {
		t.Errorf("unlisted, its file changed a second ago: %v, want working", got)
	}
	sessions := filepath.Join(config, "claude", "sessions")
	for _, c := range []struct {
		status string
		want   model.AgentState
	}{{"busy", model.AgentWorking}, {"waiting", model.AgentWaiting}, {"idle", model.AgentIdle}, {"shell", model.AgentWorking}, {"", model.AgentOpen}} {
		register(t, sessions, claudeFixtureSession, c.status)
		if got := state(later); got != c.want {
			t.Errorf("status %q: %v, want %v", c.status, got, c.want)
		}
	}
	if err := os.Remove(filepath.Join(sessions, strconv.Itoa(os.Getpid())+".json")); err != nil {
		t.Fatal(err)
	}
	if got := state(later); got != model.AgentEnded {
		t.Errorf("entry removed: %v, want ended", got)
	}
}

// TestClaudeAgentWatchOfProject learns the registry from one project's
// folder too, and none from a folder that is not in a projects folder.
func TestClaudeAgentWatchOfProject(t *testing.T) {
	config := t.TempDir()
	copyFixture(t, config, "claude")
	project := filepath.Join(config, "claude", "projects", "-home-dev-app")
	src, err := New(&Options{}).ClaudeSessions(project, false)
	if err != nil {
		t.Fatal(err)
	}
	if src.agents == nil || src.agents.dir != filepath.Join(config, "claude", "sessions") {
		t.Fatalf("agents %+v", src.agents)
	}
}

// TestCodexAgentStates opens a copy of testdata/codex as agentwatch codex
// does: testdata's lock file, left behind unlocked, says nothing is open;
// where a held lock can be told (Linux), a held one makes the session open.
func TestCodexAgentStates(t *testing.T) {
	home := t.TempDir()
	copyFixture(t, home, "codex")
	src, err := New(&Options{}).CodexSessions(filepath.Join(home, "codex"), true)
	if err != nil {
		t.Fatal(err)
	}
	if src.agents == nil || src.agents.dir != filepath.Join(home, "codex", "thread-writer-locks") {
		t.Fatalf("agents %+v", src.agents)
	}
	paths := src.projects.paths()
	if len(paths) != 1 || codexThreadID(paths[0]) != codexFixtureThread {
		t.Fatalf("sessions %v", paths)
	}
	later := time.Now().Add(time.Hour)
	got := src.agents.states(paths, later)[paths[0]]
	want := model.AgentEnded
	if runtime.GOOS != "linux" {
		want = model.AgentOpen // a lock file counts by being there
	}
	if got != want {
		t.Errorf("state %v, want %v", got, want)
	}
	if w := codexWatch(filepath.Join(home, "codex", "sessions")); w == nil || w.dir != src.agents.dir {
		t.Errorf("from the sessions folder: %+v", w)
	}
	if w := codexWatch(t.TempDir()); w != nil {
		t.Errorf("a folder of rollouts of no home: %+v", w)
	}
}

func TestCodexThreadID(t *testing.T) {
	for name, want := range map[string]string{
		"rollout-2026-02-23T12-54-34-" + codexFixtureThread + ".jsonl":     codexFixtureThread,
		"rollout-2026-02-23T12-54-34-" + codexFixtureThread + ".jsonl.zst": codexFixtureThread,
		"short.jsonl": "short",
	} {
		if got := codexThreadID(filepath.Join("x", name)); got != want {
			t.Errorf("%s: %s", name, got)
		}
	}
}

// TestAgentStatesWatch follows a registry as it changes: the states come
// at once, again when an entry changes, and again when it goes; looking
// again at what did not change sends nothing.
func TestAgentStatesWatch(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no way to ask whether a pid runs")
	}
	config := t.TempDir()
	copyFixture(t, config, "claude")
	src, err := New(&Options{}).ClaudeSessions(filepath.Join(config, "claude"), true)
	if err != nil {
		t.Fatal(err)
	}
	path := fixtureSessionPath(t, src.projects.paths())
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	clock := func() time.Time { return st.ModTime().Add(time.Hour) }
	sessions := filepath.Join(config, "claude", "sessions")
	register(t, sessions, claudeFixtureSession, "busy")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	states := agentStates(ctx, src.agents, src.projects.paths, clock, time.Millisecond)
	next := func() model.AgentState {
		t.Helper()
		select {
		case s := <-states:
			return s[path]
		case <-time.After(10 * time.Second):
			t.Fatal("no states came")
		}
		return 0
	}
	if got := next(); got != model.AgentWorking {
		t.Fatalf("first: %v", got)
	}
	register(t, sessions, claudeFixtureSession, "waiting")
	if got := next(); got != model.AgentWaiting {
		t.Fatalf("after the status changed: %v", got)
	}
	if err := os.Remove(filepath.Join(sessions, strconv.Itoa(os.Getpid())+".json")); err != nil {
		t.Fatal(err)
	}
	if got := next(); got != model.AgentEnded {
		t.Fatalf("after the entry went: %v", got)
	}
	cancel()
	for range states { // closes once ctx ends
	}
}

// fixtureSessionPath is the path of the fixture's session
// claudeFixtureSession among the sessions learnt (the fixture holds
// another project's session too, whose state no test registers).
func fixtureSessionPath(t *testing.T, paths []string) string {
	t.Helper()
	for _, p := range paths {
		if filepath.Base(p) == claudeFixtureSession+".jsonl" {
			return p
		}
	}
	t.Fatalf("no session %s among %v", claudeFixtureSession, paths)
	return ""
}

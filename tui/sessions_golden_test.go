package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// sessionFixtures are the agents' own files agentwatch reads by
// translating them: a Claude Code session and a Codex rollout.
var sessionFixtures = []struct{ name, path string }{
	{"claude", filepath.Join("..", "testdata", "claude", "projects", "-home-dev-app", "7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl")},
	{"codex", filepath.Join("..", "testdata", "codex", "sessions", "2026", "02", "23", "rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl")},
}

// sessionRecords reads a fixture as the app reads a file: translated.
func sessionRecords(t *testing.T, path string) []model.Record {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := sources.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) == 0 {
		t.Fatalf("%s gave no records", path)
	}
	return recs
}

// TestSessionsGolden draws each fixture's one thread, which opens by itself, at
// 80×24 and 160×48. A compaction shows as its marker (with Claude Code's
// summary, cut to the width) and a title event shows nothing of its own:
// no raw custom row is left.
func TestSessionsGolden(t *testing.T) {
	for _, fx := range sessionFixtures {
		recs := sessionRecords(t, fx.path)
		last := recs[len(recs)-1].At
		// The golden sizes, then one tall enough to hold the whole of
		// either thread, which is not kept.
		for _, sz := range [][2]int{{80, 24}, {160, 48}, {160, 96}} {
			t.Run(fmt.Sprintf("%s_%dx%d", fx.name, sz[0], sz[1]), func(t *testing.T) {
				opts := AppOptions{Title: filepath.Base(fx.path), Now: func() time.Time { return last.Add(time.Hour) }}
				d := newThreadsApp(t, sz[0], sz[1], opts, model.Batch{Source: fx.path, Records: recs, Read: 100, Size: 100})
				d.close(t)
				if d.tv().listing {
					t.Fatal("the one thread is not open")
				}
				got := d.screen(t)
				if sz[1] < 96 {
					golden.RequireEqual(t, got)
				}
				text := ansi.Strip(got)
				if sz[1] == 96 && !strings.Contains(text, "── context compacted ──") {
					t.Errorf("the screen shows no compaction marker:\n%s", text)
				}
				for _, lie := range []string{"custom compaction", "custom title", "custom-title"} {
					if strings.Contains(text, lie) {
						t.Errorf("the screen shows %q:\n%s", lie, text)
					}
				}
			})
		}
	}
}

// moreSessions are the other agents' session fixtures, each with what
// its tall screen must show.
var moreSessions = []struct {
	name, path string
	want       []string
}{
	// A session whose Task calls ran subagents (one nested in another):
	// the prompt a subagent was given is the task's, its steps set in
	// under the step that started it.
	{"claude-subagents", filepath.Join("..", "testdata", "claude", "projects", "-home-dev-api", "c41e5d7a-2f0b-4e8a-b6d3-91a7c0f4e2b8.jsonl"),
		[]string{"Subagent interrupted · Check the orders handler", "  ⊘ ▤ Read interrupted · /home/dev/api/orders.go"}},
	{"copilot", filepath.Join("..", "testdata", "copilot", "session-state", "5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40", "events.jsonl"),
		[]string{"Edited · /home/dev/shop/invoice/tax.go"}},
	{"gemini", filepath.Join("..", "testdata", "gemini", "tmp", "e828acfc792e3bbcd2a6c6c35323cb44b7b438741c168c8ec59aefe347f193bb", "chats", "session-2026-04-20T09-15-8e2b7c14.jsonl"),
		[]string{"Subagent done"}},
}

// TestMoreSessionsGolden draws the other agents' fixtures as
// TestSessionsGolden does the first two.
func TestMoreSessionsGolden(t *testing.T) {
	for _, fx := range moreSessions {
		recs := sessionRecords(t, fx.path)
		last := recs[len(recs)-1].At
		for _, sz := range [][2]int{{80, 24}, {160, 48}} {
			t.Run(fmt.Sprintf("%s_%dx%d", fx.name, sz[0], sz[1]), func(t *testing.T) {
				opts := AppOptions{Title: filepath.Base(fx.path), Now: func() time.Time { return last.Add(time.Hour) }}
				d := newThreadsApp(t, sz[0], sz[1], opts, model.Batch{Source: fx.path, Records: recs, Read: 100, Size: 100})
				d.close(t)
				got := d.screen(t)
				golden.RequireEqual(t, got)
				if sz[1] != 48 {
					return
				}
				text := ansi.Strip(got)
				for _, w := range fx.want {
					if !strings.Contains(text, w) {
						t.Errorf("the screen shows no %q:\n%s", w, text)
					}
				}
			})
		}
	}
}

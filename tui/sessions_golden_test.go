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

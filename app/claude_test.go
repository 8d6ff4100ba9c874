package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestEncodeClaudeProject names a project's folder as Claude Code does.
func TestEncodeClaudeProject(t *testing.T) {
	for in, want := range map[string]string{
		"/home/dev/app":          "-home-dev-app",
		"/Users/me/my.app_v2":    "-Users-me-my-app-v2",
		`C:\Users\me\app`:        "C--Users-me-app",
		"/home/dév/app":          "-home-d--v-app",
		"/srv/a b/(x)":           "-srv-a-b--x-",
		"/home/dev/app/":         "-home-dev-app-",
		"/tmp/TestX1234/001/app": "-tmp-TestX1234-001-app",
	} {
		if got := EncodeClaudeProject(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

// TestSessionProject takes a session's project from the first line that
// names its folder, else from the folder the file is in.
func TestSessionProject(t *testing.T) {
	path := filepath.Join("c", "projects", "-home-dev-app", "s.jsonl")
	for _, tc := range []struct{ head, want string }{
		{`{"type":"file-history-snapshot","snapshot":{}}` + "\n" + `{"type":"user","cwd":"/home/dev/app","sessionId":"s"}` + "\n", "/home/dev/app"},
		{`{"type":"queue-operation","sessionId":"s"}` + "\n", "-home-dev-app"},
		{`{"type":"user","cwd":"/home/dev/app","sessi`, "-home-dev-app"}, // cut short by the head: not read
		{"", "-home-dev-app"},
	} {
		if got := sessionProject(path, []byte(tc.head)); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.head, got, tc.want)
		}
	}
}

// TestGlobEscape makes a folder's name match itself alone.
func TestGlobEscape(t *testing.T) {
	for _, dir := range []string{"/a/b", "/a/[x]*?", `/a/b\c`} {
		if ok, err := filepath.Match(globEscape(dir), dir); !ok || err != nil {
			t.Errorf("%q: %v %v", dir, ok, err)
		}
	}
}

// A folder named projects is Claude Code's only when it looks it: no log
// of its own, and a project's folder as Claude Code names one. Any other
// is a folder of logs like another, read at its top.
func TestClaudeProjectsOnlyWhenItLooksIt(t *testing.T) {
	log := `{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}` + "\n"
	mine := filepath.Join(t.TempDir(), "projects")
	for name, text := range map[string]string{"run.jsonl": log, "old/run.jsonl": log} {
		p := filepath.Join(mine, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if isClaudeProjects(mine) {
		t.Fatal("a folder named projects with a log of its own was taken for Claude Code's")
	}
	claude := filepath.Join(t.TempDir(), "projects")
	if err := os.MkdirAll(filepath.Join(claude, "-home-dev-app"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !isClaudeProjects(claude) {
		t.Fatal("Claude Code's projects folder was not known")
	}
	src, err := New(&Options{}).Identify(mine)
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Files) != 1 || filepath.Base(src.Files[0]) != "run.jsonl" || filepath.Dir(src.Files[0]) != mine {
		t.Fatalf("the folder named projects lists %v, want its own run.jsonl", src.Files)
	}
}

// A project whose path encodes to more than Claude Code names a folder
// whole is found by the name's start and a session that ran there.
func TestLongProject(t *testing.T) {
	projects := t.TempDir()
	cwd := "/" + strings.Repeat("deep/", 50) + "app"
	name := EncodeClaudeProject(cwd)
	other := filepath.Join(projects, name[:maxProjectName]+"-zz9")
	mine := filepath.Join(projects, name[:maxProjectName]+"-1a2b3c")
	for dir, ran := range map[string]string{other: "/" + strings.Repeat("deep/", 50) + "other", mine: cwd} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		line := `{"type":"user","cwd":"` + ran + `","sessionId":"s","uuid":"u","message":{"role":"user","content":"hi"}}` + "\n"
		if err := os.WriteFile(filepath.Join(dir, "s.jsonl"), []byte(line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got := longProject(projects, cwd); got != mine {
		t.Errorf("found %q, want %q", got, mine)
	}
	if got := longProject(projects, "/short"); got != "" {
		t.Errorf("a short path found %q", got)
	}
}

// In a list of several agents' sessions a project is short enough to
// leave its agent's name in sight.
func TestShortProject(t *testing.T) {
	for in, want := range map[string]string{
		"/home/dev/shop":       "/home/dev/shop",
		"/home/ana/src/ledger": "…/src/ledger",
		"e828acfc792e3bbcd2a6c6c35323cb44b7b438741c168c8ec59aefe347f193bb": "e828acfc…",
		"-home-dev-app-with-a-long-name":                                   "-home-dev-app-with-a-long-name",
	} {
		if got := shortProject(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}

package app

import (
	"path/filepath"
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

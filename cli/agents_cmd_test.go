package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// copilotFixture is the session of testdata/copilot.
const copilotFixture = "../testdata/copilot/session-state/5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40/events.jsonl"

// testDir is the package's folder, which fixtures are named from: a test
// may change the current folder before it reads them.
var testDir, _ = os.Getwd()

// writeCopy writes the fixture at from to path, with each pair of
// replacements made.
func writeCopy(t *testing.T, from, path string, replace ...string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testDir, from))
	if err != nil {
		t.Fatal(err)
	}
	if len(replace) > 0 {
		b = []byte(strings.NewReplacer(replace...).Replace(string(b)))
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// agentHomes makes a machine with no agent on it but those a test writes:
// HOME empty, and each agent's home variable naming a folder of the test's.
func agentHomes(t *testing.T) (claude, codex, copilot, geminiCLIHome string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	claude, codex, copilot, geminiCLIHome = t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("CLAUDE_CONFIG_DIR", claude)
	t.Setenv("CODEX_HOME", codex)
	t.Setenv("COPILOT_HOME", copilot)
	t.Setenv("GEMINI_CLI_HOME", geminiCLIHome)
	return
}

// TestCopilotSessions: agentwatch copilot opens the sessions run in the
// current folder (their session.start says so), --all every one.
func TestCopilotSessions(t *testing.T) {
	_, _, home, _ := agentHomes(t)
	here := t.TempDir()
	t.Chdir(here)
	mine := filepath.Join(home, "session-state", "c0ffee00-0000-4000-8000-000000000003", "events.jsonl")
	writeCopy(t, copilotFixture, mine, `"cwd":"/home/dev/shop"`, `"cwd":"`+here+`"`,
		"5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40", "c0ffee00-0000-4000-8000-000000000003")
	other := filepath.Join(home, "session-state", "5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40", "events.jsonl")
	writeCopy(t, copilotFixture, other)
	code, out, errOut := runCLI(t, nil, "copilot", "--plain")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "== thread c0ffee00-0000-4000-8000-000000000003") || strings.Contains(out, "5d2c9a4e") {
		t.Errorf("not this folder's session alone:\n%s", out)
	}
	code, out, errOut = runCLI(t, nil, "copilot", "--all", "--plain")
	if code != 0 || errOut != "" || !strings.Contains(out, "5d2c9a4e") || !strings.Contains(out, "c0ffee00") {
		t.Errorf("--all: exit %d: %s\n%s", code, errOut, out)
	}
	t.Setenv("COPILOT_HOME", filepath.Join(t.TempDir(), "none"))
	if code, _, errOut = runCLI(t, nil, "copilot"); code != exitUnreadable || !strings.Contains(errOut, "no Copilot CLI sessions: looked in $COPILOT_HOME") {
		t.Errorf("no home: exit %d: %s", code, errOut)
	}
}

// TestGeminiSessions: agentwatch gemini opens the project of the current
// folder, found by its .project_root, or by its path's SHA-256 for older
// versions; --all every project's.
func TestGeminiSessions(t *testing.T) {
	_, _, _, cliHome := agentHomes(t)
	here := t.TempDir()
	t.Chdir(here)
	tmp := filepath.Join(cliHome, ".gemini", "tmp")
	writeCopy(t, geminiFixture, filepath.Join(tmp, "mine", "chats", "session-2026-04-20T09-15-c0ffee00.jsonl"),
		"8e2b7c14-3f5a-4d9e-b1c6-0a7f2e9d4c31", "c0ffee00-3f5a-4d9e-b1c6-0a7f2e9d4c31")
	if err := os.WriteFile(filepath.Join(tmp, "mine", ".project_root"), []byte(here+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeCopy(t, geminiFixture, filepath.Join(tmp, "e828acfc792e3bbcd2a6c6c35323cb44b7b438741c168c8ec59aefe347f193bb", "chats", filepath.Base(geminiFixture)))
	code, out, errOut := runCLI(t, nil, "gemini", "--plain")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "== thread c0ffee00") || strings.Contains(out, "8e2b7c14") {
		t.Errorf("not this project's session alone:\n%s", out)
	}
	code, out, errOut = runCLI(t, nil, "gemini", "--all", "--plain")
	if code != 0 || errOut != "" || !strings.Contains(out, "8e2b7c14") || !strings.Contains(out, "c0ffee00") {
		t.Errorf("--all: exit %d: %s\n%s", code, errOut, out)
	}
}

// TestAgentsAll: agentwatch agents --all opens every agent's sessions in
// one list, Claude Code's subagents not as sessions of their own.
func TestAgentsAll(t *testing.T) {
	claude, codex, copilot, cliHome := agentHomes(t)
	t.Chdir(t.TempDir())
	writeCopy(t, claudeFixture, filepath.Join(claude, "projects", "-home-dev-app", filepath.Base(claudeFixture)))
	writeCopy(t, codexFixture, filepath.Join(codex, "sessions", "2026", "02", "23", filepath.Base(codexFixture)))
	writeCopy(t, copilotFixture, filepath.Join(copilot, "session-state", "5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40", "events.jsonl"))
	writeCopy(t, geminiFixture, filepath.Join(cliHome, ".gemini", "tmp", "shop", "chats", filepath.Base(geminiFixture)))
	code, out, errOut := runCLI(t, nil, "agents", "--all", "--plain")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, id := range []string{"7f3c2a10", "019c8a59", "5d2c9a4e", "8e2b7c14"} {
		if strings.Count(out, "== thread "+id) != 1 {
			t.Errorf("session %s not listed once:\n%s", id, out)
		}
	}
	if code, _, errOut = runCLI(t, nil, "agents"); code != exitUnreadable || !strings.Contains(errOut, "no agent's sessions of") {
		t.Errorf("this folder: exit %d: %s", code, errOut)
	}
}

// TestNotAnEventLog: a file with content but no event is named for what
// it looks like, with exit status 2, never an empty result; an empty file
// is a log about to be written.
func TestNotAnEventLog(t *testing.T) {
	dir := t.TempDir()
	for name, tc := range map[string]struct{ data, want string }{
		"gemini-old.json": {`{"sessionId":"s","projectHash":"h","startTime":"t","messages":[]}`, "a Gemini CLI session saved whole"},
		"opencode.db":     {"SQLite format 3\x00...", "an SQLite database"},
		"other.jsonl":     {`{"foo":1}` + "\n", `JSON whose first object has "foo"`},
		"empty.jsonl":     {"", ""},
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(tc.data), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"steps", "fold", "threads", "validate"} {
			code, _, errOut := runCLI(t, nil, cmd, path)
			if tc.want == "" {
				if code != 0 {
					t.Errorf("%s %s: exit %d: %s", cmd, name, code, errOut)
				}
				continue
			}
			if code != exitUnreadable || !strings.Contains(errOut, "is not an event log agentwatch knows; it looks like "+tc.want) {
				t.Errorf("%s %s: exit %d: %s", cmd, name, code, errOut)
			}
		}
	}
}

// TestAgentRootFolders: an agent's own folder, or the part of it that
// holds sessions a level or more down, is read by the headless commands
// as its sessions, not as a folder of folders.
func TestAgentRootFolders(t *testing.T) {
	claude := t.TempDir()
	writeCopy(t, claudeFixture, filepath.Join(claude, "projects", "-home-dev-app", filepath.Base(claudeFixture)))
	for _, tc := range []struct{ dir, id string }{
		{claude, "7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23"},
		{"../testdata/codex", "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"},
		{"../testdata/codex/sessions", "019c8a59-e9dd-71f0-9ae3-4079fe9726a9"},
		{"../testdata/copilot", "5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40"},
		{"../testdata/copilot/session-state", "5d2c9a4e-7b31-4f0e-9c62-1a8e3f7b2d40"},
		{"../testdata/gemini", "8e2b7c14-3f5a-4d9e-b1c6-0a7f2e9d4c31"},
		{"../testdata/gemini/tmp/e828acfc792e3bbcd2a6c6c35323cb44b7b438741c168c8ec59aefe347f193bb", "8e2b7c14-3f5a-4d9e-b1c6-0a7f2e9d4c31"},
	} {
		code, out, errOut := runCLI(t, nil, "threads", tc.dir)
		if code != 0 || errOut != "" || !strings.Contains(out, tc.id) {
			t.Errorf("threads %s: exit %d: %s\n%s", tc.dir, code, errOut, out)
		}
	}
}

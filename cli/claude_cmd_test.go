package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/app"
)

// claudeFixture is the session of testdata/claude.
const claudeFixture = "../testdata/claude/projects/-home-dev-app/7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl"

// claudeConfig builds a Claude Code configuration folder from the fixture:
// two projects of a session each, the second named after project (a
// folder's path), its session with a subagent's folder beside it. It
// returns the folder and the two session files.
func claudeConfig(t *testing.T, project string) (config, first, second string) {
	t.Helper()
	b, err := os.ReadFile(claudeFixture)
	if err != nil {
		t.Fatal(err)
	}
	config = t.TempDir()
	first = filepath.Join(config, "projects", "-home-dev-app", "7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23.jsonl")
	other := strings.NewReplacer("7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23", "c0ffee00-0000-4000-8000-000000000002",
		`"/home/dev/app`, `"`+project, "fix the flaky test", "write the release notes").Replace(string(b))
	enc := app.EncodeClaudeProject(project)
	second = filepath.Join(config, "projects", enc, "c0ffee00-0000-4000-8000-000000000002.jsonl")
	agent := filepath.Join(config, "projects", enc, "c0ffee00-0000-4000-8000-000000000002", "subagents", "agent-a1.jsonl")
	for path, data := range map[string]string{first: string(b), second: other, agent: other} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return config, first, second
}

// claudeHome makes HOME a folder without Claude Code in it, so only what a
// test names is found.
func claudeHome(t *testing.T, config string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CLAUDE_CONFIG_DIR", config)
}

// TestClaudeAll prints every project's sessions, and nothing of the
// subagent's folder.
func TestClaudeAll(t *testing.T) {
	config, first, second := claudeConfig(t, "/srv/web")
	claudeHome(t, config)
	code, out, errOut := runCLI(t, nil, "claude", "--all", "--plain")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"== thread 7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23 · " + first, "== thread c0ffee00-0000-4000-8000-000000000002 · " + second,
		"you: fix the flaky test", "you: write the release notes"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "agent-a1") {
		t.Errorf("the subagent's file was read:\n%s", out)
	}
}

// TestClaudeThisProject opens the sessions of the current folder's
// project alone, in the folder $CLAUDE_CONFIG_DIR names; a folder without
// sessions says where it looked for them.
func TestClaudeThisProject(t *testing.T) {
	cwd := t.TempDir()
	config, _, second := claudeConfig(t, cwd) // before the fixture's relative path goes
	t.Chdir(cwd)
	claudeHome(t, config)
	code, out, errOut := runCLI(t, nil, "claude", "--plain")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "· "+second+" ==") || strings.Contains(out, "7f3c2a10") {
		t.Errorf("want the sessions of %s alone:\n%s", cwd, out)
	}

	t.Chdir(t.TempDir())
	code, _, errOut = runCLI(t, nil, "claude", "--plain")
	if code != exitUnreadable || !strings.Contains(errOut, "no Claude Code sessions of ") || !strings.Contains(errOut, "--all") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestClaudeNoConfig says where it looked, with a non-zero exit, and
// draws no screen.
func TestClaudeNoConfig(t *testing.T) {
	claudeHome(t, "")
	code, out, errOut := runCLI(t, nil, "claude", "--all")
	want := "agentwatch: no Claude Code sessions: looked in $CLAUDE_CONFIG_DIR (not set), ~/.claude, ~/.config/claude"
	if code != exitUnreadable || out != "" || !strings.HasPrefix(errOut, want) {
		t.Errorf("exit %d, out %q, err %q; want exit %d and %q", code, out, errOut, exitUnreadable, want)
	}
	claudeHome(t, filepath.Join(t.TempDir(), "nowhere"))
	if code, _, errOut = runCLI(t, nil, "claude"); code != exitUnreadable || !strings.Contains(errOut, "nowhere)") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestClaudeFolders takes a configuration folder, its projects folder or
// one project's folder, in claude and in the headless commands: threads
// on a projects folder reads the sessions one folder down, and a
// session's own folder is never reported.
func TestClaudeFolders(t *testing.T) {
	config, first, second := claudeConfig(t, "/srv/web")
	claudeHome(t, "")
	ids := []string{"7f3c2a10-5b6e-4c1d-9a2f-0e8b4d6c1a23", "c0ffee00-0000-4000-8000-000000000002"}
	projects := filepath.Join(config, "projects")
	project := filepath.Dir(second)
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"claude", "--all", "--plain", config}, []string{first, second}},
		{[]string{"claude", "--plain", projects, "--all"}, []string{first, second}},
		{[]string{"claude", "--plain", project}, []string{second}},
		{[]string{"threads", projects}, ids},
		{[]string{"threads", project}, []string{second}},
		{[]string{"steps", projects}, ids},
		{[]string{"fold", "--thread", "c0ffee00-0000-4000-8000-000000000002", project}, []string{"write the release notes"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, nil, tc.args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tc.want {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
			if len(tc.want) == 1 && strings.Contains(out, ids[0]) {
				t.Errorf("another project's session:\n%s", out)
			}
		})
	}
}

// TestClaudeHelp has examples.
func TestClaudeHelp(t *testing.T) {
	code, out, _ := runCLI(t, nil, "claude", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "agentwatch claude --all") || !strings.Contains(out, "$CLAUDE_CONFIG_DIR") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

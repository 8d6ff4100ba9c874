package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// codexFixture is the rollout of testdata/codex.
const codexFixture = "../testdata/codex/sessions/2026/02/23/rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl"

const codexSecondID = "c0ffee00-0000-7000-8000-000000000002"

// codexHomeFolder builds a Codex home folder from the fixture: its rollout
// in its dated folder (and beside it a compressed copy, which is not
// read), and a second session, run in cwd, compressed in another dated
// folder. It returns the folder and the two rollouts.
func codexHomeFolder(t *testing.T, cwd string) (home, first, second string) {
	t.Helper()
	b, err := os.ReadFile(codexFixture)
	if err != nil {
		t.Fatal(err)
	}
	home = t.TempDir()
	first = filepath.Join(home, "sessions", "2026", "02", "23", filepath.Base(codexFixture))
	other := strings.NewReplacer("019c8a59-e9dd-71f0-9ae3-4079fe9726a9", codexSecondID,
		`"/home/ana/src/ledger"`, `"`+cwd+`"`, "The totals are off by a cent.", "Write the release notes.").Replace(string(b))
	second = filepath.Join(home, "sessions", "2026", "03", "01", "rollout-2026-03-01T09-00-00-"+codexSecondID+".jsonl.zst")
	for path, data := range map[string][]byte{first: b, first + ".zst": zstdOf(t, b), second: zstdOf(t, []byte(other))} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return home, first, second
}

func zstdOf(t *testing.T, b []byte) []byte {
	t.Helper()
	e, err := zstd.NewWriter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	return e.EncodeAll(b, nil)
}

// codexEnv makes HOME a folder without Codex in it and CODEX_HOME home.
func codexEnv(t *testing.T, home string) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("CODEX_HOME", home)
}

// TestCodexAll prints every session, the plain rollout rather than its
// compressed copy.
func TestCodexAll(t *testing.T) {
	home, first, second := codexHomeFolder(t, "/srv/web")
	codexEnv(t, home)
	code, out, errOut := runCLI(t, nil, "codex", "--all", "--plain")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"· " + first + " ==", "· " + second + " ==",
		"you: The totals are off by a cent.", "you: Write the release notes."} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, first+".zst") {
		t.Errorf("the compressed copy was read too:\n%s", out)
	}
}

// TestCodexThisFolder opens the sessions run in the current folder alone;
// a folder without sessions says where it looked.
func TestCodexThisFolder(t *testing.T) {
	cwd := t.TempDir()
	home, _, second := codexHomeFolder(t, cwd) // before the fixture's relative path goes
	t.Chdir(cwd)
	codexEnv(t, home)
	code, out, errOut := runCLI(t, nil, "codex", "--plain")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "· "+second+" ==") || strings.Contains(out, "019c8a59") {
		t.Errorf("want the sessions of %s alone:\n%s", cwd, out)
	}

	t.Chdir(t.TempDir())
	code, _, errOut = runCLI(t, nil, "codex", "--plain")
	if code != exitUnreadable || !strings.Contains(errOut, "no Codex sessions of ") || !strings.Contains(errOut, "$CODEX_HOME ("+home+")") || !strings.Contains(errOut, "--all") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestCodexNoHome says where it looked, with a non-zero exit, and draws
// no screen.
func TestCodexNoHome(t *testing.T) {
	codexEnv(t, "")
	code, out, errOut := runCLI(t, nil, "codex", "--all")
	want := "agentwatch: no Codex sessions: looked in $CODEX_HOME (not set), ~/.codex"
	if code != exitUnreadable || out != "" || !strings.HasPrefix(errOut, want) {
		t.Errorf("exit %d, out %q, err %q; want exit %d and %q", code, out, errOut, exitUnreadable, want)
	}
	codexEnv(t, filepath.Join(t.TempDir(), "nowhere"))
	if code, _, errOut = runCLI(t, nil, "codex"); code != exitUnreadable || !strings.Contains(errOut, "nowhere)") {
		t.Errorf("exit %d: %s", code, errOut)
	}
}

// TestCodexFolders takes a home folder or its sessions folder.
func TestCodexFolders(t *testing.T) {
	home, first, second := codexHomeFolder(t, "/srv/web")
	codexEnv(t, "")
	for _, args := range [][]string{{"codex", "--all", "--plain", home}, {"codex", "--plain", filepath.Join(home, "sessions"), "--all"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errOut := runCLI(t, nil, args...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range []string{first, second} {
				if !strings.Contains(out, w) {
					t.Errorf("no %q in:\n%s", w, out)
				}
			}
		})
	}
}

// TestCodexHelp has examples.
func TestCodexHelp(t *testing.T) {
	code, out, _ := runCLI(t, nil, "codex", "--help")
	if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "agentwatch codex --all") || !strings.Contains(out, "$CODEX_HOME") {
		t.Errorf("exit %d:\n%s", code, out)
	}
}

// codexChildFixture is the rollout of the subagent the fixture's session
// spawns, beside it in testdata/codex.
const codexChildFixture = "../testdata/codex/sessions/2026/02/23/rollout-2026-02-23T13-05-02-019c8a69-4e5f-7a60-b1c2-d3e4f5a6b7c8.jsonl"

// TestCodexSubagentUnderParent shows a subagent's rollout inside the
// session that spawned it, not as a session of its own; without its
// parent in the folder it is shown on its own.
func TestCodexSubagentUnderParent(t *testing.T) {
	home, first, _ := codexHomeFolder(t, "/srv/web")
	b, err := os.ReadFile(codexChildFixture)
	if err != nil {
		t.Fatal(err)
	}
	child := filepath.Join(home, "sessions", "2026", "02", "23", filepath.Base(codexChildFixture))
	if err := os.WriteFile(child, b, 0o644); err != nil {
		t.Fatal(err)
	}
	codexEnv(t, home)
	code, out, errOut := runCLI(t, nil, "codex", "--all", "--plain")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if strings.Contains(out, "· "+child+" ==") || strings.Count(out, "== thread ") != 2 {
		t.Errorf("the subagent is a session of its own:\n%s", out)
	}
	parent := out[strings.Index(out, "· "+first+" =="):]
	if i := strings.Index(parent[1:], "== thread "); i >= 0 {
		parent = parent[:i+1]
	}
	for _, want := range []string{"Ran command · rg -n 'math\\.Floor' .", "agent: Total rounds correctly; Tax still floors."} {
		if !strings.Contains(parent, want) {
			t.Errorf("no %q in the parent's session:\n%s", want, parent)
		}
	}

	alone := filepath.Join(t.TempDir(), "sessions", "2026", "02", "23", filepath.Base(codexChildFixture))
	if err := os.MkdirAll(filepath.Dir(alone), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runCLI(t, nil, "codex", "--all", "--plain", filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(alone)))))
	if code != 0 || errOut != "" || !strings.Contains(out, "· "+alone+" ==") {
		t.Errorf("a subagent without its parent: exit %d: %s\n%s", code, errOut, out)
	}
}

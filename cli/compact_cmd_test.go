package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
)

// These tests run `agentwatch compact` as a user would, through run. The
// laws themselves are tested in fold/compact.

// compactRun runs the command and returns its exit code, stdout and stderr.
func compactRun(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(append([]string{"compact"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// TestCompactCommandGolden: on every sample the command writes the golden
// compaction (testdata/compact/golden/NAME.ours.json) and exits 0.
func TestCompactCommandGolden(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(cliPeerDir, "samples"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			code, out, stderr := compactRun(t, "", filepath.Join(cliPeerDir, "samples", e.Name()))
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			want, err := os.ReadFile(filepath.Join("../testdata/compact/golden", e.Name()+".ours.json"))
			if err != nil {
				t.Fatal(err)
			}
			if out != string(want) {
				t.Errorf("output differs from the golden (testdata/compact/regen.sh writes it)")
			}
		})
	}
}

// TestCompactCommandOutputAndStdin: -o writes a file (the same bytes as
// standard output), "-" reads standard input, and the output is one JSON
// array whose events the command can read back.
func TestCompactCommandOutputAndStdin(t *testing.T) {
	sample := filepath.Join(cliPeerDir, "samples", "open-at-finish.json")
	code, want, stderr := compactRun(t, "", sample)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var events []map[string]any
	if err := json.Unmarshal([]byte(want), &events); err != nil {
		t.Fatalf("output is not a JSON array: %v\n%s", err, want)
	}
	types := make([]string, len(events))
	for i, e := range events {
		types[i], _ = e["type"].(string)
	}
	// Issue #2813: the open tool call is written before RUN_ERROR, not after.
	if w := []string{"RUN_STARTED", "TOOL_CALL_START", "TOOL_CALL_ARGS", "RUN_ERROR"}; !reflect.DeepEqual(types, w) {
		t.Errorf("event types %v, want %v", types, w)
	}

	path := filepath.Join(t.TempDir(), "out.json")
	if code, out, stderr := compactRun(t, "", sample, "-o", path); code != 0 || out != "" {
		t.Fatalf("-o: exit %d, stdout %q, stderr %s", code, out, stderr)
	}
	got, err := os.ReadFile(path)
	if err != nil || string(got) != want {
		t.Errorf("-o wrote %q (%v), want the standard output", got, err)
	}
	if code, again, stderr := compactRun(t, "", path); code != 0 || again != want {
		t.Errorf("compacting the compacted log: exit %d, stderr %s, changed: %v", code, stderr, again != want)
	}

	raw, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := compactRun(t, string(raw), "-"); code != 0 || out != want {
		t.Errorf("stdin: exit %d, stderr %s, same output: %v", code, stderr, out == want)
	}
}

// TestCompactCommandErrors: bad input gets a clear message naming the
// problem and exit status 2, never a panic.
func TestCompactCommandErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing file", []string{filepath.Join(dir, "nope.json")}, "nope.json"},
		{"no file", nil, "needs exactly one FILE"},
		{"empty", []string{write("empty.json", "")}, "holds no events"},
		{"not JSON", []string{write("bad.jsonl", "{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\nnot json at all\n")}, "record 2"},
		{"not an object", []string{write("num.json", `[{"type":"RUN_STARTED","threadId":"t","runId":"r"}, 5]`)}, "not an event"},
		{"bad flag", []string{"--nope", "x"}, "unknown flag"},
		{"an ACP recording", []string{"../testdata/acp/coding-session.jsonl"}, "is an ACP recording"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := compactRun(t, "", tt.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2 (stderr %s)", code, stderr)
			}
			if !strings.Contains(stderr, tt.want) || strings.Contains(stderr, "internal error") {
				t.Errorf("stderr %q does not name the problem (%q)", stderr, tt.want)
			}
			if out != "" {
				t.Errorf("wrote %q to stdout", out)
			}
		})
	}
}

// TestCompactCommandHelp: --help says what compaction does to a log and
// that compacted logs are not for replay at recorded pace.
func TestCompactCommandHelp(t *testing.T) {
	code, out, _ := compactRun(t, "", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, want := range []string{"reorder events", "archives", "final fold", "not for", "replay at recorded pace", "-o, --output"} {
		if !strings.Contains(out, want) {
			t.Errorf("--help does not say %q:\n%s", want, out)
		}
	}
}

package cli

import (
	"strings"
	"testing"
)

// Messages-only files open for step-through and say what they are.
func TestMessagesFilesDetected(t *testing.T) {
	for file, format := range map[string]string{
		"../testdata/messages/aisdk-coding-agent.json": "AI SDK UIMessage[]",
		"../testdata/messages/agui-snapshot.json":      "AG-UI MESSAGES_SNAPSHOT log",
	} {
		code, out, errOut := runCLI(t, nil, file)
		if code != 0 || !strings.Contains(out, format+" · message-level review") || !strings.Contains(out, "1  ") {
			t.Errorf("%s: exit %d, out %q, err %q; want the format named and the steps listed", file, code, out, errOut)
		}
		code, out, _ = runCLI(t, nil, "steps", file)
		if code != 0 || !strings.Contains(out, "completed") {
			t.Errorf("steps %s: exit %d, out %q", file, code, out)
		}
	}
	code, _, errOut := runCLI(t, nil, "../testdata/messages/aisdk-broken-tool.json")
	if code != exitUnreadable || !strings.Contains(errOut, "messages[1].parts[1]") {
		t.Errorf("broken UIMessage file: exit %d, err %q; want exit 2 naming the part", code, errOut)
	}
}

// replay --plain prints the same lines as a live watch, and bad flags say
// what is wrong.
func TestReplayPlainAndFlags(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "replay", "--plain", "--speed", "16", "--idle-cap", "1ms", "../testdata/peer/samples/full.json")
	if code != 0 || !strings.Contains(out, "started") {
		t.Fatalf("replay --plain: exit %d, out %q, err %q", code, out, errOut)
	}
	_, live, _ := runCLI(t, nil, "--plain", "../testdata/peer/samples/full.json")
	if out != live {
		t.Errorf("replay --plain printed\n%s\nbut --plain printed\n%s", out, live)
	}
	for _, args := range [][]string{
		{"replay", "--speed", "32", "../testdata/peer/samples/full.json"},
		{"replay", "--start-at", "#0", "../testdata/peer/samples/full.json"},
		{"replay", "--start-at", "140%", "../testdata/peer/samples/full.json"},
		{"replay", "--start-at", "soon", "../testdata/peer/samples/full.json"},
		{"replay", "--plain", "--start-at", "#99", "../testdata/peer/samples/full.json"},
		{"replay", "--plain", "--loop", "../testdata/peer/samples/full.json"},
		{"replay", "--idle-cap", "-1s", "../testdata/peer/samples/full.json"},
		{"replay", "no-such-file.json"},
	} {
		if code, _, errOut := runCLI(t, nil, args...); code != exitUnreadable || errOut == "" {
			t.Errorf("%v: exit %d, err %q; want exit 2 and a reason", args, code, errOut)
		}
	}
	// full.json has two steps; starting at the second plays everything
	// before it at once, so the lines are the same.
	code, out, _ = runCLI(t, nil, "replay", "--plain", "--start-at", "#2", "--speed", "16", "../testdata/peer/samples/full.json")
	if code != 0 || out != live {
		t.Errorf("--start-at #2: exit %d, out %q", code, out)
	}
	if code, _, errOut := runCLI(t, nil, "replay", "--plain", "--start-at", "#3", "../testdata/peer/samples/full.json"); code != exitUnreadable || !strings.Contains(errOut, "no step #3") {
		t.Errorf("--start-at #3 of 2 steps: exit %d, err %q", code, errOut)
	}
}

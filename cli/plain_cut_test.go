package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log cut in the middle of a message: --plain prints what the message
// said, marked unfinished, instead of nothing.
func TestPlainCutMessage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cut.jsonl")
	log := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"All tests pass."}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"TEXT_MESSAGE_START","messageId":"m2","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m2","delta":"Next I will remove the build fo"}
`
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, nil, "--plain", path)
	if code != 0 {
		t.Fatalf("exit %d\nout %s\nerr %s", code, out, errOut)
	}
	want := "== thread t ==\nrun r started\nagent: All tests pass.\nagent (unfinished): Next I will remove the build fo\n"
	if out != want {
		t.Fatalf("out:\n%s\nwant:\n%s", out, want)
	}
	// From stdin, the same.
	if _, out, _ = runCLI(t, []byte(log), "--plain", "-"); !strings.Contains(out, "agent (unfinished): Next I will remove the build fo\n") {
		t.Fatalf("from stdin:\n%s", out)
	}
}

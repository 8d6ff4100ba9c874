package app

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest"
)

// acp --plain with an agent that sends an 11 MiB line: the turn fails
// with exit status 1, saying the agent sent a message too long to read,
// not that the agent answered an error it never sent.
func TestACPPlainLineTooLong(t *testing.T) {
	t.Parallel()
	bin := acptest.Build(t)
	var out bytes.Buffer
	opts := &Options{Plain: true, Stdout: &out, Stderr: io.Discard}
	err := New(opts).ACP(&ACPOptions{Cwd: t.TempDir(), Prompt: "huge 11534336"}, []string{bin})
	var problems *ProblemsError
	if !errors.As(err, &problems) {
		t.Fatalf("ACP returned %v, want a failed turn", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "the agent sent a message of 10 MiB or more, which agentwatch does not read") || strings.Contains(msg, "answered error") {
		t.Fatalf("error %q: want the message too long to read, and no error of the agent's", msg)
	}
}

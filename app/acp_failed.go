package app

import (
	"errors"
	"strings"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/tui"
)

// agentError is an ACP agent that failed: it could not start (start: its
// command could not run, it exited at once, or it failed initialize), or a
// turn ended in an error. stderr is the end of what the agent wrote on its
// standard error, made safe: an agent's only word on why is often there.
type agentError struct {
	err    error
	start  bool
	stderr []string
}

func (e *agentError) Error() string {
	s := e.reason()
	if len(e.stderr) > 0 {
		s += "\nagent stderr:\n  " + strings.Join(e.stderr, "\n  ")
	}
	return s
}

func (e *agentError) Unwrap() error { return e.err }

// reason is what failed, on one line.
func (e *agentError) reason() string {
	if e.start {
		return "agent failed to start: " + OneLine(e.err.Error())
	}
	return OneLine(e.err.Error())
}

// stderrLineMax is how much of one line of the agent's stderr is shown.
const stderrLineMax = 300

// withStderr is err with the end of the agent's stderr, when err is an
// agentError; call it once the agent is gone, so that it is all there.
func withStderr(err error, s *acpSession) error {
	var ae *agentError
	if !errors.As(err, &ae) {
		return err
	}
	ae.stderr = ae.stderr[:0]
	for _, l := range s.conn.StderrTail() {
		// Agent text: no escape sequence reaches the terminal, tabs and
		// indentation stay.
		l = strings.TrimRight(strings.ReplaceAll(sanitize.Plain(l), "\t", "    "), " ")
		if r := []rune(l); len(r) > stderrLineMax {
			l = string(r[:stderrLineMax-1]) + "…"
		}
		if l != "" {
			ae.stderr = append(ae.stderr, l)
		}
	}
	return err
}

// failedMsg tells the screen about a failed start.
func (e *agentError) failedMsg() tui.AgentFailedMsg {
	return tui.AgentFailedMsg{Reason: e.reason(), Stderr: e.stderr}
}

package acpconn

import (
	"bytes"
	"io"
	"sync"
)

// An agent that cannot start says why on its standard error, and nowhere
// else; the connection keeps the end of it to say so too.
const (
	// stderrKeep is how many bytes of the end of the agent's standard
	// error the connection keeps.
	stderrKeep = 8 << 10
	// StderrLines is how many of its last lines StderrTail gives.
	StderrLines = 12
)

// stderrTail keeps the last stderrKeep bytes written to it.
type stderrTail struct {
	mu   sync.Mutex
	buf  []byte
	lost bool // bytes before buf were dropped
}

func (t *stderrTail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := len(p)
	if len(p) >= stderrKeep {
		p, t.lost = p[len(p)-stderrKeep:], true
		t.buf = t.buf[:0]
	}
	if over := len(t.buf) + len(p) - stderrKeep; over > 0 {
		t.buf, t.lost = append(t.buf[:0], t.buf[over:]...), true
	}
	t.buf = append(t.buf, p...)
	return n, nil
}

// lines is the last n non-blank lines kept, oldest first; a carriage
// return ends a line too (progress bars redraw with one). A line cut at
// the front by what was dropped is left out.
func (t *stderrTail) lines(n int) []string {
	t.mu.Lock()
	b := bytes.ReplaceAll(t.buf, []byte{'\r'}, []byte{'\n'})
	lost := t.lost
	t.mu.Unlock()
	if lost {
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			b = b[i+1:]
		} else {
			b = nil
		}
	}
	var out []string
	for l := range bytes.SplitSeq(b, []byte{'\n'}) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, string(l))
		}
	}
	return out[max(0, len(out)-n):]
}

// stderrWriter is where the agent's standard error goes: the tail, then
// the log. A log that fails to take a write (a full disk) is not the
// agent's problem: the write still succeeds, else the copy from the
// agent's pipe stops and an agent that writes on blocks.
type stderrWriter struct {
	tail *stderrTail
	log  io.Writer
}

func (w stderrWriter) Write(p []byte) (int, error) {
	w.tail.Write(p)
	_, _ = w.log.Write(p)
	return len(p), nil
}

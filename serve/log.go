package serve

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/agentwatch/agentwatch/internal/sanitize"
)

// connLog writes the server's log: one line per connection, login
// refused, session and departure, with the time. What a client chose (a
// user name, an error it caused) is made safe for the terminal first.
type connLog struct {
	mu  sync.Mutex
	w   io.Writer
	now func() time.Time
}

// printf writes one line of the log. Every argument is made safe for the
// terminal and kept on one line, whoever wrote it.
func (l *connLog) printf(format string, args ...any) {
	for i, a := range args {
		switch a.(type) {
		case int, time.Duration:
		default:
			args[i] = safe(fmt.Sprint(a))
		}
	}
	line := fmt.Sprintf(format, args...)
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintf(l.w, "agentwatch serve: %s %s\n", l.now().Format("2006-01-02 15:04:05"), line)
}

// safe is s without terminal escapes or control characters, on one line
// and at most 200 characters long.
func safe(s string) string {
	s = strings.Join(strings.Fields(sanitize.Plain(s)), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}

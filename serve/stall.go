package serve

import (
	"io"
	"sync"
	"time"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// DefaultStallTimeout is how long a viewer's terminal may take nothing of
// what its screen sends before the viewer is dropped.
const DefaultStallTimeout = time.Minute

// stallWriter is a session's output that gives up on a terminal that
// takes nothing: SSH sends a session no more than its client said it
// would take, so a client that stops reading stops the screen's writes,
// and the screen with them. A write that has not returned after limit
// calls stalled, once; what the screen keeps meanwhile is one frame, and
// its feed of at most feedDepth batches.
type stallWriter struct {
	w       io.Writer
	limit   time.Duration
	stalled func()
}

// Write writes p, calling stalled if it takes longer than limit.
func (s *stallWriter) Write(p []byte) (int, error) {
	t := time.AfterFunc(s.limit, s.stalled)
	defer t.Stop()
	return s.w.Write(p)
}

// dropper ends a viewer's connection once: closing it is what makes a
// write that waits for the client return.
func (s *Server) dropper(sess ssh.Session, v *viewer) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			v.stalled.Store(true)
			s.log.printf("%s: dropped: its terminal took nothing for %s", v, s.cfg.StallTimeout)
			if c, ok := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn); ok {
				c.Close()
			}
		})
	}
}

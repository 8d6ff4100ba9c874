package serve

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	"charm.land/wish/v2/bubbletea"
	gossh "golang.org/x/crypto/ssh"

	"github.com/agentwatch/agentwatch/tui"
)

// viewer is one session: who is watching, from where, and how the
// session ended.
type viewer struct {
	key, user, addr string
	// ctx ends with the session; the viewer's feed and timers with it.
	ctx context.Context
	// idle is set when the session was closed for want of input, behind
	// when the viewer fell too far behind its sources; failed holds why no
	// screen could be made.
	idle   atomic.Bool
	behind atomic.Bool
	// stalled is set when the viewer was dropped for taking nothing.
	stalled atomic.Bool
	failed  error
}

// String names the viewer in the log.
func (v *viewer) String() string {
	return fmt.Sprintf("%s (user %s) from %s", v.key, safe(v.user), v.addr)
}

// viewerKey is where a session's viewer is kept in its context.
type viewerKey struct{}

// admit is what every session meets first: it logs the viewer in and
// out, keeps to the cap on viewers, and refuses a session without a
// terminal (a command never gets this far: requests.go refuses it). The
// screen runs inside it.
func (s *Server) admit(next ssh.Handler) ssh.Handler {
	return func(sess ssh.Session) {
		v := &viewer{user: sess.User(), addr: sess.RemoteAddr().String()}
		if k := sess.PublicKey(); k != nil {
			v.key = gossh.FingerprintSHA256(k)
		}
		start := time.Now()
		s.log.printf("%s: session opened", v)
		defer func() { s.log.printf("%s: left after %s", v, time.Since(start).Round(time.Second)) }()
		select {
		case s.slots <- struct{}{}:
			defer func() { <-s.slots }()
		default:
			s.refuse(sess, v, fmt.Sprintf("%d viewers are watching, as many as this server takes; try again later", s.cfg.MaxSessions))
			return
		}
		if _, _, ok := sess.Pty(); !ok {
			s.refuse(sess, v, "agentwatch serve shows a screen and needs a terminal: connect with ssh -t")
			return
		}
		ctx, cancel := context.WithCancel(sess.Context())
		defer cancel()
		v.ctx = ctx
		sess.Context().SetValue(viewerKey{}, v)
		next(sess)
		switch {
		case v.stalled.Load():
			// Its connection is closed: there is no one to tell.
		case v.failed != nil:
			s.refuse(sess, v, "agentwatch serve: "+v.failed.Error())
		case v.behind.Load():
			s.refuse(sess, v, "agentwatch serve: your screen fell too far behind its sources to go on; connect again to take them up where they are now")
		case v.idle.Load():
			s.log.printf("%s: closed after %s without input", v, s.cfg.IdleTimeout)
			fmt.Fprintf(sess.Stderr(), "agentwatch serve: nothing from you for %s, so the session is closed\n", s.cfg.IdleTimeout)
			sess.Exit(1)
		}
	}
}

// refuse tells the viewer, and the log, why its session ends, and ends it.
func (s *Server) refuse(sess ssh.Session, v *viewer, why string) {
	s.log.printf("%s: refused: %s", v, why)
	fmt.Fprintln(sess.Stderr(), why)
	sess.Exit(1)
}

// screenMiddleware runs each session's own screen (wish's Bubble Tea
// middleware: the session's keys in, its frames out, window changes sent
// on as sizes).
func (s *Server) screenMiddleware() wish.Middleware {
	return bubbletea.MiddlewareWithProgramHandler(s.program)
}

// program is a session's screen: the show as a new viewer sees it, with
// its own size, selection, follow mode and replay position; the sources'
// status sent on as it changes; closed after IdleTimeout without input.
// It is nil, and the session ends, when the screen cannot be made.
func (s *Server) program(sess ssh.Session) *tea.Program {
	v, _ := sess.Context().Value(viewerKey{}).(*viewer)
	if v == nil {
		return nil
	}
	scr, err := s.show.Screen(v.ctx)
	if err != nil {
		v.failed = err
		return nil
	}
	in := newIdleInput(sess)
	var out io.Writer = &stallWriter{w: sess, limit: s.cfg.StallTimeout, stalled: s.dropper(sess, v)}
	if s.output != nil {
		out = s.output(out)
	}
	p := tui.NewProgram(scr.Model, in, out, func(c tui.Crash) string {
		kept := ""
		if s.cfg.Crashes != nil {
			kept = s.cfg.Crashes(c)
		}
		s.log.printf("%s: the screen hit a bug (%v) and shows it; details in %q", v, c.Value, kept)
		return kept
	}, bubbletea.MakeOptions(sess)...)
	go p.Send(tea.RequestBackgroundColor()) // light or dark markdown theme
	if scr.Start != nil {
		go scr.Start(p.Send)
	}
	if scr.Status != nil {
		go func() {
			for st := range scr.Status {
				p.Send(tui.SourceStatusMsg(st))
			}
		}()
	}
	if scr.Behind != nil {
		go func() {
			select {
			case <-scr.Behind:
				v.behind.Store(true)
				p.Quit()
			case <-v.ctx.Done():
			}
		}()
	}
	go in.watch(v.ctx, s.cfg.IdleTimeout, func() {
		v.idle.Store(true)
		p.Quit()
	})
	return p
}

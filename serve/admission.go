package serve

import (
	"fmt"
	"net"
	"sync"
	"time"

	"charm.land/ssh"
)

// Connections are counted before any work is done for them: a connection
// that arrives when every one of --max-sessions seats is taken, or when as
// many connections are logging in already, is closed at once, before the
// key exchange, so a flood of them costs the server a close each and the
// viewers watching nothing. A connection stops counting as logging in once
// it opens a session, which it can only do logged in, or once it closes
// (the handshake has handshakeTimeout). Not once its key is let in: a
// client may ask whether a key would do without proving it holds the
// private key, and anyone may know a public key.

// startupKey is where a connection's release of its place among those
// logging in is kept in its context.
type startupKey struct{}

// admitConn takes conn in when there is a seat and a place to log in, and
// otherwise closes it at once (gliderlabs closes a connection its
// ConnCallback returns nil for).
func (s *Server) admitConn(ctx ssh.Context, conn net.Conn) net.Conn {
	if len(s.slots) >= cap(s.slots) {
		s.refused.note(s.log, conn, fmt.Sprintf("%d viewers are watching, as many as --max-sessions", cap(s.slots)))
		return nil
	}
	select {
	case s.startups <- struct{}{}:
	default:
		s.refused.note(s.log, conn, fmt.Sprintf("%d connections are logging in, as many as --max-sessions", cap(s.startups)))
		return nil
	}
	release := sync.OnceFunc(func() { <-s.startups })
	ctx.SetValue(startupKey{}, release)
	return &startupConn{Conn: conn, release: release}
}

// loggedIn frees the place among those logging in of the connection of
// ctx, which opened a session.
func loggedIn(ctx ssh.Context) {
	if release, ok := ctx.Value(startupKey{}).(func()); ok {
		release()
	}
}

// startupConn is a connection that frees its place among those logging in
// when it closes.
type startupConn struct {
	net.Conn
	release func()
}

// Close closes the connection and frees its place.
func (c *startupConn) Close() error {
	c.release()
	return c.Conn.Close()
}

// refusals logs connections closed at once: the first of a second in a
// line, the rest counted in the next line, so a flood of them cannot
// flood the log.
type refusals struct {
	mu     sync.Mutex
	last   time.Time
	quiet  int
	reason string
}

// note logs that conn was closed for why, or counts it when a line was
// written less than a second ago.
func (r *refusals) note(log *connLog, conn net.Conn, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if now := log.now(); now.Sub(r.last) >= time.Second {
		more := ""
		if r.quiet > 0 {
			more = fmt.Sprintf(" (and %d more in the second before: %s)", r.quiet, r.reason)
		}
		log.printf("connection from %s closed at once: %s%s", conn.RemoteAddr(), why, more)
		r.last, r.quiet = now, 0
		return
	}
	r.quiet++
	r.reason = why
}

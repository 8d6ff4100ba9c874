package serve

import (
	"encoding/binary"
	"fmt"
	"io"

	"charm.land/ssh"
	gossh "golang.org/x/crypto/ssh"
)

// The largest terminal a viewer's screen is drawn for. A terminal that says
// it is larger gets a screen of this size in its top-left corner: the
// screen holds some 400 bytes per cell of the size it is told, so the size
// a client claims is not taken on trust (a demo viewer's heap grew by
// 3 MiB at 160×48, 30 at 480×160, 52 at 512×256, 507 at 1000×1000; a
// 100000×100000 terminal ran the server out of memory). 480×160 is a 4K
// monitor at an 8×13-pixel font.
const (
	MaxColumns = 480
	MaxRows    = 160
)

// What a session channel may ask for: a terminal, its size as it changes,
// and a shell in it (the screen). Everything else (a command, a subsystem
// such as sftp, an agent or X11 forwarded, environment variables, signals)
// is refused, so a viewer gets the screen and nothing besides.
const (
	reqPty          = "pty-req"
	reqWindowChange = "window-change"
	reqShell        = "shell"
)

// screenOnly is a session channel whose requests are filtered before the
// session sees them: only those a screen needs get through, the sizes in
// them clamped to MaxColumns×MaxRows.
type screenOnly struct {
	gossh.NewChannel
	refused func(req *gossh.Request)
}

// sessionChannel is the handler of "session" channels: the library's own,
// behind the filter of screenOnly.
func (s *Server) sessionChannel(srv *ssh.Server, conn *gossh.ServerConn, ch gossh.NewChannel, ctx ssh.Context) {
	loggedIn(ctx)
	ssh.DefaultSessionHandler(srv, conn, screenOnly{NewChannel: ch, refused: func(req *gossh.Request) {
		s.log.printf("%s from %s: %s request refused", keyOf(ctx), ctx.RemoteAddr(), req.Type)
	}}, ctx)
}

// keyOf is the fingerprint of the key a connection logged in with.
func keyOf(ctx ssh.Context) string {
	if k, ok := ctx.Value(ssh.ContextKeyPublicKey).(ssh.PublicKey); ok && k != nil {
		return gossh.FingerprintSHA256(k)
	}
	return "a connection"
}

// Accept accepts the channel and hands on only the requests a screen
// needs, in the order they came.
func (c screenOnly) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := c.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		for req := range reqs {
			switch req.Type {
			case reqPty:
				req.Payload = clampPty(req.Payload)
			case reqWindowChange:
				req.Payload = clampWindow(req.Payload)
			case reqShell:
			default:
				tell(ch.Stderr(), req)
				// ssh sends LANG and LC_* by default, and says when its
				// input ends: too common to log.
				if c.refused != nil && req.Type != "env" && req.Type != "eow@openssh.com" {
					c.refused(req)
				}
				// Answered no by the session, in turn: a client may send
				// its next request before the answer to the one before
				// (ssh sends pty-req and exec at once), and takes the
				// answers in the order it asked.
				req.Type = refusedRequest
			}
			out <- req
		}
	}()
	return ch, out, nil
}

// refusedRequest is what a refused request is called when it is handed
// on: a type the session does not know, and answers no to.
const refusedRequest = "refused@agentwatch"

// tell tells a client that asked to run something why it is refused, on
// its error stream (ssh prints it before its own "exec request failed",
// when it reads it before it exits).
func tell(stderr io.Writer, req *gossh.Request) {
	switch req.Type {
	case "exec":
		fmt.Fprintln(stderr, "agentwatch serve runs no commands: connect with ssh -t and no command")
	case "subsystem":
		fmt.Fprintln(stderr, "agentwatch serve has no subsystems (no sftp, no scp): connect with ssh -t")
	}
}

// clampPty is a pty-req payload (the terminal's name, then its columns,
// rows, and size in pixels, then its modes) with the columns and rows
// clamped. A payload too short to hold them is handed on as it is, for
// the session to refuse.
func clampPty(p []byte) []byte {
	if len(p) < 4 {
		return p
	}
	n := binary.BigEndian.Uint32(p)
	if uint64(len(p)) < 4+uint64(n)+8 {
		return p
	}
	return clampSize(p, 4+int(n))
}

// clampWindow is a window-change payload (columns, rows, pixels) with the
// columns and rows clamped.
func clampWindow(p []byte) []byte {
	if len(p) < 8 {
		return p
	}
	return clampSize(p, 0)
}

// clampSize is a copy of p with the columns and rows at offset at (two
// big-endian 32-bit numbers) clamped to MaxColumns×MaxRows.
func clampSize(p []byte, at int) []byte {
	q := append([]byte(nil), p...)
	for i, most := range []uint32{MaxColumns, MaxRows} {
		field := q[at+4*i : at+4*i+4]
		binary.BigEndian.PutUint32(field, min(binary.BigEndian.Uint32(field), most))
	}
	return q
}

package serve

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"time"

	"charm.land/ssh"
	"charm.land/wish/v2"
	gossh "golang.org/x/crypto/ssh"

	"github.com/agentwatch/agentwatch/tui"
)

// Defaults of the server's limits.
const (
	DefaultListen      = "127.0.0.1:2222"
	DefaultMaxSessions = 32
	DefaultIdleTimeout = 30 * time.Minute
)

// handshakeTimeout is how long a client has to log in.
const handshakeTimeout = 30 * time.Second

// Config says where a server listens, whom it lets in and for how long.
type Config struct {
	// Listen is the address to listen on; DefaultListen, on loopback,
	// when empty.
	Listen string
	// HostKey is the server's private key file, made when missing.
	HostKey string
	// AuthorizedKeys is the allowlist: an OpenSSH authorized_keys file.
	AuthorizedKeys string
	// MaxSessions is how many viewers may watch at once, and how many
	// connections may be logging in at once (0: the default).
	MaxSessions int
	// IdleTimeout closes a viewer's session after this long without a key
	// or a mouse event from it (0: the default).
	IdleTimeout time.Duration
	// StallTimeout drops a viewer whose terminal took nothing of what its
	// screen sent for this long (0: DefaultStallTimeout).
	StallTimeout time.Duration
	// Log is where connections are logged, a line each.
	Log io.Writer
	// Crashes keeps a viewer's crash (a bug in its screen, which the
	// viewer is shown and no other viewer meets) and says where; nil
	// keeps it only in the log.
	Crashes func(tui.Crash) string
}

// Server is an SSH server that gives every viewer a screen of its own onto
// one Show. It lets in only the public keys of its allowlist.
type Server struct {
	cfg      Config
	show     Show
	keys     *Keys
	hostKey  gossh.Signer
	log      *connLog
	ssh      *ssh.Server
	listener net.Listener
	// slots holds a token per viewer watching, startups one per
	// connection logging in, MaxSessions at most each (admission.go);
	// refused counts the connections closed at once.
	slots    chan struct{}
	startups chan struct{}
	refused  refusals
	// output, when set, wraps what each session writes (tests count
	// the bytes of each frame with it).
	output func(io.Writer) io.Writer

	served chan struct{} // closed when Serve returns
	err    error         // what Serve returned
	once   sync.Once
}

// Start checks the configuration, reads or makes the host key, listens
// and serves show until Close. Each login, refusal and session is logged
// to cfg.Log.
func Start(cfg Config, show Show) (*Server, error) {
	s, err := newServer(cfg)
	if err != nil {
		return nil, err
	}
	if err := s.listen(); err != nil {
		return nil, err
	}
	go s.serve(show)
	return s, nil
}

// newServer is a server that neither listens nor has a show yet.
func newServer(cfg Config) (*Server, error) {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.StallTimeout <= 0 {
		cfg.StallTimeout = DefaultStallTimeout
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	keys, withOptions, err := LoadKeys(cfg.AuthorizedKeys)
	if err != nil {
		return nil, err
	}
	signer, created, err := HostKey(cfg.HostKey)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, keys: keys, hostKey: signer,
		log:   &connLog{w: cfg.Log, now: time.Now},
		slots: make(chan struct{}, cfg.MaxSessions), startups: make(chan struct{}, cfg.MaxSessions), served: make(chan struct{})}
	if created {
		s.log.printf("made a new host key in %s", cfg.HostKey)
	}
	if withOptions > 0 {
		s.log.printf("%d keys in %s have options (command=, from=, …), which serve does not honour: they are not let in", withOptions, keys.Path())
	}
	s.ssh, err = wish.NewServer(
		func(srv *ssh.Server) error { srv.AddHostKey(signer); return nil },
		wish.WithPublicKeyAuth(s.allow),
		// No password or keyboard-interactive handler: ssh offers only
		// public keys, and refuses the rest.
		wish.WithMiddleware(s.screenMiddleware(), s.admit),
		func(srv *ssh.Server) error {
			srv.HandshakeTimeout = handshakeTimeout
			srv.ConnCallback = s.admitConn
			// Only session channels, and in them only what a screen needs
			// (requests.go); no port is forwarded either way, since no
			// direct-tcpip channel or tcpip-forward request has a handler.
			srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.sessionChannel}
			srv.RequestHandlers = map[string]ssh.RequestHandler{}
			// A connection that opens no session is closed after a while
			// too; sessions close on their own idle timer first.
			srv.IdleTimeout = cfg.IdleTimeout + time.Minute
			srv.ConnectionFailedCallback = func(conn net.Conn, err error) {
				s.log.printf("connection from %s failed: %s", conn.RemoteAddr(), err)
			}
			return nil
		},
	)
	if err != nil {
		return nil, fmt.Errorf("ssh server: %w", err)
	}
	return s, nil
}

// listen opens the listening socket.
func (s *Server) listen() error {
	l, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return fmt.Errorf("--listen %s: %w", s.cfg.Listen, err)
	}
	s.listener = l
	if a, ok := l.Addr().(*net.TCPAddr); ok && !a.IP.IsLoopback() {
		s.log.printf("listening on %s, beyond this machine: whoever reaches it with a listed key can watch", a)
	}
	return nil
}

// serve shows show to every viewer, accepting connections until Close.
func (s *Server) serve(show Show) {
	defer close(s.served)
	s.show = show
	s.log.printf("serving %s on %s (host key %s)", show.Title(), s.listener.Addr(), gossh.FingerprintSHA256(s.hostKey.PublicKey()))
	err := s.ssh.Serve(s.listener)
	if errors.Is(err, ssh.ErrServerClosed) {
		err = nil
	}
	s.err = err
}

// Addr is the address the server listens on (the port chosen when
// Listen asked for port 0).
func (s *Server) Addr() net.Addr { return s.listener.Addr() }

// HostKey is the server's public key, which viewers' known_hosts hold.
func (s *Server) HostKey() gossh.PublicKey { return s.hostKey.PublicKey() }

// Done is closed when the server has stopped serving; Err then says why.
func (s *Server) Done() <-chan struct{} { return s.served }

// Err is why the server stopped (nil after Close).
func (s *Server) Err() error { return s.err }

// Close stops listening and ends every session.
func (s *Server) Close() error {
	var err error
	s.once.Do(func() {
		err = s.ssh.Close()
		s.listener.Close() // in case Serve had not taken it yet
		<-s.served
	})
	return err
}

// allow lets a key in when the allowlist holds it, and logs a refusal.
func (s *Server) allow(ctx ssh.Context, key ssh.PublicKey) bool {
	ok, err := s.keys.Allows(key)
	switch {
	case err != nil:
		s.log.printf("key %s from %s refused: %s", gossh.FingerprintSHA256(key), ctx.RemoteAddr(), err)
	case !ok:
		s.log.printf("key %s from %s refused: not in %s", gossh.FingerprintSHA256(key), ctx.RemoteAddr(), s.keys.Path())
	}
	return ok
}

// Run serves what open opens until ctx ends (nil) or the server fails.
// The allowlist, the host key and the address are checked first, so a
// server that cannot start opens no source (and runs no agent).
func Run(ctx context.Context, cfg Config, open func() (Show, error)) error {
	s, err := newServer(cfg)
	if err != nil {
		return err
	}
	if err := s.listen(); err != nil {
		return err
	}
	show, err := open()
	if err != nil {
		s.listener.Close()
		return err
	}
	go s.serve(show)
	select {
	case <-ctx.Done():
		return s.Close()
	case <-s.Done():
		return s.Err()
	}
}

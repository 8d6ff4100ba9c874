package agent

import (
	"io"
	"strconv"
	"sync"

	acp "github.com/coder/acp-go-sdk"
)

// Serve speaks ACP v1 as the fixture agent, reading the client's messages
// from in and writing its own to out, until in ends or the client goes
// away. One call serves one connection; run it on a goroutine to drive the
// agent in-process over io.Pipes.
func Serve(opts Options, in io.Reader, out io.Writer) {
	f := &fixture{opts: opts.withDefaults(), wire: newWire(out), ready: make(chan struct{})}
	f.conn = acp.NewAgentSideConnection(f, f.wire, in)
	f.conn.SetLogger(f.opts.Logger)
	close(f.ready)
	f.opts.Logger.Info("fixture agent ready")
	<-f.conn.Done()
	f.opts.Logger.Info("client disconnected")
}

// fixture is the acp.Agent of one connection.
type fixture struct {
	opts Options
	wire *wire
	conn *acp.AgentSideConnection
	// ready is closed once conn is set: the SDK starts reading before
	// NewAgentSideConnection returns, so a handler may run before that.
	ready chan struct{}

	mu            sync.Mutex
	authenticated bool
	caps          acp.ClientCapabilities
	tokens        int
}

var (
	_ acp.Agent       = (*fixture)(nil)
	_ acp.AgentLoader = (*fixture)(nil)
)

// peer returns the connection once it is set.
func (f *fixture) peer() *acp.AgentSideConnection {
	<-f.ready
	return f.conn
}

func (f *fixture) clientCaps() acp.ClientCapabilities {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.caps
}

// terminalMeta reports whether the client advertised Zed's
// `clientCapabilities._meta.terminal_output: true`.
func (f *fixture) terminalMeta() bool {
	v, _ := f.clientCaps().Meta["terminal_output"].(bool)
	return v
}

// checkAuth answers -32000 while authentication is required and missing.
func (f *fixture) checkAuth() error {
	if !f.opts.RequireAuth {
		return nil
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.authenticated {
		return nil
	}
	return acp.NewAuthRequired(map[string]any{"authMethods": []string{AuthMethodID}})
}

// nextToken names one response for a wire hook.
func (f *fixture) nextToken(prefix string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokens++
	return prefix + "-" + strconv.Itoa(f.tokens)
}

package agent_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// recorder keeps what a test client received: the SDK's decoded
// notifications and, through an io.TeeReader on the agent's output, every
// raw line. Appends never block, so the SDK's 1024-slot notification queue
// drains as fast as the agent writes.
type recorder struct {
	mu      sync.Mutex
	notes   []acp.SessionNotification
	raw     [][]byte
	partial []byte
	changed chan struct{}

	// Flow control (see gate): session/update lines read off the wire,
	// and a condition signalled whenever the handler takes one.
	updatesRead int
	handled     *sync.Cond
	closed      bool
}

func newRecorder() *recorder {
	r := &recorder{changed: make(chan struct{}, 1)}
	r.handled = sync.NewCond(&r.mu)
	return r
}

// flowLimit is how many session/update notifications may be read but not
// yet handled: well under the SDK's 1024-slot queue, with room for one
// 64 KiB pipe read of small lines on top.
const flowLimit = 256

var updateMarker = []byte(`"method":"session/update"`)

// gate returns the reader to give the SDK: the agent's output, teed into
// the recorder, read only while fewer than flowLimit notifications wait
// for the handler.
//
// A non-blocking handler is not enough on its own. The SDK's reader
// goroutine only parses the JSON-RPC envelope, its handler goroutine also
// decodes the update unions, so an agent writing as fast as it can (here a
// 20,000-update session/load replay of pre-encoded lines) fills the
// 1024-slot queue and the SDK closes the connection ("notification queue
// overflow"), with or without -race. Holding back the read is the only
// backpressure the SDK leaves a client.
func (r *recorder) gate(src io.Reader) io.Reader {
	return &gatedReader{rec: r, src: io.TeeReader(src, r)}
}

type gatedReader struct {
	rec *recorder
	src io.Reader
}

func (g *gatedReader) Read(p []byte) (int, error) {
	r := g.rec
	r.mu.Lock()
	for r.updatesRead-len(r.notes) > flowLimit && !r.closed {
		r.handled.Wait()
	}
	r.mu.Unlock()
	return g.src.Read(p)
}

// close releases a gated reader for good.
func (r *recorder) close() {
	r.mu.Lock()
	r.closed = true
	r.handled.Broadcast()
	r.mu.Unlock()
}

func (r *recorder) signal() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// Write splits the agent's output into lines.
func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	r.partial = append(r.partial, p...)
	for {
		i := bytes.IndexByte(r.partial, '\n')
		if i < 0 {
			break
		}
		line := append([]byte(nil), r.partial[:i]...)
		r.raw = append(r.raw, line)
		if bytes.Contains(line, updateMarker) {
			r.updatesRead++
		}
		r.partial = r.partial[i+1:]
	}
	r.mu.Unlock()
	r.signal()
	return len(p), nil
}

func (r *recorder) add(n acp.SessionNotification) {
	r.mu.Lock()
	r.notes = append(r.notes, n)
	r.handled.Broadcast()
	r.mu.Unlock()
	r.signal()
}

// waitFor waits until cond, evaluated with the recorder locked, holds.
func (r *recorder) waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.NewTimer(20 * time.Second)
	defer deadline.Stop()
	for {
		r.mu.Lock()
		ok := cond()
		r.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-r.changed:
		case <-deadline.C:
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// notesFor returns the decoded notifications of one session.
func (r *recorder) notesFor(id acp.SessionId) []acp.SessionNotification {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []acp.SessionNotification
	for _, n := range r.notes {
		if n.SessionId == id {
			out = append(out, n)
		}
	}
	return out
}

// wireMessage is one raw JSON-RPC line from the agent.
type wireMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		SessionID acp.SessionId   `json:"sessionId"`
		Update    json.RawMessage `json:"update"`
	} `json:"params"`
	Result json.RawMessage `json:"result"`
	Line   []byte          `json:"-"`
}

func (m wireMessage) kind() string {
	var u struct {
		SessionUpdate string `json:"sessionUpdate"`
	}
	_ = json.Unmarshal(m.Params.Update, &u)
	return u.SessionUpdate
}

// wire parses every raw line received so far.
func (r *recorder) wire(t testing.TB) []wireMessage {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]wireMessage, len(r.raw))
	for i, line := range r.raw {
		if err := json.Unmarshal(line, &out[i]); err != nil {
			t.Fatalf("agent wrote a line that is not JSON: %v\n%s", err, line)
		}
		out[i].Line = line
	}
	return out
}

// updatesOnWire returns the session/update messages of one session.
func (r *recorder) updatesOnWire(t testing.TB, id acp.SessionId) []wireMessage {
	var out []wireMessage
	for _, m := range r.wire(t) {
		if m.Method == acp.ClientMethodSessionUpdate && m.Params.SessionID == id {
			out = append(out, m)
		}
	}
	return out
}

// kindOf is the raw `sessionUpdate` string of a decoded update, the way a
// client must dispatch: the SDK decodes unknown kinds into a known variant
// but keeps the string.
func kindOf(u acp.SessionUpdate) string {
	switch {
	case u.UserMessageChunk != nil:
		return u.UserMessageChunk.SessionUpdate
	case u.AgentMessageChunk != nil:
		return u.AgentMessageChunk.SessionUpdate
	case u.AgentThoughtChunk != nil:
		return u.AgentThoughtChunk.SessionUpdate
	case u.ToolCall != nil:
		return u.ToolCall.SessionUpdate
	case u.ToolCallUpdate != nil:
		return u.ToolCallUpdate.SessionUpdate
	case u.Plan != nil:
		return u.Plan.SessionUpdate
	case u.AvailableCommandsUpdate != nil:
		return u.AvailableCommandsUpdate.SessionUpdate
	case u.CurrentModeUpdate != nil:
		return u.CurrentModeUpdate.SessionUpdate
	case u.ConfigOptionUpdate != nil:
		return u.ConfigOptionUpdate.SessionUpdate
	case u.SessionInfoUpdate != nil:
		return u.SessionInfoUpdate.SessionUpdate
	case u.UsageUpdate != nil:
		return u.UsageUpdate.SessionUpdate
	}
	return ""
}

// client is the test's acp.Client: it records updates and file requests
// and answers permission requests through onPermission.
type client struct {
	rec          *recorder
	onPermission func(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error)

	mu          sync.Mutex
	files       map[string]string // readable files by absolute path
	reads       []string
	writes      map[string]string
	permissions []acp.RequestPermissionRequest
}

func newClient(rec *recorder) *client {
	return &client{rec: rec, files: map[string]string{}, writes: map[string]string{}}
}

// addFile makes path readable through fs/read_text_file.
func (c *client) addFile(path, content string) {
	c.mu.Lock()
	c.files[path] = content
	c.mu.Unlock()
}

// answerPermissions sets how permission requests are answered.
func (c *client) answerPermissions(f func(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error)) {
	c.mu.Lock()
	c.onPermission = f
	c.mu.Unlock()
}

// requests returns copies of the file reads, file writes and permission
// requests the agent made so far.
func (c *client) requests() (reads []string, writes map[string]string, permissions []acp.RequestPermissionRequest) {
	c.mu.Lock()
	defer c.mu.Unlock()
	writes = map[string]string{}
	for k, v := range c.writes {
		writes[k] = v
	}
	return append([]string(nil), c.reads...), writes, append([]acp.RequestPermissionRequest(nil), c.permissions...)
}

func (c *client) SessionUpdate(_ context.Context, n acp.SessionNotification) error {
	c.rec.add(n)
	return nil
}

func (c *client) RequestPermission(ctx context.Context, p acp.RequestPermissionRequest) (acp.RequestPermissionResponse, error) {
	c.mu.Lock()
	c.permissions = append(c.permissions, p)
	on := c.onPermission
	c.mu.Unlock()
	if on == nil {
		return acp.RequestPermissionResponse{Outcome: acp.NewRequestPermissionOutcomeSelected(p.Options[0].OptionId)}, nil
	}
	return on(ctx, p)
}

func (c *client) ReadTextFile(_ context.Context, p acp.ReadTextFileRequest) (acp.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, p.Path)
	content, ok := c.files[p.Path]
	if !ok {
		return acp.ReadTextFileResponse{}, &acp.RequestError{Code: -32002, Message: "Resource not found", Data: map[string]any{"path": p.Path}}
	}
	return acp.ReadTextFileResponse{Content: content}, nil
}

func (c *client) WriteTextFile(_ context.Context, p acp.WriteTextFileRequest) (acp.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes[p.Path] = p.Content
	return acp.WriteTextFileResponse{}, nil
}

var errNoTerminal = errors.New("test client has no terminals")

func (c *client) CreateTerminal(context.Context, acp.CreateTerminalRequest) (acp.CreateTerminalResponse, error) {
	return acp.CreateTerminalResponse{}, errNoTerminal
}

func (c *client) KillTerminal(context.Context, acp.KillTerminalRequest) (acp.KillTerminalResponse, error) {
	return acp.KillTerminalResponse{}, errNoTerminal
}

func (c *client) TerminalOutput(context.Context, acp.TerminalOutputRequest) (acp.TerminalOutputResponse, error) {
	return acp.TerminalOutputResponse{}, errNoTerminal
}

func (c *client) ReleaseTerminal(context.Context, acp.ReleaseTerminalRequest) (acp.ReleaseTerminalResponse, error) {
	return acp.ReleaseTerminalResponse{}, errNoTerminal
}

func (c *client) WaitForTerminalExit(context.Context, acp.WaitForTerminalExitRequest) (acp.WaitForTerminalExitResponse, error) {
	return acp.WaitForTerminalExitResponse{}, errNoTerminal
}

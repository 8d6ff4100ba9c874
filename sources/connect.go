package sources

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	neturl "net/url"
	"strings"
	"time"
)

// DefaultConnectMaxEventBytes is the frame size limit Connect uses when
// ConnectOptions.MaxEventBytes is not set.
const DefaultConnectMaxEventBytes int64 = 16 << 20

// errorBodyBytes is how much of an error response's body is read for the
// error (which quotes at most peerTextRunes characters of it).
const errorBodyBytes = 1 << 10

// maxRedirects is how many redirects Connect follows, as Go's client does.
const maxRedirects = 10

// ConnectOptions say how to start an AG-UI run over HTTP.
type ConnectOptions struct {
	// Input is the RunAgentInput JSON body (see RunInput).
	Input []byte
	// Headers are added to the request, e.g. Authorization. Their values
	// are never logged and never appear in an error, and they never leave
	// the endpoint's origin: a redirect to another scheme, host or port is
	// refused (see Connect).
	Headers map[string]string
	// Client sends the request. The default has no overall timeout (a run's
	// stream can last a long time) but bounds dialing, the TLS handshake and
	// the wait for the response headers.
	Client *http.Client
	// MaxEventBytes is the largest SSE frame accepted; 0 means
	// DefaultConnectMaxEventBytes. A larger frame becomes an Unreadable
	// record (see Connect).
	MaxEventBytes int64
	// IdleTimeout ends a stream that sends no byte for this long (an
	// SSE comment, a keep-alive, counts) with an error that says so; 0
	// waits for ever. A server that answers with its headers and then
	// nothing would otherwise hold a headless connect until it is
	// interrupted.
	IdleTimeout time.Duration
}

// ErrIdle is why a stream that sent nothing for ConnectOptions.IdleTimeout
// ended.
var ErrIdle = errors.New("the endpoint sent nothing")

// defaultClient is the Client Connect uses when none is given.
var defaultClient = func() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.DialContext = (&net.Dialer{Timeout: 15 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	t.TLSHandshakeTimeout = 15 * time.Second
	t.ResponseHeaderTimeout = 60 * time.Second
	t.ExpectContinueTimeout = time.Second
	return &http.Client{Transport: t}
}()

// RunInput builds a minimal RunAgentInput JSON: threadId (the one given, or
// a new random id when threadID is ""), a new random runId, and one user
// message with text (no messages when text is ""). state, tools, context and
// forwardedProps are present and empty, since some servers require them.
func RunInput(threadID, text string) []byte {
	if threadID == "" {
		threadID = newID()
	}
	type message struct {
		ID      string `json:"id"`
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	msgs := []message{}
	if text != "" {
		msgs = append(msgs, message{ID: newID(), Role: "user", Content: text})
	}
	in := struct {
		ThreadID       string         `json:"threadId"`
		RunID          string         `json:"runId"`
		State          map[string]any `json:"state"`
		Messages       []message      `json:"messages"`
		Tools          []any          `json:"tools"`
		Context        []any          `json:"context"`
		ForwardedProps map[string]any `json:"forwardedProps"`
	}{threadID, newID(), map[string]any{}, msgs, []any{}, []any{}, map[string]any{}}
	b, err := json.Marshal(in)
	if err != nil {
		panic(err) // cannot happen: only strings, empty maps and slices
	}
	return b
}

// newID returns a random UUID (version 4) as text.
func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Connect POSTs opts.Input to url with Accept: text/event-stream and
// Content-Type: application/json and returns a Reader over the SSE
// response, with records as NewReaderFormat(body, FormatSSE) makes them,
// and a func that ends the stream and releases the connection (call it
// once done; Next then fails).
//
// A non-2xx status is the error "HTTP 401 Unauthorized: <the start of the
// body>", reason phrase and body quoted without escape sequences or
// control characters, on one line, at most 300 characters of the body; a
// response that is not text/event-stream is an error naming the content
// type it has. Redirects are followed only within the URL's origin (its
// scheme, host and port): the request carries the headers and the run
// input, which must not go to another server unasked; a redirect
// elsewhere is an error naming where it led. A URL in an error has the
// secret part of its user information replaced (RedactURL). After a
// successful Connect:
//   - a frame larger than MaxEventBytes is rejected: Next returns a record
//     whose Event is a *model.Unreadable with a Reason such as "event at
//     byte 52 is larger than 16 MiB; skipped", and reading goes on with the
//     next frame (the frame is skipped without being held in memory);
//   - a clean end of the stream, between frames, is io.EOF;
//   - a stream that ends inside a frame (the connection closed before the
//     frame's blank line) is an error "stream broken after N events: it
//     ended in the middle of an event", and that frame is not an event;
//   - a connection that breaks mid-stream is an error "stream broken after
//     N events: …" (N counts the records Next returned), and a stream ended
//     by ctx or by the close func is "stream stopped after N events: …";
//     both wrap the underlying error, and Next keeps returning it.
func Connect(ctx context.Context, url string, opts ConnectOptions) (*Reader, func() error, error) {
	ctx, cancelCause := context.WithCancelCause(ctx)
	cancel := func() { cancelCause(nil) }
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(opts.Input))
	if err != nil {
		cancel()
		return nil, nil, redactErr(err)
	}
	for k, v := range opts.Headers {
		if strings.EqualFold(k, "Host") {
			req.Host = v
			continue
		}
		req.Header.Set(k, v)
	}
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	client := sameOriginClient(opts.Client, req.URL)
	resp, err := client.Do(req)
	if err != nil {
		cancel()
		return nil, nil, redactErr(err)
	}
	status := peerText(resp.Status)
	fail := func(format string, args ...any) (*Reader, func() error, error) {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, errorBodyBytes))
		resp.Body.Close()
		cancel()
		msg := fmt.Sprintf(format, args...)
		if b := peerText(string(body)); b != "" {
			msg += ": " + b
		}
		return nil, nil, errors.New(msg)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fail("HTTP %s", status)
	}
	ct := resp.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "text/event-stream" {
		if ct == "" {
			return fail("HTTP %s: response has no content type, want text/event-stream", status)
		}
		return fail("HTTP %s: response content type is %q, want text/event-stream", status, peerText(ct))
	}

	var in io.Reader = resp.Body
	if opts.IdleTimeout > 0 {
		in = newIdleBody(resp.Body, opts.IdleTimeout, cancelCause)
	}
	body := &streamBody{in: in, ctx: ctx}
	r := NewReaderFormat(body, FormatSSE)
	r.MaxEventBytes = opts.MaxEventBytes
	if r.MaxEventBytes <= 0 {
		r.MaxEventBytes = DefaultConnectMaxEventBytes
	}
	body.r = r
	r.cutFrame = &streamError{r: r, err: errCutFrame}
	closeFn := func() error {
		cancel()
		return resp.Body.Close()
	}
	return r, closeFn, nil
}

// redactErr is err with the URL it names redacted (RedactURL).
func redactErr(err error) error {
	var ue *neturl.Error
	if errors.As(err, &ue) {
		ue.URL = RedactURL(ue.URL)
	}
	return err
}

// errCutFrame is why a stream that stopped inside a frame broke.
var errCutFrame = errors.New("it ended in the middle of an event")

// sameOriginClient is client (or the default one) following redirects
// only within origin's scheme, host and port, at most maxRedirects.
func sameOriginClient(client *http.Client, origin *neturl.URL) *http.Client {
	if client == nil {
		client = defaultClient
	}
	c := *client
	c.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if req.URL.Scheme != origin.Scheme || req.URL.Host != origin.Host {
			return fmt.Errorf("the endpoint redirected to %s, another origin than %s://%s: agentwatch does not follow it, "+
				"so that --header values and the run input go only where they were meant to; connect to that URL directly if you trust it",
				peerText(RedactURL(req.URL.String())), origin.Scheme, origin.Host)
		}
		if len(via) >= maxRedirects {
			return fmt.Errorf("stopped after %d redirects", maxRedirects)
		}
		if client.CheckRedirect != nil {
			return client.CheckRedirect(req, via)
		}
		return nil
	}
	return &c
}

// streamBody is the response body as the Reader sees it: read errors other
// than io.EOF become a *streamError saying the stream broke or was stopped.
type streamBody struct {
	in  io.Reader
	ctx context.Context
	r   *Reader // for the count of records returned
}

func (s *streamBody) Read(p []byte) (int, error) {
	n, err := s.in.Read(p)
	if err == nil || err == io.EOF {
		return n, err
	}
	cause := context.Cause(s.ctx)
	if errors.Is(cause, ErrIdle) {
		return n, &streamError{r: s.r, err: cause}
	}
	if cerr := s.ctx.Err(); cerr != nil {
		err = cerr
	}
	return n, &streamError{r: s.r, stopped: s.ctx.Err() != nil, err: err}
}

// streamError is how a stream that did not end cleanly ends. The read
// buffer may hold events received before the failure, so the count of
// events is taken when the message is made, which is after Next returned
// the error: by then the Reader has handed out every event it received and
// its count no longer changes (the error is sticky).
type streamError struct {
	r       *Reader
	stopped bool // by the context or the close func, not by the network
	err     error
}

func (e *streamError) Error() string {
	how := "broken"
	if e.stopped {
		how = "stopped"
	}
	var n uint64
	if e.r != nil {
		n = e.r.seq
	}
	return fmt.Sprintf("stream %s after %d events: %v", how, n, e.err)
}

func (e *streamError) Unwrap() error { return e.err }

// idleBody is a response body that ends the request (through stop, with
// ErrIdle as the cause) when no byte came for idle: the pending read then
// fails, as a connection closed by ctx does.
type idleBody struct {
	in    io.Reader
	idle  time.Duration
	timer *time.Timer
}

func newIdleBody(in io.Reader, idle time.Duration, stop context.CancelCauseFunc) *idleBody {
	b := &idleBody{in: in, idle: idle}
	b.timer = time.AfterFunc(idle, func() {
		stop(fmt.Errorf("%w for %v: no event and no keep-alive came", ErrIdle, idle))
	})
	return b
}

func (b *idleBody) Read(p []byte) (int, error) {
	n, err := b.in.Read(p)
	if n > 0 {
		b.timer.Reset(b.idle)
	}
	if err != nil {
		b.timer.Stop()
	}
	return n, err
}

package otlp

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// DefaultMaxBody is the largest request a Receiver takes (after gzip is
// undone), unless told otherwise: what exporters send in a batch is far
// smaller.
const DefaultMaxBody = 16 << 20

// waitForReader is how long a request waits, unless told otherwise, for
// a place among those in flight before its exporter is asked to retry
// (429 / RESOURCE_EXHAUSTED), then for the reader to take it (503 /
// UNAVAILABLE).
const waitForReader = 10 * time.Second

// Options are where a Receiver listens and whom it accepts.
type Options struct {
	// HTTP and GRPC are the addresses to listen on ("" for none); port 0
	// picks one (Receiver.HTTPAddr says which).
	HTTP, GRPC string
	// Token, when set, is required as "Authorization: Bearer TOKEN" on
	// every request. An address that is not loopback needs one.
	Token string
	// MaxBody bounds a request's size, before and after gzip (0:
	// DefaultMaxBody).
	MaxBody int64
	// MaxInFlight bounds the requests read, decoded or waiting for the
	// reader at once, over both transports (0: DefaultMaxInFlight).
	MaxInFlight int
	// MaxItems bounds the spans or log records of a request, and
	// MaxAttributes the attributes of each (0: DefaultMaxItems,
	// DefaultMaxAttributes).
	MaxItems, MaxAttributes int
	// Wait is how long a request waits for a place in flight, and then
	// for the reader to take it, before its exporter is asked to retry
	// (0: 10 s).
	Wait time.Duration
	// Now is the clock arrivals are stamped with (nil: time.Now).
	Now func() time.Time
}

// Arrival is a request the receiver accepted. Its exporter is answered
// once the reader says what became of it (Kept): success only for a
// request that was kept.
type Arrival struct {
	Request
	// At is when it arrived; Via how ("http/protobuf", "http/json", "grpc").
	At  time.Time
	Via string
	// kept is where the reader's word goes (room for one).
	kept chan error
}

// Kept tells the receiver what became of the request: nil once it is
// kept (written to the recording, when there is one), or why it was not,
// which its exporter is answered with (HTTP 503, gRPC UNAVAILABLE, both a
// retry later). An exporter waits for this word, so a reader says it for
// every arrival it takes, once.
func (a Arrival) Kept(err error) {
	if a.kept == nil {
		return
	}
	select {
	case a.kept <- err:
	default:
	}
}

// Receiver is an OTLP receiver: OTLP/HTTP (POST /v1/traces, /v1/logs,
// /v1/metrics; protobuf or JSON; gzip) and OTLP/gRPC (the Collector's
// pdata service registrations). It answers as the OTLP specification
// asks: success (a partial success for metrics, which are not shown),
// 400 for a payload that does not decode, 401 for a wrong token, 413 for
// a body over the limit, 415 for a content type or encoding it does not
// read, 503 when the reader falls behind. Accepted requests come out of
// Arrivals in the order they were accepted.
//
// What a stranger can make it hold is bounded: a call without the token
// is refused before its body is read; at most MaxInFlight requests are
// read, decoded or wait at once (others wait for a place, then are asked
// to retry: 429); a body is at most MaxBody before and after gzip (413);
// JSON nests at most agui.MaxDepth levels (400); a request holds at most
// MaxItems spans or log records and each at most MaxAttributes
// attributes (413). Counts says how many requests were taken and turned
// away, and why.
type Receiver struct {
	opts     Options
	arrivals chan Arrival
	// slots hold a place for each request in flight.
	slots   chan struct{}
	counts  counters
	taken   *remembered
	httpLn  net.Listener
	grpcLn  net.Listener
	httpSrv *http.Server
	grpcSrv *grpc.Server
	done    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
	// mu guards closed; inflight counts deliveries under way, which
	// Close waits for before it closes arrivals.
	mu       sync.Mutex
	closed   bool
	inflight sync.WaitGroup
}

// Listen binds the receiver's addresses. It refuses an address that is
// not loopback when no token is set: telemetry carries prompts and
// commands, and an open receiver lets anyone put steps on the screen.
func Listen(opts Options) (*Receiver, error) {
	if opts.HTTP == "" && opts.GRPC == "" {
		return nil, errors.New("no address to listen on")
	}
	if opts.MaxBody <= 0 {
		opts.MaxBody = DefaultMaxBody
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Wait <= 0 {
		opts.Wait = waitForReader
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	if opts.MaxItems <= 0 {
		opts.MaxItems = DefaultMaxItems
	}
	if opts.MaxAttributes <= 0 {
		opts.MaxAttributes = DefaultMaxAttributes
	}
	for _, a := range []string{opts.HTTP, opts.GRPC} {
		if a != "" && opts.Token == "" && !Loopback(a) {
			return nil, fmt.Errorf("listen %s: not a loopback address, so a token is required (--token-file FILE); exporters then send Authorization: Bearer TOKEN", a)
		}
	}
	// No room in arrivals: a request waits in its own handler, holding
	// its place in flight, until the reader takes it.
	r := &Receiver{opts: opts, arrivals: make(chan Arrival), done: make(chan struct{}),
		slots: make(chan struct{}, opts.MaxInFlight), taken: newRemembered()}
	var err error
	if opts.HTTP != "" {
		if r.httpLn, err = net.Listen("tcp", opts.HTTP); err != nil {
			return nil, fmt.Errorf("listen %s: %w", opts.HTTP, err)
		}
	}
	if opts.GRPC != "" {
		if r.grpcLn, err = net.Listen("tcp", opts.GRPC); err != nil {
			if r.httpLn != nil {
				r.httpLn.Close()
			}
			return nil, fmt.Errorf("listen %s: %w", opts.GRPC, err)
		}
	}
	return r, nil
}

// Loopback reports whether a listen address is on the loopback interface
// only (localhost, 127.0.0.0/8, ::1); ":4318" listens on every interface.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// HTTPAddr is the address OTLP/HTTP is served on ("" when not).
func (r *Receiver) HTTPAddr() string { return addrOf(r.httpLn) }

// GRPCAddr is the address OTLP/gRPC is served on ("" when not).
func (r *Receiver) GRPCAddr() string { return addrOf(r.grpcLn) }

func addrOf(ln net.Listener) string {
	if ln == nil {
		return ""
	}
	return ln.Addr().String()
}

// Arrivals delivers the accepted requests; it closes after Close. The
// reader tells each one's fate with Arrival.Kept.
func (r *Receiver) Arrivals() <-chan Arrival { return r.arrivals }

// Counts says how many requests were taken and turned away, and why.
func (r *Receiver) Counts() Counts { return r.counts.snapshot() }

// Serve serves until Close.
func (r *Receiver) Serve() {
	if r.httpLn != nil {
		// The server's own error log would write behind the screen.
		r.httpSrv = &http.Server{Handler: r.httpHandler(), ReadHeaderTimeout: 10 * time.Second,
			ReadTimeout: time.Minute, ErrorLog: log.New(io.Discard, "", 0)}
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			_ = r.httpSrv.Serve(r.httpLn)
		}()
	}
	if r.grpcLn != nil {
		r.grpcSrv = r.grpcServer()
		r.wg.Add(1)
		go func() {
			defer r.wg.Done()
			_ = r.grpcSrv.Serve(r.grpcLn)
		}()
	}
}

// Close stops listening, ends the requests in flight and closes Arrivals.
func (r *Receiver) Close() error {
	r.once.Do(func() {
		r.mu.Lock()
		r.closed = true
		r.mu.Unlock()
		close(r.done)
		if r.httpSrv != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_ = r.httpSrv.Shutdown(ctx)
			cancel()
		} else if r.httpLn != nil {
			r.httpLn.Close()
		}
		if r.grpcSrv != nil {
			r.grpcSrv.Stop()
		} else if r.grpcLn != nil {
			r.grpcLn.Close()
		}
		r.wg.Wait()
		r.inflight.Wait()
		close(r.arrivals)
	})
	return nil
}

// errBusy says the reader did not take a request in time.
var errBusy = errors.New("agentwatch is behind; retry later")

// admit holds a place in flight for a request, waiting a while for one:
// false when none came free (the exporter is asked to retry), or the
// request or the receiver ended. release gives the place back.
func (r *Receiver) admit(ctx context.Context) (release func(), ok bool) {
	select {
	case r.slots <- struct{}{}:
	default:
		timer := time.NewTimer(r.opts.Wait)
		defer timer.Stop()
		select {
		case r.slots <- struct{}{}:
		case <-timer.C:
			return nil, false
		case <-ctx.Done():
			return nil, false
		case <-r.done:
			return nil, false
		}
	}
	return func() { <-r.slots }, true
}

// busy is the answer to a request that found no place in flight.
func (r *Receiver) busy() *refusal {
	return refuse(Busy, http.StatusTooManyRequests, codes.ResourceExhausted,
		"agentwatch is taking %d requests at once, its most; retry later", r.opts.MaxInFlight)
}

// take decodes a request's body, checks it against the limits, and hands
// it to the reader, waiting for the reader's word: the request, or why it
// was turned away. A request taken before is answered as taken.
func (r *Receiver) take(ctx context.Context, sig Signal, asJSON bool, body []byte, via string) (Request, *refusal) {
	var key uint64
	if sig != SignalMetrics {
		key = r.taken.key(sig, asJSON, body)
		if r.taken.has(key) {
			r.counts.resent.Add(1)
			return Request{Signal: sig}, nil
		}
	}
	var (
		req Request
		err error
	)
	if asJSON {
		req, err = DecodeJSON(sig, body)
	} else {
		req, err = DecodeProto(sig, body)
	}
	if errors.Is(err, agui.ErrTooDeep) {
		return Request{}, refuse(TooDeep, http.StatusBadRequest, codes.InvalidArgument, "%s", err)
	}
	if err != nil {
		return Request{}, refuse(Malformed, http.StatusBadRequest, codes.InvalidArgument, "%s", err)
	}
	if f := r.checkCounts(req); f != nil {
		return Request{}, f
	}
	if sig == SignalMetrics {
		return req, nil
	}
	if err := r.deliver(ctx, req, via); err != nil {
		return Request{}, refuse(NotKept, http.StatusServiceUnavailable, codes.Unavailable, "%s", err)
	}
	r.taken.add(key)
	r.counts.taken.Add(1)
	return req, nil
}

// deliver hands an accepted request to the reader, waiting a while for it
// to be taken, then for the reader's word on it.
func (r *Receiver) deliver(ctx context.Context, req Request, via string) error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return errBusy
	}
	r.inflight.Add(1)
	r.mu.Unlock()
	defer r.inflight.Done()
	a := Arrival{Request: req, At: r.opts.Now(), Via: via, kept: make(chan error, 1)}
	timer := time.NewTimer(r.opts.Wait)
	defer timer.Stop()
	select {
	case r.arrivals <- a:
	case <-timer.C:
		return errBusy
	case <-ctx.Done():
		return ctx.Err()
	case <-r.done:
		return errBusy
	}
	select {
	case err := <-a.kept:
		if err != nil {
			return fmt.Errorf("agentwatch did not keep the request: %w", err)
		}
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-r.done:
		return errBusy
	}
}

// authorized checks an Authorization header value against the token.
func (r *Receiver) authorized(header string) bool {
	if r.opts.Token == "" {
		return true
	}
	got, ok := strings.CutPrefix(header, "Bearer ")
	if !ok {
		got, ok = strings.CutPrefix(header, "bearer ")
	}
	return ok && subtle.ConstantTimeCompare([]byte(strings.TrimSpace(got)), []byte(r.opts.Token)) == 1
}

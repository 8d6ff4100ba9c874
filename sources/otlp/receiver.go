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

// maxHeader bounds a request's headers (HTTP) or metadata (gRPC), which
// are read before the token is checked: an exporter sends a few hundred
// bytes, and both libraries would take a megabyte or more.
const maxHeader = 64 << 10

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
	// MaxWaiting bounds the requests that wait for a place in flight; past
	// it a request is asked to retry at once (0: DefaultMaxWaiting).
	MaxWaiting int
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
	kept chan verdict
}

// verdict is the reader's word on an arrival: kept unless err, with
// leftOut of its spans or log records left out, why.
type verdict struct {
	err     error
	leftOut int
	why     string
}

// Kept tells the receiver what became of the request: nil once it is
// kept (written to the recording, when there is one), or why it was not,
// which its exporter is answered with (HTTP 503, gRPC UNAVAILABLE, both a
// retry later). An exporter waits for this word, so a reader says it for
// every arrival it takes, once.
func (a Arrival) Kept(err error) { a.tell(verdict{err: err}) }

// KeptLeavingOut tells the receiver the request was kept but n of its
// spans or log records were left out, why: its exporter is answered with
// a partial success that rejects them, saying why (and does not send
// them again).
func (a Arrival) KeptLeavingOut(n int, why string) { a.tell(verdict{leftOut: n, why: why}) }

func (a Arrival) tell(v verdict) {
	if a.kept == nil {
		return
	}
	select {
	case a.kept <- v:
	default:
	}
}

// Receiver is an OTLP receiver: OTLP/HTTP (POST /v1/traces, /v1/logs,
// /v1/metrics; protobuf or JSON; gzip) and OTLP/gRPC (OTLP's three
// Export services, gzip too). It answers as the OTLP specification asks:
// success once the reader kept the request (a partial success for
// metrics, which are not shown, and for what the reader left out), 400
// for a payload that does not decode, 401 for a wrong token, 413 for a
// body over the limit, 415 for a content type or encoding it does not
// read, 503 when the reader falls behind or could not keep it. Accepted
// requests come out of Arrivals in the order they were accepted.
//
// What a stranger can make it hold is bounded: a call without the token
// is refused before its body is read; at most MaxInFlight requests are
// read, decoded or wait at once (others, MaxWaiting at most, wait for a
// place, then are asked to retry: 429); a body is at most MaxBody before and after gzip (413);
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
	if opts.MaxWaiting <= 0 {
		opts.MaxWaiting = DefaultMaxWaiting
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
		r.httpSrv = &http.Server{Handler: r.httpHandler(), ReadHeaderTimeout: 10 * time.Second, MaxHeaderBytes: maxHeader,
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

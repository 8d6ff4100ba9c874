package otlp

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"google.golang.org/grpc/codes"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// errBusy says the reader did not take a request in time.
var errBusy = errors.New("agentwatch is behind; retry later")

// admit holds a place in flight for a request, waiting a while for one:
// false when none came free (the exporter is asked to retry), when
// MaxWaiting requests wait already, or when the request or the receiver
// ended. release gives the place back.
func (r *Receiver) admit(ctx context.Context) (release func(), ok bool) {
	select {
	case r.slots <- struct{}{}:
	default:
		// A waiting request holds its connection and headers, not its
		// body; still, they are a stranger's, so they are bounded too.
		if r.counts.waiting.Add(1) > int64(r.opts.MaxWaiting) {
			r.counts.waiting.Add(-1)
			return nil, false
		}
		defer r.counts.waiting.Add(-1)
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
// it to the reader, waiting for the reader's word: the export response,
// in the body's encoding, or why it was turned away. A request taken
// before is answered as taken.
func (r *Receiver) take(ctx context.Context, sig Signal, asJSON bool, body []byte, via string) ([]byte, *refusal) {
	var key uint64
	if sig != SignalMetrics {
		key = r.taken.key(sig, asJSON, body)
		if r.taken.has(key) {
			r.counts.resent.Add(1)
			return r.answer(Request{Signal: sig}, asJSON, verdict{})
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
		return nil, refuse(TooDeep, http.StatusBadRequest, codes.InvalidArgument, "%s", err)
	}
	if err != nil {
		return nil, refuse(Malformed, http.StatusBadRequest, codes.InvalidArgument, "%s", err)
	}
	if f := r.checkCounts(req); f != nil {
		return nil, f
	}
	if sig == SignalMetrics {
		return r.answer(req, asJSON, verdict{})
	}
	v, err := r.deliver(ctx, req, via)
	if err != nil {
		return nil, refuse(NotKept, http.StatusServiceUnavailable, codes.Unavailable, "%s", err)
	}
	r.taken.add(key)
	r.counts.taken.Add(1)
	r.counts.leftOut.Add(int64(v.leftOut))
	return r.answer(req, asJSON, v)
}

// answer is the export response to a request the reader gave its word on.
func (r *Receiver) answer(req Request, asJSON bool, v verdict) ([]byte, *refusal) {
	out, err := response(req, asJSON, v)
	if err != nil {
		return nil, &refusal{why: Malformed, http: http.StatusInternalServerError, code: codes.Internal, msg: err.Error()}
	}
	return out, nil
}

// deliver hands an accepted request to the reader, waiting a while for it
// to be taken, then for the reader's word on it.
func (r *Receiver) deliver(ctx context.Context, req Request, via string) (verdict, error) {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return verdict{}, errBusy
	}
	r.inflight.Add(1)
	r.mu.Unlock()
	defer r.inflight.Done()
	a := Arrival{Request: req, At: r.opts.Now(), Via: via, kept: make(chan verdict, 1)}
	timer := time.NewTimer(r.opts.Wait)
	defer timer.Stop()
	select {
	case r.arrivals <- a:
	case <-timer.C:
		return verdict{}, errBusy
	case <-ctx.Done():
		return verdict{}, ctx.Err()
	case <-r.done:
		return verdict{}, errBusy
	}
	select {
	case v := <-a.kept:
		if v.err != nil {
			return v, fmt.Errorf("agentwatch did not keep the request: %w", v.err)
		}
		return v, nil
	case <-ctx.Done():
		return verdict{}, ctx.Err()
	case <-r.done:
		return verdict{}, errBusy
	}
}

package sources

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A server that answers with its headers and then sends nothing ends the
// stream once IdleTimeout passes, with an error that says so; what came
// before is kept.
func TestConnectIdleTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		writeSSE(w)
		fmt.Fprintf(w, "data: %s\n\n", runEvents[0])
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-req.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)

	r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", ""), IdleTimeout: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	done := make(chan struct{})
	var types []string
	go func() {
		types, err = readTypes(t, r)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("a silent stream is waited on past its idle timeout")
	}
	if len(types) != 1 || types[0] != "RUN_STARTED" {
		t.Errorf("read %q before the stream went quiet", types)
	}
	if !errors.Is(err, ErrIdle) || !strings.Contains(err.Error(), "stream broken after 1 events: the endpoint sent nothing for 50ms") {
		t.Errorf("err = %v; want the stream broken because the endpoint sent nothing", err)
	}
}

// Keep-alives (SSE comments) are bytes from the endpoint: a stream that
// sends them between events is not idle, however long it takes.
func TestConnectKeepAlivesAreNotIdle(t *testing.T) {
	const idle = 100 * time.Millisecond
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		writeSSE(w)
		f := w.(http.Flusher)
		f.Flush()
		for range 8 {
			time.Sleep(idle / 4)
			fmt.Fprint(w, ": keep-alive\n\n")
			f.Flush()
		}
		for _, e := range runEvents {
			fmt.Fprintf(w, "data: %s\n\n", e)
		}
	}))
	defer srv.Close()

	r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", ""), IdleTimeout: idle})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	types, err := readTypes(t, r)
	if err.Error() != "EOF" || len(types) != len(runEvents) {
		t.Errorf("read %q, then %v; want every event, then the end", types, err)
	}
}

package cli

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// silentServer answers with an event stream's headers, sends the events
// given, and then nothing until the client goes.
func silentServer(t *testing.T, events ...string) *httptest.Server {
	t.Helper()
	stop := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		for _, ev := range events {
			fmt.Fprintf(w, "data: %s\n\n", ev)
		}
		w.(http.Flusher).Flush()
		select {
		case <-req.Context().Done():
		case <-stop: // the test ended with the client still waiting
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(stop) }) // before srv.Close, which waits for the handler
	return srv
}

// An endpoint that answers and then sends nothing ends a headless connect
// after --idle-timeout with an error that says so, what came before
// printed; it does not wait until the user interrupts it.
func TestConnectSilentEndpointTimesOut(t *testing.T) {
	srv := silentServer(t, connectEvents[0])
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errOut := runCLI(t, nil, "connect", srv.URL, "--plain", "--idle-timeout", "200ms")
		done <- result{code, out, errOut}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(time.Minute):
		t.Fatal("connect waits on a silent endpoint past --idle-timeout")
	}
	if r.code != exitUnreadable || !strings.Contains(r.err, "stream broken after 1 events: the endpoint sent nothing for 200ms") ||
		!strings.Contains(r.err, "--idle-timeout") {
		t.Fatalf("exit %d, stderr %q; want exit %d, the endpoint silent for 200ms", r.code, r.err, exitUnreadable)
	}
	if !strings.Contains(r.out, "run r started") {
		t.Fatalf("what arrived before the silence is not shown:\n%s", r.out)
	}
}

// A negative --idle-timeout is refused, naming the flag.
func TestConnectIdleTimeoutFlag(t *testing.T) {
	code, _, errOut := runCLI(t, nil, "connect", "http://127.0.0.1:1/", "--idle-timeout", "-1s")
	if code != exitUnreadable || !strings.Contains(errOut, "--idle-timeout -1s") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
}

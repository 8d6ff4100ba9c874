// Package rawhttp is an HTTP server for tests that answers with bytes
// written as they are on the connection, then closes it: a response that
// ends by the close, is cut short, or is not well-formed HTTP at all.
package rawhttp

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// SSEHead is a response head of an event stream whose body ends when the
// connection closes (no length, no chunks).
const SSEHead = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"

// Server answers every request with resp, written as it is on the
// connection, and then closes the connection; it closes when t ends.
func Server(t testing.TB, resp string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		io.Copy(io.Discard, req.Body)
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		buf.WriteString(resp)
		buf.Flush()
	}))
	t.Cleanup(srv.Close)
	return srv
}

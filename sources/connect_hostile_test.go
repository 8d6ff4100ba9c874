package sources

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/rawhttp"
)

// A connection closed in the middle of an SSE frame is a broken stream,
// even when the body itself ends cleanly (no length, no chunks: the close
// is its end); the half frame is not an event. Closed between frames, it
// is a clean end.
func TestConnectCutMidFrame(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		events     int
		broken     bool
	}{
		{"between frames", "data: " + runEvents[0] + "\n\n", 1, false},
		{"inside the data", "data: " + runEvents[0] + "\n\ndata: {\"ty", 1, true},
		{"after a data line", "data: " + runEvents[0] + "\n\ndata: " + runEvents[1] + "\n", 1, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := rawhttp.Server(t, rawhttp.SSEHead+tc.body)
			r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", "")})
			if err != nil {
				t.Fatal(err)
			}
			defer closeFn()
			types, err := readTypes(t, r)
			if len(types) != tc.events {
				t.Fatalf("events %v, want %d", types, tc.events)
			}
			if !tc.broken {
				if err != io.EOF {
					t.Fatalf("end %v, want io.EOF", err)
				}
				return
			}
			want := fmt.Sprintf("stream broken after %d events: it ended in the middle of an event", tc.events)
			if err == nil || err.Error() != want {
				t.Fatalf("end %v, want %q", err, want)
			}
		})
	}
}

// An endpoint's error answer is quoted without anything a terminal acts
// on (escape sequences, C0 and C1 controls, bidi overrides), in the
// reason phrase as in the body, and cut short.
func TestConnectHostileErrorPage(t *testing.T) {
	page := "<h1>login</h1>\x1b]52;c;cHduZWQ=\x07\x1b]0;owned\x1b\\\x1b[2J\x1b[3J\u009b31m\u009d0;t\u009c\u202eexe.txt" +
		strings.Repeat("\x1b[1mpad ", 500)
	srv := rawhttp.Server(t, "HTTP/1.1 401 Unauthorized\x1b]0;title\x07\r\nContent-Type: text/html\r\nConnection: close\r\n\r\n"+page)
	_, _, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", "")})
	if err == nil {
		t.Fatal("no error for HTTP 401")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "HTTP 401 Unauthorized: <h1>login</h1>") {
		t.Fatalf("got %q", msg)
	}
	for _, r := range msg {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) || isBidi(r) {
			t.Fatalf("the error holds %U: %q", r, msg)
		}
	}
	if strings.Contains(msg, "52;") || strings.Contains(msg, "owned") || strings.Contains(msg, "[2J") {
		t.Fatalf("escape sequences left their parameters: %q", msg)
	}
	if n := len([]rune(msg)); n > 400 {
		t.Fatalf("the error is %d characters long", n)
	}
}

// A redirect to another origin is refused, so neither the headers nor the
// run input reach it; one within the origin is followed, headers and all.
func TestConnectRedirects(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		elsewhere.Add(1)
		writeSSE(w)
	}))
	defer other.Close()
	var gotKey atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.URL.Path {
		case "/away":
			http.Redirect(w, req, other.URL+"/run", http.StatusTemporaryRedirect)
		case "/here":
			http.Redirect(w, req, "/run", http.StatusTemporaryRedirect)
		default:
			gotKey.Store(req.Header.Get("X-Api-Key"))
			writeSSE(w)
			fmt.Fprintf(w, "data: %s\n\n", runEvents[0])
		}
	}))
	defer srv.Close()
	opts := ConnectOptions{Input: RunInput("", "hi"), Headers: map[string]string{"X-Api-Key": "k3y"}}

	_, _, err := Connect(context.Background(), srv.URL+"/away", opts)
	if err == nil || !strings.Contains(err.Error(), "redirected to "+other.URL+"/run") || strings.Contains(err.Error(), "k3y") {
		t.Fatalf("redirect elsewhere: %v", err)
	}
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("the other origin got %d requests", n)
	}

	r, closeFn, err := Connect(context.Background(), srv.URL+"/here", opts)
	if err != nil {
		t.Fatalf("redirect within the origin: %v", err)
	}
	defer closeFn()
	if types, _ := readTypes(t, r); len(types) != 1 || gotKey.Load() != "k3y" {
		t.Fatalf("after the redirect: events %v, header %v", types, gotKey.Load())
	}
}

// The password or token of a URL never appears in an error.
func TestConnectURLSecretsRedacted(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing answers there now
	for _, u := range []string{"http://user:PW123@" + addr + "/run", "http://TOKEN123@" + addr + "/run", "http://user:PW123@[::1"} {
		_, _, err := Connect(context.Background(), u, ConnectOptions{})
		if err == nil {
			t.Fatalf("%s: no error", u)
		}
		if strings.Contains(err.Error(), "PW123") || strings.Contains(err.Error(), "TOKEN123") {
			t.Fatalf("%s: the error shows the secret: %v", u, err)
		}
	}
}

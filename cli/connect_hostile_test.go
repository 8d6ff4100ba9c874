package cli

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/rawhttp"
)

// connectEvents are a short run, one SSE frame each.
var connectEvents = []string{
	`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`,
	`{"type":"TEXT_MESSAGE_START","messageId":"m","role":"assistant"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hello"}`,
	`{"type":"TEXT_MESSAGE_END","messageId":"m"}`,
	`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
}

// A connection closed in the middle of an event is an error exit with a
// clear message, after the events before it are printed; closed between
// events it is a clean end.
func TestConnectCutMidFrame(t *testing.T) {
	frames := ""
	for _, ev := range connectEvents[:3] {
		frames += "data: " + ev + "\n\n"
	}
	code, out, errOut := runCLI(t, nil, "connect", rawhttp.Server(t, rawhttp.SSEHead+frames+`data: {"type":"TEXT_MES`).URL, "--plain")
	if code != exitUnreadable || !strings.Contains(errOut, "stream broken after 3 events: it ended in the middle of an event") {
		t.Fatalf("cut mid-frame: exit %d, stderr %q", code, errOut)
	}
	if !strings.Contains(out, "run r started") {
		t.Fatalf("what arrived before the cut is not shown:\n%s", out)
	}
	code, out, errOut = runCLI(t, nil, "connect", rawhttp.Server(t, rawhttp.SSEHead+frames).URL, "--plain")
	if code != 0 || !strings.Contains(out, "run r started") {
		t.Fatalf("cut between frames: exit %d, stderr %q\n%s", code, errOut, out)
	}
}

// Secrets stay out of errors and output: a --header without its colon is
// named by position, a URL's password or token is masked, and a redirect
// to another server is refused before anything reaches it.
func TestConnectKeepsSecrets(t *testing.T) {
	code, out, errOut := runCLI(t, nil, "connect", "http://127.0.0.1:1/", "--header", "X-Ok: 1", "--header", "Authorization Bearer T0KEN")
	if code != exitUnreadable || strings.Contains(out+errOut, "T0KEN") ||
		!strings.Contains(errOut, "--header number 2") {
		t.Fatalf("malformed header: exit %d, stderr %q", code, errOut)
	}

	var sawAuth atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		_, pw, _ := req.BasicAuth()
		sawAuth.Store(pw)
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range connectEvents {
			fmt.Fprintf(w, "data: %s\n\n", ev)
		}
	}))
	defer srv.Close()
	withPW := strings.Replace(srv.URL, "http://", "http://me:PASSW0RD@", 1)
	code, out, errOut = runCLI(t, nil, "connect", withPW, "--plain")
	if code != 0 || sawAuth.Load() != "PASSW0RD" {
		t.Fatalf("userinfo: exit %d, server saw %v, stderr %q", code, sawAuth.Load(), errOut)
	}
	if strings.Contains(out+errOut, "PASSW0RD") {
		t.Fatalf("the password is printed:\n%s\n%s", out, errOut)
	}
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, u := range []string{strings.Replace(closed.URL, "http://", "http://me:PASSW0RD@", 1), strings.Replace(closed.URL, "http://", "http://T0KEN@", 1)} {
		code, out, errOut = runCLI(t, nil, "connect", u, "--plain")
		if code != exitUnreadable || strings.Contains(out+errOut, "PASSW0RD") || strings.Contains(out+errOut, "T0KEN") || !strings.Contains(errOut, "xxxxx@") {
			t.Fatalf("unreachable %s: exit %d, stderr %q", u, code, errOut)
		}
	}

	var reached atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) { reached.Add(1) }))
	defer other.Close()
	redirecting := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, other.URL+"/steal", http.StatusTemporaryRedirect)
	}))
	defer redirecting.Close()
	code, _, errOut = runCLI(t, nil, "connect", redirecting.URL, "--plain", "--header", "X-Api-Key: K3Y")
	if code != exitUnreadable || !strings.Contains(errOut, "redirected to "+other.URL+"/steal") || strings.Contains(errOut, "K3Y") {
		t.Fatalf("redirect elsewhere: exit %d, stderr %q", code, errOut)
	}
	if reached.Load() != 0 {
		t.Fatal("the request reached the other server")
	}
}

// An endpoint's error page reaches stderr without anything a terminal acts
// on: no clipboard write, no title, no clearing the screen, no C1 codes.
func TestConnectErrorPageCleaned(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, "denied\x1b]52;c;cHduZWQ=\x07\x1b]0;title\x07\x1b[2J\u009b2J\u009d0;x\u009c\u202e"+strings.Repeat("more ", 400))
	}))
	defer srv.Close()
	code, _, errOut := runCLI(t, nil, "connect", srv.URL, "--plain")
	if code != exitUnreadable || !strings.Contains(errOut, "HTTP 401 Unauthorized: denied") {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, r := range errOut {
		if (r < 0x20 && r != '\n') || (r >= 0x7f && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) {
			t.Fatalf("stderr holds %U: %q", r, errOut)
		}
	}
	if len(errOut) > 600 {
		t.Fatalf("stderr is %d bytes: the page was not cut", len(errOut))
	}
}

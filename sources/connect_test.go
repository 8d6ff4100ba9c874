package sources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

var runEvents = []string{
	`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}`,
	`{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"hi"}`,
	`{"type":"TEXT_MESSAGE_END","messageId":"m1"}`,
	`{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}`,
}

func writeSSE(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
}

// readTypes reads every record and returns their types, and the final error.
func readTypes(t *testing.T, r *Reader) ([]string, error) {
	t.Helper()
	var types []string
	for {
		rec, err := r.Next()
		if err != nil {
			return types, err
		}
		if u, ok := rec.Event.(*model.Unreadable); ok {
			types = append(types, "unreadable: "+u.Reason)
			continue
		}
		types = append(types, rec.Event.EventType())
	}
}

func TestConnectNormalRun(t *testing.T) {
	type seen struct {
		method, accept, ctype, auth string
		body                        []byte
	}
	got := make(chan seen, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		got <- seen{req.Method, req.Header.Get("Accept"), req.Header.Get("Content-Type"), req.Header.Get("Authorization"), b}
		writeSSE(w)
		for i, e := range runEvents {
			// Extra SSE fields are ignored; the type comes from the JSON.
			fmt.Fprintf(w, "id: %d\nevent: ignored\ndata: %s\n\n", i, e)
		}
	}))
	defer srv.Close()

	input := RunInput("thread-9", "hello")
	r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{
		Input:   input,
		Headers: map[string]string{"Authorization": "Bearer secret"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	types, err := readTypes(t, r)
	if err != io.EOF {
		t.Fatalf("end: got %v, want io.EOF", err)
	}
	want := []string{"RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"}
	if strings.Join(types, ",") != strings.Join(want, ",") {
		t.Fatalf("types: got %v, want %v", types, want)
	}
	s := <-got
	if s.method != http.MethodPost || s.accept != "text/event-stream" || s.ctype != "application/json" || s.auth != "Bearer secret" {
		t.Fatalf("request: %+v", s)
	}
	if string(s.body) != string(input) {
		t.Fatalf("body: got %s, want %s", s.body, input)
	}
	if err := closeFn(); err != nil {
		t.Fatalf("close: %v", err)
	}
}

func TestRunInput(t *testing.T) {
	var in struct {
		ThreadID string `json:"threadId"`
		RunID    string `json:"runId"`
		Messages []struct {
			ID, Role, Content string
		} `json:"messages"`
		State          map[string]any `json:"state"`
		Tools          []any          `json:"tools"`
		Context        []any          `json:"context"`
		ForwardedProps map[string]any `json:"forwardedProps"`
	}
	if err := json.Unmarshal(RunInput("t", "do it"), &in); err != nil {
		t.Fatal(err)
	}
	if in.ThreadID != "t" || len(in.RunID) != 36 || len(in.Messages) != 1 ||
		in.Messages[0].Role != "user" || in.Messages[0].Content != "do it" || in.Messages[0].ID == "" {
		t.Fatalf("got %+v", in)
	}
	if in.State == nil || in.Tools == nil || in.Context == nil || in.ForwardedProps == nil {
		t.Fatalf("optional fields missing: %+v", in)
	}
	raw := RunInput("", "")
	if !strings.Contains(string(raw), `"messages":[]`) {
		t.Fatalf("empty text should give empty messages: %s", raw)
	}
	in.ThreadID = ""
	in.Messages = nil
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatal(err)
	}
	if len(in.ThreadID) != 36 || in.ThreadID == in.RunID || len(in.Messages) != 0 {
		t.Fatalf("got %+v", in)
	}
}

func TestConnectSlowDrip(t *testing.T) {
	const gap = 20 * time.Millisecond
	done := make(chan time.Time, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		writeSSE(w)
		f := w.(http.Flusher)
		f.Flush()
		for _, e := range runEvents {
			time.Sleep(gap)
			fmt.Fprintf(w, "data: %s\n\n", e)
			f.Flush()
		}
		done <- time.Now()
	}))
	defer srv.Close()

	r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", "")})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	var arrivals []time.Time
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if rec.Event.EventType() != gjsonType(runEvents[len(arrivals)]) {
			t.Fatalf("record %d: got %s", len(arrivals), rec.Raw)
		}
		arrivals = append(arrivals, time.Now())
	}
	if len(arrivals) != len(runEvents) {
		t.Fatalf("got %d records, want %d", len(arrivals), len(runEvents))
	}
	end := <-done
	if !arrivals[0].Before(end) {
		t.Fatalf("first record arrived at %v, after the server finished at %v", arrivals[0], end)
	}
	// Records come one by one, not all at the end.
	if spread := arrivals[len(arrivals)-1].Sub(arrivals[0]); spread < gap*time.Duration(len(runEvents)-2) {
		t.Fatalf("records arrived within %v of each other; want them spread out", spread)
	}
}

func gjsonType(raw string) string {
	var v struct{ Type string }
	_ = json.Unmarshal([]byte(raw), &v)
	return v.Type
}

func TestConnectBrokenStream(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		writeSSE(w)
		fmt.Fprintf(w, "data: %s\n\n", runEvents[0])
		fmt.Fprintf(w, "data: %s\n\n", runEvents[1])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // closes the connection mid-stream
	}))
	defer srv.Close()

	r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", "")})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	types, err := readTypes(t, r)
	if len(types) != 2 || types[0] != "RUN_STARTED" || types[1] != "TEXT_MESSAGE_START" {
		t.Fatalf("types before the break: %v", types)
	}
	if err == nil || err == io.EOF || !strings.Contains(err.Error(), "stream broken after 2 events") {
		t.Fatalf("got error %v, want a broken-stream error", err)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Logf("note: underlying error is %v", errors.Unwrap(err))
	}
	if _, again := r.Next(); again == nil || again.Error() != err.Error() {
		t.Fatalf("Next after the break: %v", again)
	}
}

func TestConnectHijackClose(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		conn, buf, err := w.(http.Hijacker).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		// A chunked response cut off before its last chunk.
		fmt.Fprintf(buf, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
		frame := "data: " + runEvents[0] + "\n\n"
		fmt.Fprintf(buf, "%x\r\n%s\r\n", len(frame), frame)
		fmt.Fprintf(buf, "%x\r\ndata: {\"ty", 100)
		buf.Flush()
	}))
	defer srv.Close()

	r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", "")})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	types, err := readTypes(t, r)
	if len(types) != 1 || types[0] != "RUN_STARTED" {
		t.Fatalf("types before the break: %v", types)
	}
	if err == nil || !strings.Contains(err.Error(), "stream broken after 1 events") {
		t.Fatalf("got error %v, want a broken-stream error", err)
	}
}

func TestConnectOversizeFrame(t *testing.T) {
	const big = 20 << 20
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		writeSSE(w)
		fmt.Fprintf(w, "data: %s\n\n", runEvents[0])
		io.WriteString(w, `data: {"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"`)
		chunk := strings.Repeat("x", 1<<20)
		for range big >> 20 {
			io.WriteString(w, chunk)
		}
		io.WriteString(w, "\"}\n\n")
		fmt.Fprintf(w, "data: %s\n\n", runEvents[4])
	}))
	defer srv.Close()

	r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", "")})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	types, err := readTypes(t, r)
	if err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	if len(types) != 3 || types[0] != "RUN_STARTED" || types[2] != "RUN_FINISHED" {
		t.Fatalf("types: %v", types)
	}
	if !strings.HasPrefix(types[1], "unreadable: ") || !strings.Contains(types[1], "larger than 16 MiB") {
		t.Fatalf("oversize frame: got %q, want an unreadable record naming the 16 MiB limit", types[1])
	}

	// A lower limit set in the options is the one named.
	r2, close2, err := Connect(context.Background(), srv.URL, ConnectOptions{MaxEventBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer close2()
	types, _ = readTypes(t, r2)
	if len(types) != 3 || !strings.Contains(types[1], "larger than 1 MiB") {
		t.Fatalf("types with a 1 MiB limit: %v", types)
	}
}

func TestConnectHTTPError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		io.WriteString(w, `{"error":"bad token"}`+strings.Repeat(" pad", 1000))
	}))
	defer srv.Close()

	_, _, err := Connect(context.Background(), srv.URL, ConnectOptions{
		Input:   RunInput("", "hi"),
		Headers: map[string]string{"Authorization": "Bearer s3cr3t"},
	})
	if err == nil {
		t.Fatal("no error for HTTP 401")
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, `HTTP 401 Unauthorized: {"error":"bad token"}`) {
		t.Fatalf("got %q", msg)
	}
	if len(msg) > len("HTTP 401 Unauthorized: ")+errorBodyBytes {
		t.Fatalf("error holds more than 1 KiB of body: %d bytes", len(msg))
	}
	if strings.Contains(msg, "s3cr3t") {
		t.Fatal("error shows the Authorization header")
	}
}

func TestConnectWrongContentType(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html>login</html>")
	}))
	defer srv.Close()

	_, _, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", "")})
	if err == nil || !strings.Contains(err.Error(), `"text/html; charset=utf-8"`) ||
		!strings.Contains(err.Error(), "want text/event-stream") {
		t.Fatalf("got %v", err)
	}
}

func TestConnectCloseStops(t *testing.T) {
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

	r, closeFn, err := Connect(context.Background(), srv.URL, ConnectOptions{Input: RunInput("", "")})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	errc := make(chan error, 1)
	go func() {
		_, err := r.Next()
		errc <- err
	}()
	time.Sleep(20 * time.Millisecond)
	closeFn()
	select {
	case err := <-errc:
		if err == nil || !strings.Contains(err.Error(), "stream stopped after 1 events") {
			t.Fatalf("got %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Next did not return after close")
	}
}

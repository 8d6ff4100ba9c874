package app

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/sources"
)

// A stream that answered and sends nothing yet says, in the title bar's
// words, that it waits for its first event; once one came, it says
// nothing of waiting any more.
func TestConnectSaysItWaits(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-req.Context().Done():
			return
		}
		fmt.Fprint(w, "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n")
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, closeBody, err := sources.Connect(ctx, srv.URL, sources.ConnectOptions{Input: sources.RunInput("", "")})
	if err != nil {
		t.Fatal(err)
	}
	defer closeBody()
	recs, status, ended := connectStream(ctx, srv.URL, r)
	if s := <-status; s != waitingWords {
		t.Fatalf("before any event the stream says %q, want %q", s, waitingWords)
	}
	close(release)
	if s := <-status; s != "" {
		t.Fatalf("after the first event the stream says %q, want nothing", s)
	}
	if b := <-recs; len(b.Records) != 1 {
		t.Fatalf("first batch: %d records", len(b.Records))
	}
	for range recs {
	}
	if err := <-ended; err != nil {
		t.Fatal(err)
	}
}

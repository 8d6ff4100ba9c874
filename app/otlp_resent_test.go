package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// sdkRequests are the requests the OpenTelemetry Go SDK sends for two
// GenAI runs of one conversation, a span a request, as OTLP/JSON bodies.
func sdkRequests(t *testing.T) [][]byte {
	t.Helper()
	rcv, err := otlp.Listen(otlp.Options{HTTP: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	rcv.Serve()
	var bodies [][]byte
	done := make(chan struct{})
	go func() {
		defer close(done)
		for a := range rcv.Arrivals() {
			b, err := a.MarshalJSON()
			if err != nil {
				t.Error(err)
			}
			bodies = append(bodies, b)
			a.Kept(nil)
		}
	}()
	ctx := context.Background()
	c := sdkClient(t, rcv.HTTPAddr(), "support-bot", "web1", true)
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	c.AgentRun(ctx, "conv-7", t0)
	c.AgentRun(ctx, "conv-7", t0.Add(time.Minute))
	if err := c.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	rcv.Close()
	<-done
	return bodies
}

// A request sent again (an exporter's retry of a request whose answer
// it lost) is answered as taken and changes nothing: no run taken up
// again, no record at all, whether it comes at once or after the next
// run began.
func TestResentRequest(t *testing.T) {
	t.Parallel()
	bodies := sdkRequests(t)
	if len(bodies) < 10 {
		t.Fatalf("%d requests, want a span each", len(bodies))
	}
	rcv, err := otlp.Listen(otlp.Options{HTTP: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	rcv.Serve()
	defer rcv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := make(chan model.Batch)
	go translateArrivals(ctx, cancel, rcv.Arrivals(), nil, otel.New(otel.Options{}), out)
	var recs []model.Record
	send := func(b []byte) {
		t.Helper()
		resp, err := http.Post("http://"+rcv.HTTPAddr()+"/v1/traces", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
		// The records of a request are sent on before the next is read.
		for {
			select {
			case batch := <-out:
				recs = append(recs, batch.Records...)
				continue
			case <-time.After(50 * time.Millisecond):
			}
			return
		}
	}
	again := func(when string, bodies [][]byte) {
		t.Helper()
		before := len(recs)
		for i, b := range bodies {
			send(b)
			if len(recs) != before {
				t.Fatalf("request %d sent again %s made records:\n%s", i+1, when, rawOf(recs[before:]))
			}
		}
	}
	// Each run is five spans, its agent's last: the first run's come
	// again after each span of the second.
	for i, b := range bodies {
		send(b)
		again("at once", bodies[i:i+1])
		if i >= 5 {
			again(fmt.Sprintf("after the second run's span %d", i-4), bodies[:5])
		}
	}
	again("after both runs", bodies)
	resent := 2*len(bodies) + 5*(len(bodies)-5)
	if c := rcv.Counts(); c.Taken != int64(len(bodies)) || c.Resent != int64(resent) {
		t.Errorf("counts %s, want %d taken and %d resent", c, len(bodies), resent)
	}
}

func rawOf(recs []model.Record) string {
	var b bytes.Buffer
	for _, r := range recs {
		b.Write(r.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

// With --record, a request sent again is kept once: the recording, read
// back, has no request twice.
func TestResentRequestRecordedOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "telemetry.jsonl")
	rec, err := otlp.CreateRecorder(path)
	if err != nil {
		t.Fatal(err)
	}
	rcv, done := receiveInto(t, rec, otel.New(otel.Options{}))
	body := promptBody("s", 1)
	for range 2 {
		resp, err := http.Post("http://"+rcv.HTTPAddr()+"/v1/logs", "application/json", bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("status %d", resp.StatusCode)
		}
	}
	rcv.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := recordedLine(t, body); !bytes.Equal(data, want) {
		t.Errorf("the recording holds\n%s\nwant the request once:\n%s", data, want)
	}
}

package app

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
	"github.com/agentwatch/agentwatch/sources/otlp"
)

// promptBody is an OTLP/JSON logs request of one Claude Code prompt,
// the i-th of session s.
func promptBody(s string, i int) []byte {
	at := time.Date(2026, 3, 1, 10, 0, i, 0, time.UTC).UnixNano()
	return fmt.Appendf(nil, `{"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"claude-code"}}]},`+
		`"scopeLogs":[{"logRecords":[{"timeUnixNano":"%d","body":{"stringValue":"claude_code.user_prompt"},"attributes":[`+
		`{"key":"session.id","value":{"stringValue":%q}},{"key":"prompt.id","value":{"stringValue":"p%d"}},{"key":"prompt","value":{"stringValue":"prompt %d"}}]}]}]}]}`,
		at, s, i, i)
}

// recordedLine is the line the recording keeps of an OTLP/JSON logs body.
func recordedLine(t *testing.T, body []byte) []byte {
	t.Helper()
	req, err := otlp.DecodeJSON(otlp.SignalLogs, body)
	if err != nil {
		t.Fatal(err)
	}
	b, err := req.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// receiveInto runs a receiver whose requests are kept in rec and mapped
// by tr as agentwatch otlp maps them; it returns the receiver and what
// the mapping returned, once it ends.
func receiveInto(t *testing.T, rec *otlp.Recorder, tr *otel.Translator) (*otlp.Receiver, <-chan error) {
	t.Helper()
	rcv, err := otlp.Listen(otlp.Options{HTTP: "127.0.0.1:0", GRPC: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	rcv.Serve()
	t.Cleanup(func() { rcv.Close() })
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	out := make(chan model.Batch)
	go func() {
		for range out {
		}
	}()
	done := make(chan error, 1)
	go func() {
		done <- translateArrivals(ctx, cancel, rcv.Arrivals(), rec, tr, out)
		close(out)
	}()
	return rcv, done
}

// On a full disk, otlp --record answers success only for the requests it
// wrote: the one it could not write is answered 503 over HTTP and
// UNAVAILABLE over gRPC, the receiver stops with an error that says what
// the file keeps, and the file holds the requests written before, whole,
// and nothing of the one that failed.
func TestRecordOnAFullDisk(t *testing.T) {
	first, second, third := promptBody("s", 1), promptBody("s", 2), promptBody("s", 3)
	kept := append(recordedLine(t, first), recordedLine(t, second)...)
	disk := &otlptest.FullFile{Room: len(kept) + 40}
	rcv, done := receiveInto(t, otlp.NewRecorder("telemetry.jsonl", disk), otel.New(otel.Options{}))
	for i, c := range []struct {
		body []byte
		want int
	}{{first, 200}, {second, 200}, {third, 503}} {
		resp, err := http.Post("http://"+rcv.HTTPAddr()+"/v1/logs", "application/json", bytes.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("request %d: status %d, want %d", i+1, resp.StatusCode, c.want)
		}
	}
	err := <-done
	if err == nil || !strings.Contains(err.Error(), "no space left on device") || !strings.Contains(err.Error(), "keeps the 2 requests written before, whole") {
		t.Errorf("error %v, want the disk full and what the file keeps", err)
	}
	if got := disk.Bytes(); !bytes.Equal(got, kept) {
		t.Errorf("the file holds\n%s\nwant the first two requests, whole:\n%s", got, kept)
	}
	if c := rcv.Counts(); c.Taken != 2 || c.Refused[otlp.NotKept] != 1 {
		t.Errorf("counts %s", c)
	}

	t.Run("gRPC", func(t *testing.T) {
		disk := &otlptest.FullFile{Room: 10}
		rcv, done := receiveInto(t, otlp.NewRecorder("telemetry.jsonl", disk), otel.New(otel.Options{}))
		ctx := context.Background()
		cl, err := otlptest.New(ctx, otlptest.GRPC, rcv.GRPCAddr(), "", "claude-code", "h")
		if err != nil {
			t.Fatal(err)
		}
		defer cl.Shutdown(ctx)
		cl.ClaudeEvent(ctx, time.Now(), "user_prompt", "s", "prompt", "hi")
		if err := cl.Flush(ctx); err == nil || !strings.Contains(err.Error(), "Unavailable") {
			t.Errorf("export: %v, want UNAVAILABLE", err)
		}
		if err := <-done; err == nil || !strings.Contains(err.Error(), "keeps the 0 requests") {
			t.Errorf("error %v, want what the file keeps", err)
		}
		if got := disk.Bytes(); len(got) != 0 {
			t.Errorf("the file holds %q, want nothing", got)
		}
	})
}

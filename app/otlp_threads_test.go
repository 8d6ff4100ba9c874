package app

import (
	"bytes"
	"io"
	"net/http"
	"testing"

	"go.opentelemetry.io/collector/pdata/plog/plogotlp"

	"github.com/agentwatch/agentwatch/protocol/otel"
)

// Past the threads the receiver opens, a request's telemetry of a new
// conversation is left out and its exporter told so: a partial success
// that rejects those log records and says why, counted; the conversations
// it has go on.
func TestReceiverThreadsBounded(t *testing.T) {
	rcv, _ := receiveInto(t, nil, otel.New(otel.Options{MaxThreads: 2}))
	for i, c := range []struct {
		session  string
		rejected int64
	}{{"a", 0}, {"b", 0}, {"c", 1}, {"a", 0}} {
		resp, err := http.Post("http://"+rcv.HTTPAddr()+"/v1/logs", "application/json", bytes.NewReader(promptBody(c.session, i)))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		out := plogotlp.NewExportResponse()
		if resp.StatusCode != 200 || out.UnmarshalJSON(body) != nil {
			t.Fatalf("session %s: %d %s", c.session, resp.StatusCode, body)
		}
		ps := out.PartialSuccess()
		if ps.RejectedLogRecords() != c.rejected || (c.rejected > 0) != (ps.ErrorMessage() != "") {
			t.Errorf("session %s: partial success %d %q, want %d rejected", c.session, ps.RejectedLogRecords(), ps.ErrorMessage(), c.rejected)
		}
	}
	if c := rcv.Counts(); c.Taken != 4 || c.LeftOut != 1 {
		t.Errorf("counts %s, want 4 taken and 1 left out", c)
	}
}

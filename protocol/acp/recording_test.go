package acp_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/protocol/acp"
)

// TestRecordingLine writes lines and reads them back.
func TestRecordingLine(t *testing.T) {
	at := time.UnixMilli(1764500000123).UTC()
	msg := []byte(`{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`)
	line := acp.FormatLine(at, acp.Recv, msg)
	want := `{"t":1764500000123,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}}` + "\n"
	if string(line) != want {
		t.Fatalf("line %s", line)
	}
	l, err := acp.ParseLine(bytes.TrimSuffix(line, []byte("\n")))
	if err != nil || !l.At.Equal(at) || l.Dir != acp.Recv || !bytes.Equal(l.Msg, msg) {
		t.Fatalf("parsed %+v, %v", l, err)
	}

	// A message spread over lines is compacted to keep one line per message.
	pretty := []byte("{\n  \"jsonrpc\": \"2.0\",\n  \"method\": \"session/cancel\",\n  \"params\": {\"sessionId\": \"s\"}\n}\n")
	line = acp.FormatLine(at, acp.Send, pretty)
	if bytes.Count(line, []byte("\n")) != 1 || !strings.Contains(string(line), `"msg":{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`) {
		t.Fatalf("pretty: %s", line)
	}

	// A message that is not JSON is kept as text.
	line = acp.FormatLine(at, acp.Recv, []byte("panic: oops\n\tgoroutine 1"))
	l, err = acp.ParseLine(bytes.TrimSpace(line))
	if err != nil || string(l.Msg) != "panic: oops\n\tgoroutine 1" || bytes.Count(line, []byte("\n")) != 1 {
		t.Fatalf("bad msg: %s → %+v %v", line, l, err)
	}

	// Lines written by hand: members in any order, t with a fraction or missing.
	l, err = acp.ParseLine([]byte(`{"msg":{"a":1},"dir":"send","t":1.5}`))
	if err != nil || l.At.UnixNano() != 1_500_000 || l.Dir != acp.Send {
		t.Fatalf("hand-written: %+v %v", l, err)
	}
	if l, err = acp.ParseLine([]byte(`{"dir":"send","msg":{}}`)); err != nil || !l.At.IsZero() {
		t.Fatalf("no t: %+v %v", l, err)
	}
	for _, bad := range []string{`{"t":1,"dir":"up","msg":{}}`, `{"t":"1","dir":"recv","msg":{}}`, `{"t":1,"dir":"recv"}`, `[]`, `{"t":1,`} {
		if _, err := acp.ParseLine([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

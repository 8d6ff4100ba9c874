package sources

import (
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

func TestReadACPRecording(t *testing.T) {
	in := "\ufeff\n" +
		`{"t":1764500000000,"dir":"send","msg":{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":[{"type":"text","text":"hi"}]}}}` + "\n" +
		"\n" +
		`not a line` + "\n" +
		`{"t":1764500000250,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hello"}}}}}` + "\r\n" +
		`{"t":1764500000300,"dir":"recv","bad":"Traceback (most recent call last)"}` + "\n" +
		`{"t":1764500000400,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}}` + "\n" +
		`{"t":1764500000500,"dir":"recv","msg":{"jsonrpc":"2.0","id":2,`
	recs, err := ReadACPRecording(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 6 {
		t.Fatalf("%d records", len(recs))
	}
	for i, r := range recs {
		if r.Seq != uint64(i+1) || r.Proto != model.ProtoACP || r.Event == nil {
			t.Errorf("record %d: %+v", i, r)
		}
	}
	if p, ok := recs[0].Event.(*acp.Prompt); !ok || p.Dir != acp.Send || !recs[0].At.Equal(time.UnixMilli(1764500000000)) || !strings.HasPrefix(string(recs[0].Raw), `{"jsonrpc"`) {
		t.Errorf("prompt: %+v", recs[0])
	}
	if u, ok := recs[1].Event.(*model.Unreadable); !ok || !strings.HasPrefix(u.Reason, "line 4: ") {
		t.Errorf("bad line: %#v", recs[1].Event)
	}
	if _, ok := recs[2].Event.(*acp.AgentMessageChunk); !ok || recs[2].At.UnixMilli() != 1764500000250 {
		t.Errorf("chunk: %+v", recs[2])
	}
	if u, ok := recs[3].Event.(*model.Unreadable); !ok || !strings.HasPrefix(u.Reason, "line 6: the message is not a JSON object") || recs[3].Raw != nil {
		t.Errorf("bad message: %#v", recs[3].Event)
	}
	if r, ok := recs[4].Event.(*acp.Response); !ok || r.Dir != acp.Recv || r.ID.Raw() != "1" {
		t.Errorf("response: %#v", recs[4].Event)
	}
	if u, ok := recs[5].Event.(*model.Unreadable); !ok || !strings.Contains(u.Reason, "line 8: the recording ends inside this line") {
		t.Errorf("cut-off line: %#v", recs[5].Event)
	}
	if recs, err := ReadACPRecording(strings.NewReader("")); err != nil || recs != nil {
		t.Errorf("empty: %v %v", recs, err)
	}
}

func TestLooksLikeACPRecording(t *testing.T) {
	for in, want := range map[string]bool{
		`{"t":1,"dir":"recv","msg":{"jsonrpc":"2.0"}}`:              true,
		"\ufeff  " + `{"dir":"send","msg":{}}` + "\n{":              true,
		`{"t":1764500000000,"dir":"recv","msg":{"jsonrpc":"2.0","m`: true,
		`{"type":"RUN_STARTED","threadId":"t","runId":"r"}`:         false,
		`{"dir":"sideways","msg":{}}`:                               false,
		`{"dir":"recv"}`:                                            false,
		`{"jsonrpc":"2.0","method":"session/update"}`:               false,
		`[{"t":1,"dir":"recv","msg":{}}]`:                           false,
		``:                                                          false,
	} {
		if got := LooksLikeACPRecording([]byte(in)); got != want {
			t.Errorf("%q: %v, want %v", in, got, want)
		}
	}
}

package sources

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// messagesSeeds are small messages files and near misses; the fixtures in
// testdata/messages are added too.
var messagesSeeds = []string{
	`[{"id":"u","role":"user","parts":[{"type":"text","text":"hi"},{"type":"file","mediaType":"image/png","url":"data:image/png;base64,iVBORw0KGgo="}]},{"id":"a","role":"assistant","parts":[{"type":"step-start"},{"type":"reasoning","text":"r"},{"type":"tool-bash","toolCallId":"c","state":"output-error","input":{"command":"ls"},"errorText":"boom"},{"type":"dynamic-tool","toolName":"m","toolCallId":"d","state":"output-available","input":{},"output":{"content":[{"type":"image","data":"AA==","mimeType":"image/png"}]}},{"type":"text","text":"ok"}]}]`,
	`{"id":"chat","messages":[{"id":"a","role":"assistant","parts":[{"type":"data-x","data":[1]},{"type":"source-url","url":"https://x"},{"type":"tool-y","toolCallId":"c","state":"output-denied","approval":{"id":"p","approved":false}}]}]}`,
	`[{"id":"a","role":"assistant","parts":[{"type":"tool-x","toolCallId":"c","state":"input-streaming"},{"type":"tool-x","toolCallId":"c"}]}]`,
	`[{"role":"user","parts":[{"type":"text","text":"\xff\xfe"},{"type":"text","text":"a","text":"b"}]}]`,
	"{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"a\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"c\",\"type\":\"function\",\"function\":{\"name\":\"x\",\"arguments\":\"{}\"}}]},{\"id\":\"t\",\"role\":\"tool\",\"toolCallId\":\"c\",\"content\":\"\",\"error\":\"e\"}]}\n",
	`[{"type":"RUN_STARTED","threadId":"t","runId":"r"},{"type":"MESSAGES_SNAPSHOT","messages":[]},{"type":"RUN_FINISHED","threadId":"t","runId":"r"}]`,
	`[{"id":"a","role":"user","parts":[]},`,
	`[]`,
	``,
}

// FuzzDetectMessages checks that DetectMessages never panics, answers
// consistently (records only with ok, a located error only for a
// UIMessage-shaped file), and that its records fold without error — and,
// for the records it makes itself from an AI SDK file, without a single
// diagnostic.
func FuzzDetectMessages(f *testing.F) {
	for _, s := range messagesSeeds {
		f.Add([]byte(s))
	}
	paths, _ := filepath.Glob(filepath.Join(messagesDir, "*"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, format, ok, err := DetectMessages(data)
		if err != nil {
			if ok || recs != nil || format != MessagesAISDK {
				t.Fatalf("error %v with ok %v, format %q, %d records", err, ok, format, len(recs))
			}
			if msg := err.Error(); strings.Contains(msg, "converted") || strings.Contains(msg, "writing") {
				t.Fatalf("the conversion made records it cannot read back: %v", err)
			}
			return
		}
		if !ok {
			if recs != nil || format != "" {
				t.Fatalf("not messages, yet format %q and %d records", format, len(recs))
			}
			return
		}
		if len(recs) == 0 {
			t.Fatalf("%q with no records", format)
		}
		for i, rec := range recs {
			if rec.Seq != uint64(i+1) || rec.Proto != model.ProtoAGUI || rec.Event == nil || !json.Valid(rec.Raw) {
				t.Fatalf("record %d: %+v", i, rec)
			}
		}
		fd := fold.New(fold.Options{})
		if _, err := fd.Apply(recs...); err != nil {
			t.Fatalf("fold: %v", err)
		}
		if format == MessagesAISDK {
			if d := fd.Diagnostics(); len(d) != 0 {
				t.Fatalf("records made from an AI SDK file break a rule: %+v", d)
			}
			again, _, _, _ := DetectMessages(data)
			for i := range recs {
				if !bytes.Equal(recs[i].Raw, again[i].Raw) {
					t.Fatalf("record %d differs on a second run", i)
				}
			}
		}
	})
}

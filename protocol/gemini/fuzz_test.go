package gemini_test

import (
	"bytes"
	"github.com/agentwatch/agentwatch/internal/testkit/translaws"
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/protocol/gemini"
)

// FuzzTranslate feeds arbitrary bytes as a session file: the translation
// never panics, every record has an event, and the fold of what it makes
// breaks none of AG-UI's rules.
func FuzzTranslate(f *testing.F) {
	f.Add(readFixture(f))
	f.Add([]byte(`{"sessionId":"s","projectHash":"p"}` + "\n" + `{"id":"g","type":"gemini","toolCalls":[{"id":"c","name":"glob","status":"executing"}]}` + "\n" +
		`{"$rewindTo":"g"}` + "\n" + `{"id":"g","type":"gemini","toolCalls":[{"id":"c","name":"glob","status":"error"}]}`))
	f.Add([]byte(`{"$set":{"messages":[{"id":"u","type":"user","content":"hi"},{"id":"e","type":"error","content":"x"}]}}` + "\n" +
		`{"id":"i","type":"info","content":[{"text":"t"},"s",{"functionCall":{}}]}`))
	f.Add([]byte(`{"id":"u","type":"user","content":[{"functionResponse":{"id":"c","response":{"output":"o"}}}]}` + "\n" +
		`{"id":"g","type":"gemini","content":"a","thoughts":[{"subject":"s"}],"tokens":{"input":1}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		translaws.FoldsClean(t, translaws.Translate(gemini.New(), b))
	})
}

// FuzzSubagents feeds arbitrary bytes as a session file and as the file
// of every subagent its calls ran (each subagent's lines are those bytes,
// whatever its id, so subagents nest in subagents): the translation never
// panics, and the fold of what it makes breaks none of AG-UI's rules.
func FuzzSubagents(f *testing.F) {
	f.Add(readFixture(f), mustRead(f, subagentFixture))
	f.Add([]byte(`{"sessionId":"s","projectHash":"p"}`+"\n"+`{"id":"u","type":"user","content":"go"}`+"\n"+
		`{"id":"g","type":"gemini","toolCalls":[{"id":"c","name":"generalist","status":"success","agentId":"a"}]}`),
		[]byte(`{"sessionId":"a","projectHash":"p","kind":"subagent"}`+"\n"+`{"id":"x","type":"user","content":"t"}`+"\n"+
			`{"id":"y","type":"gemini","toolCalls":[{"id":"d","name":"generalist","status":"cancelled","agentId":"b"}]}`+"\n"+
			`{"$rewindTo":"y"}`+"\n"+`{"id":"e","type":"error","content":"no"}`))
	f.Fuzz(func(t *testing.T, session, sub []byte) {
		tr := gemini.New()
		tr.ReadSubagents(func(string) [][]byte { return bytes.Split(sub, []byte("\n")) })
		recs := append(tr.Write(session), tr.Flush()...)
		fl := fold.New(fold.Options{})
		for i := range recs {
			if recs[i].Event == nil {
				t.Fatalf("record %d has no event", i)
			}
			recs[i].Seq = uint64(i + 1)
		}
		if _, err := fl.Apply(recs...); err != nil {
			t.Fatal(err)
		}
		if d := fl.Diagnostics(); len(d) > 0 {
			t.Fatalf("diagnostic on a translated event: %+v", d[0])
		}
	})
}

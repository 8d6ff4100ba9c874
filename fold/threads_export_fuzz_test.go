package fold_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/loggen"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// fuzzThreadsAfter are the records a restored set is given in
// FuzzRestoreThreads: AG-UI runs of a known and a new thread, one that
// overlaps, and ACP traffic that names sessions and answers requests.
const fuzzThreadsAfter = `{"type":"CUSTOM","name":"after","value":1}
{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_START","messageId":"m","role":"user"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"hi"}
{"type":"RUN_STARTED","threadId":"u","runId":"q"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}
{"type":"RUN_ERROR","message":"x"}
`

const fuzzThreadsAfterACP = `{"t":1764700000000,"dir":"send","msg":{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s1","prompt":[{"type":"text","text":"one"}]}}}
{"t":1764700000010,"dir":"recv","msg":{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"a"}}}}}
{"t":1764700000020,"dir":"send","msg":{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/w","mcpServers":[]}}}
{"t":1764700000030,"dir":"recv","msg":{"jsonrpc":"2.0","id":3,"result":{"sessionId":"s2"}}}
{"t":1764700000040,"dir":"recv","msg":{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}}
{"t":1764700000050,"dir":"recv","msg":{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}}
{"t":1764700000060,"dir":"recv","msg":{"jsonrpc":"2.0","id":5,"result":{}}}
`

// fuzzThreadsSeeds are snapshots of real sets: two sources interleaved
// (threads of AG-UI runs and an ACP recording with requests in flight)
// cut early, as small seeds are quick to mutate and minimize,
// the same shed, and an empty set.
func fuzzThreadsSeeds(f *testing.F) [][]byte {
	f.Helper()
	gen, err := sources.ReadAll(bytes.NewReader(loggen.GenerateThreads(150, 3, 5)))
	if err != nil {
		f.Fatal(err)
	}
	file, err := os.Open("../testdata/acp/coding-session.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	acpRecs, err := sources.ReadACPRecording(file)
	file.Close()
	if err != nil {
		f.Fatal(err)
	}
	steps := interleave(oneSource("x.jsonl", gen), oneSource("y.jsonl", acpRecs))
	var out [][]byte
	for _, shed := range []bool{false, true} {
		for _, k := range []int{0, 5, 12, 30} {
			ts := fold.NewThreads(fold.Options{})
			for _, st := range steps[:k] {
				applyStep(ts, st)
			}
			if shed {
				shedForCheckpoint(ts)
			}
			snap, err := ts.Export()
			if err != nil {
				f.Fatal(err)
			}
			wire, err := json.Marshal(snap)
			if err != nil {
				f.Fatal(err)
			}
			out = append(out, wire)
		}
	}
	return out
}

// FuzzRestoreThreads reads arbitrary bytes as a ThreadsSnapshot, as from a
// damaged or hostile cache file: RestoreThreads never panics, and a set it
// restores folds more records of every source, exports, and its export
// is read back, all without panicking.
func FuzzRestoreThreads(f *testing.F) {
	for _, seed := range fuzzThreadsSeeds(f) {
		f.Add(seed)
	}
	aguiRecs, err := sources.ReadAll(strings.NewReader(fuzzThreadsAfter))
	if err != nil {
		f.Fatal(err)
	}
	acpRecs, err := sources.ReadACPRecording(strings.NewReader(fuzzThreadsAfterACP))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var snap fold.ThreadsSnapshot
		if json.Unmarshal(data, &snap) != nil {
			return
		}
		ts, err := fold.RestoreThreads(snap, fold.Options{})
		if err != nil {
			return
		}
		names := []string{"new"}
		for i, r := range snap.Sources {
			if i == 4 {
				break
			}
			names = append(names, r.Source)
		}
		for _, name := range names {
			for _, recs := range [][]model.Record{aguiRecs, acpRecs} {
				for _, u := range ts.Apply(name, recs...) {
					if ts.Index(u.Thread) < 0 {
						t.Fatalf("Apply updated a thread that is not in the set")
					}
				}
			}
		}
		for _, th := range ts.List() {
			th.Title()
		}
		again, err := ts.Export()
		if err != nil {
			t.Fatalf("a restored set that folded on does not export: %v", err)
		}
		// A hostile count may have overflowed on the way, so the export
		// need not restore; reading it must not panic either.
		fold.RestoreThreads(again, fold.Options{})
	})
}

package fold_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/hostile"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// fuzzMaxLines bounds the records of one input, so that one execution stays
// in the milliseconds; longer logs add nothing the laws do not see in short ones.
const fuzzMaxLines = 400

// fuzzFoldSeeds are hostile logs, one event per line.
var fuzzFoldSeeds = []string{
	// Chunks without ids, and chunks that change their mind.
	`{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"TEXT_MESSAGE_CHUNK","delta":"no id"}
{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"user","delta":"a"}
{"type":"TEXT_MESSAGE_CHUNK","messageId":"m","role":"assistant","delta":"b"}
{"type":"TOOL_CALL_CHUNK","delta":"{\"x\":"}
{"type":"TOOL_CALL_CHUNK","toolCallId":"c","toolCallName":"read_file","delta":"{\"path\":\"/etc/"}
{"type":"TOOL_CALL_CHUNK","toolCallId":"c","delta":"passwd\"}"}
{"type":"TOOL_CALL_CHUNK","toolCallId":"c2","toolCallName":"bash","parentMessageId":"m"}
{"type":"REASONING_MESSAGE_CHUNK","delta":"why"}
{"type":"REASONING_MESSAGE_CHUNK","messageId":"rm","delta":"because"}
{"type":"TEXT_MESSAGE_CHUNK","messageId":null,"delta":null}
{"type":"TOOL_CALL_RESULT","messageId":"tr","toolCallId":"c","content":"root:x:0:0"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
	// Nested subagents, their chunks, a null tag and a stray finish.
	`{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1760000000000}
{"type":"TOOL_CALL_START","toolCallId":"task","toolCallName":"Task","timestamp":1760000000001}
{"type":"SUBAGENT_STARTED","subagentRunId":"s1","name":"outer","parentToolCallId":"task"}
{"type":"SUBAGENT_STARTED","subagentRunId":"s2","name":"inner","parentSubagentRunId":"s1","description":null}
{"type":"TEXT_MESSAGE_CHUNK","subagentRunId":"s2","messageId":"m2","delta":"inner says"}
{"type":"TOOL_CALL_CHUNK","subagentRunId":"s1","toolCallId":"c1","toolCallName":"grep","delta":"{}"}
{"type":"TEXT_MESSAGE_CONTENT","subagentRunId":"s1","messageId":"m2","delta":"wrong owner"}
{"type":"STEP_STARTED","subagentRunId":"s2","stepName":"x"}
{"type":"STEP_FINISHED","stepName":"x"}
{"type":"SUBAGENT_FINISHED","subagentRunId":"s2","outcome":{"type":"suspended","interruptIds":["i1"]}}
{"type":"SUBAGENT_FINISHED","subagentRunId":"s2"}
{"type":"SUBAGENT_ERROR","subagentRunId":"s1","message":"boom","code":null}
{"type":"TEXT_MESSAGE_START","subagentRunId":null,"messageId":"n"}
{"type":"SUBAGENT_FINISHED","subagentRunId":"ghost","outcome":{"type":"weird"}}
{"type":"TOOL_CALL_END","toolCallId":"task","timestamp":1760000000100}
{"type":"RUN_FINISHED","threadId":"t","runId":"r","timestamp":1760000000200}`,
	// STATE_DELTA with patches that must not apply, and ones that barely do.
	`{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"STATE_SNAPSHOT","snapshot":{"a":[1,2,3],"b":{"c":null},"~/":1}}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/-","value":4},{"op":"test","path":"/a/0","value":2}]}
{"type":"STATE_DELTA","delta":[{"op":"move","from":"/b","path":"/b/c"}]}
{"type":"STATE_DELTA","delta":[{"op":"copy","from":"/a","path":"/a/1"},{"op":"copy","from":"/a","path":"/a/1"},{"op":"copy","from":"/a","path":"/a/1"}]}
{"type":"STATE_DELTA","delta":[{"op":"remove","path":""}]}
{"type":"STATE_DELTA","delta":[{"op":"replace","path":"","value":[]}]}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"/~01/~10/x","value":1}]}
{"type":"STATE_DELTA","delta":[{"op":"frobnicate","path":"/a"}]}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/99999999999999999999","value":1}]}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"/a/-1","value":1},{"op":"remove","path":"/a/01"}]}
{"type":"STATE_DELTA","delta":[{"op":"add"},{"path":"/x"},null,1,"s"]}
{"type":"STATE_DELTA","delta":{"op":"add","path":"/x","value":1}}
{"type":"STATE_DELTA","delta":[]}
{"type":"STATE_SNAPSHOT","snapshot":"just a string"}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"/x","value":1}]}
{"type":"STATE_SNAPSHOT","snapshot":null}
{"type":"ACTIVITY_DELTA","messageId":"nope","activityType":"plan","patch":[{"op":"add","path":"/x","value":1}]}
{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"plan","content":{"steps":[]}}
{"type":"ACTIVITY_DELTA","messageId":"act","activityType":"other","patch":[{"op":"add","path":"/steps/-","value":{"done":false}}]}
{"type":"ACTIVITY_SNAPSHOT","messageId":"act","activityType":"plan","content":{"steps":[1]},"replace":false}
{"type":"RUN_FINISHED","threadId":"t","runId":"r"}`,
	// Huge numbers: timestamps, usage, state.
	`{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":1e300}
{"type":"TEXT_MESSAGE_START","messageId":"m","timestamp":-1e300}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","timestamp":9007199254740993}
{"type":"TEXT_MESSAGE_END","messageId":"m","timestamp":"1e20"}
{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"t","timestamp":253402300800000}
{"type":"TOOL_CALL_END","toolCallId":"c","timestamp":-62135596800001}
{"type":"STATE_SNAPSHOT","snapshot":{"n":1e400,"m":-0,"k":123456789012345678901234567890}}
{"type":"STATE_DELTA","delta":[{"op":"replace","path":"/n","value":1e-400}]}
{"type":"RUN_FINISHED","threadId":"t","runId":"r","usage":[{"inputTokens":9223372036854775807,"outputTokens":-1}]}`,
	// Timestamps a clock can hold, in every accepted spelling.
	`{"type":"RUN_STARTED","threadId":"t","runId":"r","timestamp":"2025-01-02T03:04:05.999999999Z"}
{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"read","timestamp":1760000000000.5}
{"type":"TOOL_CALL_END","toolCallId":"c","timestamp":"1760000000123"}
{"type":"TOOL_CALL_RESULT","messageId":"tr","toolCallId":"c","content":"ok","timestamp":1759999999000}
{"type":"RUN_FINISHED","threadId":"t","runId":"r","timestamp":null}`,
	// Invalid UTF-8 and escape sequences in strings.
	"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n" +
		"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\xff\",\"role\":\"assistant\"}\n" +
		"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\xff\",\"delta\":\"\xc3\x28 \\u001b[31mred\\u001b[0m \\u0000 \\ud800 \\ud83d\\ude00 \\u2028\"}\n" +
		"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\\ufffd\",\"delta\":\"\\\"]}\\n\"}\n" +
		"{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\xff\"}\n" +
		"{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"\\u0000\",\"toolCallName\":\"\\u001b]0;title\\u0007\"}\n" +
		"{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"\\u0000\",\"delta\":\"{\\\"a\\\":\\\"\\\\ud800\\\"}\"}\n" +
		"{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"\\u0000\"}\n" +
		"{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}",
	// Events of another thread.
	`{"type":"RUN_STARTED","threadId":"t1","runId":"r1"}
{"type":"RUN_FINISHED","threadId":"t2","runId":"r1"}
{"type":"TEXT_MESSAGE_START","messageId":"m"}
{"type":"RUN_FINISHED","threadId":"t1","runId":"r1"}
{"type":"RUN_STARTED","threadId":"t2","runId":"r2"}
{"type":"RUN_STARTED","threadId":"t1","runId":"r3","parentRunId":"r1"}
{"type":"RUN_STARTED","threadId":"t1","runId":"r4"}
{"type":"RUN_ERROR","message":"second run while active"}
{"type":"RUN_STARTED","threadId":"","runId":""}`,
	// Legacy thinking with nothing to continue, and ids reused everywhere.
	`{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"before any run"}
{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"THINKING_END"}
{"type":"THINKING_TEXT_MESSAGE_END"}
{"type":"THINKING_START"}
{"type":"THINKING_START","title":"again"}
{"type":"THINKING_TEXT_MESSAGE_START"}
{"type":"THINKING_TEXT_MESSAGE_CONTENT","delta":"x"}
{"type":"TEXT_MESSAGE_START","messageId":"thinking-7"}
{"type":"TOOL_CALL_START","toolCallId":"m","toolCallName":"a","parentMessageId":"thinking-7"}
{"type":"TOOL_CALL_START","toolCallId":"m","toolCallName":"b"}
{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"m","content":[{"type":"text","text":"t"},{"type":"image","source":{"type":"data","value":"!!notbase64","mimeType":"image/png"}},{"type":"image","source":{"type":"url","value":"file:///etc/passwd"}}]}
{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"unknown","content":"orphan"}
{"type":"MESSAGES_SNAPSHOT","messages":[{"id":"m","role":"assistant","toolCalls":[{"id":"m","type":"function","function":{"name":"a","arguments":"{"}}]},{"id":"m","role":"tool","toolCallId":"m","content":"dup"},{"id":"a","role":"activity","activityType":"x","content":{}}]}
{"type":"REASONING_ENCRYPTED_VALUE","subtype":"tool-call","entityId":"m","encryptedValue":"zz"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"interrupt","pendingToolCallIds":["m","nope"],"interrupts":[{"id":"i","reason":"r","subagentRunId":null}]}}
{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"RUN_FINISHED","threadId":"t","runId":"r","outcome":{"type":"cancelled"}}`,
	// Events whose second "type" member disagrees with the first.
	`{"type":"TOOL_CALL_START","toolCallId":"c","toolCallName":"x","type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"RUN_STARTED","threadId":"t","runId":"r","type":"TEXT_MESSAGE_START","messageId":"m"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"x","type":"RUN_FINISHED"}
{"type":"RUN_FINISHED","threadId":"t2","runId":"r","type":"STEP_STARTED","stepName":"s"}
{"type":"TEXT_MESSAGE_CHUNK","messageId":"m2","delta":"y","type":"TOOL_CALL_CHUNK"}
{"type":"THINKING_START","type":"REASONING_START","messageId":"q"}`,
	// Unknown, raw, custom, unreadable and malformed lines.
	"{\"type\":\"SOMETHING_NEW\",\"x\":1}\n[1,2]\nnot json\n{\"type\":7}\n{\"no\":\"type\"}\n" +
		"{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\",\"extra\":{\"kept\":true}}\n" +
		"{\"type\":\"RAW\",\"event\":{\"a\":1},\"source\":\"x\"}\n{\"type\":\"RAW\",\"event\":null}\n" +
		"{\"type\":\"CUSTOM\",\"name\":\"c\",\"value\":[{},[],\"\"]}\n{\"type\":\"CUSTOM\",\"name\":\"\",\"value\":1}\n" +
		"{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"tool\"}\n{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"x\",\"toolCallId\":\"y\",\"content\":{}}\n" +
		"\ufeff{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"}\n{\"type\":\"RUN_FINISHED\",\"threadId\":\"t\",\"runId\":\"r\"",
}

// FuzzFold checks the fold's laws (docs/ARCHITECTURE.md) on any log: one event
// per line, decoded as a source would. Folding never panics; the same
// records give the same snapshot whatever the batching; stopping at a
// checkpoint and resuming from its JSON gives the same snapshot; a snapshot
// never changes after it is taken; eviction drops only finished items and
// never renumbers or reuses sequence numbers; shedding at any points keeps
// the shedding laws (fuzzCheckShed). Too slow for CI's few seconds, it is
// run by hand; CI fuzzes FuzzFoldLight.
func FuzzFold(f *testing.F) {
	for _, s := range fuzzFoldSeeds {
		f.Add([]byte(s))
	}
	f.Add([]byte(fuzzDeepLog()))
	for _, log := range fuzzHostileLogs(f) {
		f.Add(log)
	}
	for _, log := range fuzzSampleLogs() {
		f.Add(log)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		recs := fuzzRecords(data)
		n := len(recs)
		sum := fuzzChecksum(data)
		k := int(sum % uint32(n+1))

		full := fold.New(fold.Options{})
		fuzzApply(t, full, recs...)
		want, ok := fuzzExport(t, full, "full fold")
		if !ok {
			return
		}
		fuzzReadViews(t, full, n)

		// Determinism: the same records, folded again one at a time.
		again := fold.New(fold.Options{})
		for i := range recs {
			fuzzApply(t, again, recs[i])
		}
		if got, _ := fuzzExport(t, again, "record-by-record fold"); !bytes.Equal(got, want) {
			t.Fatalf("folding the same %d records one at a time differs from folding them at once:\n%s", n, fuzzDiff(got, want))
		}

		// Checkpoint equivalence at k.
		head := fold.New(fold.Options{})
		fuzzApply(t, head, recs[:k]...)
		snap, wire, ok := fuzzSnapshot(t, head, fmt.Sprintf("fold of records 1..%d", k))
		if !ok {
			return
		}
		frozen := bytes.Clone(snap.State)
		var back model.Snapshot
		if err := json.Unmarshal(wire, &back); err != nil {
			t.Fatalf("snapshot at %d does not decode: %v\n%s", k, err, wire)
		}
		restoredFrom := bytes.Clone(back.State)
		tail := fold.New(fold.Options{})
		if err := tail.Restore(back); err != nil {
			t.Fatalf("restore at %d of %d: %v", k, n, err)
		}
		fuzzApply(t, tail, recs[k:]...)
		if got, _ := fuzzExport(t, tail, "restored fold"); !bytes.Equal(got, want) {
			t.Fatalf("checkpoint at %d of %d: restore + fold the rest differs from folding everything:\n%s", k, n, fuzzDiff(got, want))
		}

		// Export independence: folding on never changes a snapshot taken.
		fuzzApply(t, head, recs[k:]...)
		if !bytes.Equal(snap.State, frozen) {
			t.Fatalf("snapshot taken at %d changed after folding %d more records", k, n-k)
		}
		if !bytes.Equal(back.State, restoredFrom) {
			t.Fatalf("snapshot restored at %d changed after the restored fold went on", k)
		}
		if got, _ := fuzzExport(t, head, "fold in two batches"); !bytes.Equal(got, want) {
			t.Fatalf("folding in two batches (split at %d of %d) differs from folding at once:\n%s", k, n, fuzzDiff(got, want))
		}

		fuzzCheckEvict(t, recs, k, int(sum>>8)%(len(full.Items())+2))
		fuzzCheckShed(t, recs, full, sum)
	})
}

// fuzzCheckEvict folds recs[:k], trims items alone so that up to m of the
// finished ones go (the oldest), and folds the rest.
func fuzzCheckEvict(t *testing.T, recs []model.Record, k, m int) {
	g := fold.New(fold.Options{})
	fuzzApply(t, g, recs[:k]...)
	before := slices.Clone(g.Items())
	seqOf := make(map[*model.Item]uint64, len(before))
	var maxSeq uint64
	for _, it := range before {
		seqOf[it] = it.Seq
		maxSeq = max(maxSeq, it.Seq)
	}
	beforeSeqs := fuzzSeqs(before)
	done := 0
	for _, it := range before {
		if it.Status.Done() {
			done++
		}
	}
	keep := fold.Keep{Items: max(done-m, 0), Content: fold.All, Skeletons: fold.All, Tombstones: fold.TombstonesAll}
	dropped := g.Trim(keep).Shed.Items
	after := g.Items()
	if dropped < 0 || dropped > max(m, 0) || len(after) != len(before)-dropped {
		t.Fatalf("Trim(%+v) reported %d dropped, items went from %d to %d", keep, dropped, len(before), len(after))
	}
	kept := map[uint64]bool{}
	for _, it := range after {
		s, known := seqOf[it]
		if !known {
			t.Fatalf("Trim(%+v) made up item %d (%s %q)", keep, it.Seq, it.Kind, it.ID)
		}
		if s != it.Seq {
			t.Fatalf("Trim(%+v) renumbered item %d to %d", keep, s, it.Seq)
		}
		kept[it.Seq] = true
	}
	if !fuzzIsSubsequence(fuzzSeqs(after), beforeSeqs) {
		t.Fatalf("Trim(%+v) reordered the items: %v → %v", keep, beforeSeqs, fuzzSeqs(after))
	}
	for _, it := range before {
		if !it.Status.Done() && !kept[seqOf[it]] {
			t.Fatalf("Trim(%+v) dropped item %d (%s %q) with status %q", keep, seqOf[it], it.Kind, it.ID, it.Status)
		}
	}

	// Folding on after eviction never reuses a sequence number, and an
	// evicted fold obeys the checkpoint law too.
	snap, _, ok := fuzzSnapshot(t, g, fmt.Sprintf("fold after Trim(%+v)", keep))
	if !ok {
		return
	}
	h := fold.New(fold.Options{})
	if err := h.Restore(snap); err != nil {
		t.Fatalf("restore after Trim(%+v): %v", keep, err)
	}
	fuzzApply(t, g, recs[k:]...)
	fuzzApply(t, h, recs[k:]...)
	for _, it := range g.Items() {
		if _, old := seqOf[it]; !old && it.Seq <= maxSeq {
			t.Fatalf("after Trim(%+v), new item %s %q got seq %d, not above the %d used before", keep, it.Kind, it.ID, it.Seq, maxSeq)
		}
	}
	fuzzCheckItemOrder(t, g.Items(), "after eviction")
	gs, ok := fuzzExport(t, g, "evicted fold")
	hs, _ := fuzzExport(t, h, "restored evicted fold")
	if ok && !bytes.Equal(gs, hs) {
		t.Fatalf("after Trim(%+v) at %d: restore + fold the rest differs from folding on:\n%s", keep, k, fuzzDiff(hs, gs))
	}
}

// fuzzRecords turns each non-blank line into a record the way the JSON
// lines source does (sources/jsonl.go): numbered from 1, a line that is not
// one JSON value is unreadable with no Raw, any other is decoded and keeps
// its bytes, and an event's own time is the record's time.
func fuzzRecords(data []byte) []model.Record {
	var recs []model.Record
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if len(recs) == fuzzMaxLines {
			break
		}
		rec := model.Record{Seq: uint64(len(recs) + 1), Proto: model.ProtoAGUI}
		if !jsontext.Value(line).IsValid(jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true)) {
			rec.Event = &model.Unreadable{Reason: "not one JSON value", Offset: -1}
		} else {
			rec.Raw, rec.Event = bytes.Clone(line), agui.Decode(line)
		}
		if at, ok := agui.Time(rec.Event); ok {
			rec.At = at
		}
		recs = append(recs, rec)
	}
	return recs
}

// apply folds recs into f; the only error Apply may return is a correlation.
func fuzzApply(t *testing.T, f *fold.Fold, recs ...model.Record) {
	t.Helper()
	if _, err := f.Apply(recs...); err != nil && !fuzzOnlyCorrelation(err) {
		t.Fatalf("Apply: %v", err)
	}
}

func fuzzOnlyCorrelation(err error) bool {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			if !fuzzOnlyCorrelation(e) {
				return false
			}
		}
		return true
	}
	return errors.Is(err, fold.ErrCorrelation)
}

// exportJSON returns the fold's snapshot as JSON. A snapshot that cannot be
// written is a law violation (no checkpoint can be taken); the kinds already
// reported are logged as known issues and reported as !ok.
func fuzzExport(t *testing.T, f *fold.Fold, what string) ([]byte, bool) {
	t.Helper()
	_, b, ok := fuzzSnapshot(t, f, what)
	return b, ok
}

// fuzzSnapshot exports f and writes the snapshot as JSON, as a checkpoint
// file holds it.
func fuzzSnapshot(t *testing.T, f *fold.Fold, what string) (model.Snapshot, []byte, bool) {
	t.Helper()
	snap, err := f.Export()
	var b []byte
	if err == nil {
		b, err = json.Marshal(snap)
	}
	if err == nil {
		return snap, b, true
	}
	if id := fuzzExportIssue(err); id != "" {
		fuzzKnownIssue(t, id, "%s: cannot export: %v", what, err)
		return snap, nil, false
	}
	t.Fatalf("%s: cannot export: %v", what, err)
	return snap, nil, false
}

// fuzzExportIssue classifies an export failure already reported.
func fuzzExportIssue(err error) string {
	switch s := err.Error(); {
	case strings.Contains(s, "invalid UTF-8"), strings.Contains(s, "invalid surrogate pair"):
		return "raw-invalid-utf8"
	case strings.Contains(s, "duplicate object member name"):
		return "raw-duplicate-names"
	}
	return ""
}

// fuzzKnownIssue fails on a class of bug the fuzzers found and that is
// fixed now; id names the class (and its corpus entries).
func fuzzKnownIssue(t *testing.T, id, format string, args ...any) {
	t.Helper()
	t.Fatalf("regression "+id+": "+format, args...)
}

// readEverything calls every read-only view, which must not panic, and
// checks the invariants that hold after any input.
func fuzzReadViews(t *testing.T, f *fold.Fold, n int) {
	t.Helper()
	sum := f.Summary()
	_ = f.ThreadID()
	_ = f.Runs()
	if last := f.LastSeq(); last != uint64(n) {
		t.Fatalf("LastSeq is %d after %d records", last, n)
	}
	for _, d := range f.Diagnostics() {
		if d.Seq < 1 || d.Seq > uint64(n) {
			t.Fatalf("diagnostic %+v names a record outside 1..%d", d, n)
		}
	}
	for i, s := range sum.Steps {
		if s.Index != i {
			t.Fatalf("step %d has index %d", i, s.Index)
		}
		_ = s.Label()
	}
	for _, it := range f.Items() {
		if it.Step >= len(sum.Steps) {
			t.Fatalf("item %d points at step %d of %d", it.Seq, it.Step, len(sum.Steps))
		}
	}
	fuzzCheckItemOrder(t, f.Items(), "")
}

// fuzzCheckItemOrder: items are in the order they were created, so their
// sequence numbers strictly increase.
func fuzzCheckItemOrder(t *testing.T, items []*model.Item, when string) {
	t.Helper()
	for i := 1; i < len(items); i++ {
		if items[i].Seq <= items[i-1].Seq {
			t.Fatalf("items out of order %s: seq %d follows %d", when, items[i].Seq, items[i-1].Seq)
		}
	}
}

func fuzzSeqs(items []*model.Item) []uint64 {
	out := make([]uint64, len(items))
	for i, it := range items {
		out[i] = it.Seq
	}
	return out
}

func fuzzIsSubsequence(sub, of []uint64) bool {
	j := 0
	for _, s := range sub {
		for j < len(of) && of[j] != s {
			j++
		}
		if j == len(of) {
			return false
		}
		j++
	}
	return true
}

// fuzzChecksum spreads the input's bytes over a number the split point and the
// eviction count are taken from, so that every mutation may move them.
func fuzzChecksum(data []byte) uint32 {
	h := uint32(2166136261)
	for _, b := range data {
		h = (h ^ uint32(b)) * 16777619
	}
	return h
}

// firstDiff shows where two snapshots part.
func fuzzDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	from := max(0, i-200)
	return fmt.Sprintf("at byte %d\n got: …%s\nwant: …%s", i, fuzzClip(got[from:], 400), fuzzClip(want[from:], 400))
}

func fuzzClip(b []byte, n int) string {
	if len(b) > n {
		b = b[:n]
	}
	return string(b)
}

// fuzzDeepLog nests state, patches, values and metadata 200 levels deep.
// Deeper costs each execution more than it finds: the patch library walks a
// path of depth d over a document of size n in O(d·n).
func fuzzDeepLog() string {
	const depth = 200
	deep := strings.Repeat(`[`, depth) + `{"a":[0]}` + strings.Repeat("]", depth)
	return `{"type":"RUN_STARTED","threadId":"t","runId":"r"}
{"type":"STATE_SNAPSHOT","snapshot":` + deep + `}
{"type":"STATE_DELTA","delta":[{"op":"add","path":"` + strings.Repeat("/0", depth) + `/a/-","value":` + deep + `}]}
{"type":"CUSTOM","name":"deep","value":` + deep + `,"metadata":{"m":` + deep + `}}
{"type":"ACTIVITY_SNAPSHOT","messageId":"a","activityType":"x","content":{"d":` + deep + `}}
{"type":"RUN_FINISHED","threadId":"t","runId":"r","result":` + deep + `}`
}

// fuzzHostileLogs are small versions of the inputs that once made the fold
// quadratic (hostile_bench_test.go): streamed arguments, many tool calls,
// many state patches, state as deep as the fold keeps and deeper.
func fuzzHostileLogs(f *testing.F) [][]byte {
	var out [][]byte
	for _, k := range []struct {
		kind string
		n    int
	}{{"arg-deltas", 300}, {"tool-calls", 60}, {"state-deltas", 300}, {"message", 3000}} {
		var b bytes.Buffer
		if err := hostile.Write(&b, k.kind, k.n); err != nil {
			f.Fatal(err)
		}
		out = append(out, b.Bytes())
	}
	deep := func(levels int) string { return strings.Repeat(`{"a":`, levels) + "0" + strings.Repeat("}", levels) }
	var b strings.Builder
	b.WriteString(`{"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n")
	for i := range 60 {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_START","toolCallId":"c%d","toolCallName":"read","parentMessageId":"m"}`+"\n", i)
	}
	for i := range 60 {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_ARGS","toolCallId":"c%d","delta":"{}"}`+"\n", i)
	}
	for i := range 30 { // the newest and the oldest of the open calls, in turn
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_END","toolCallId":"c%d"}`+"\n", 59-i)
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_END","toolCallId":"c%d"}`+"\n", i)
	}
	for i := range 60 {
		fmt.Fprintf(&b, `{"type":"TOOL_CALL_RESULT","messageId":"r%d","toolCallId":"c%d","content":"ok"}`+"\n", i, i)
	}
	// State a few levels short of the limit, patched past it and back.
	fmt.Fprintf(&b, `{"type":"STATE_SNAPSHOT","snapshot":%s}`+"\n", deep(agui.MaxDepth-4))
	path := strings.Repeat("/a", agui.MaxDepth-4)
	for i := range 6 {
		fmt.Fprintf(&b, `{"type":"STATE_DELTA","delta":[{"op":"replace","path":"%s","value":%s}]}`+"\n", path, deep(i))
	}
	fmt.Fprintf(&b, `{"type":"STATE_DELTA","delta":[{"op":"copy","from":"/a","path":"%s"}]}`+"\n", path)
	fmt.Fprintf(&b, `{"type":"STATE_SNAPSHOT","snapshot":%s}`+"\n", deep(agui.MaxDepth))
	b.WriteString(`{"type":"RUN_FINISHED","threadId":"t","runId":"r"}` + "\n")
	return append(out, []byte(b.String()))
}

// fuzzSampleLogs returns the peer samples as JSON lines, one log per sample (and
// per named log in a file of named logs), or nothing when the samples are
// not on this machine: testdata/fuzz/FuzzFold holds copies for CI.
func fuzzSampleLogs() [][]byte {
	for _, dir := range []string{"../testdata/peer/samples"} {
		paths, _ := filepath.Glob(filepath.Join(dir, "*"))
		var out [][]byte
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			for _, events := range fuzzSplitLogs(b) {
				out = append(out, fuzzWindows(events)...)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return nil
}

// fuzzSeedBytes bounds a seed. The fuzzer minimises every input that finds
// new coverage before keeping it, which for a 100 KB log takes its whole
// minimisation budget (a minute) per input; small seeds keep it fuzzing.
const fuzzSeedBytes = 4 << 10

// fuzzWindows cuts a log into consecutive pieces of about fuzzSeedBytes, one
// event per line. Pieces after the first start mid-run, as a tail does.
func fuzzWindows(events [][]byte) [][]byte {
	var out [][]byte
	var cur []byte
	for _, ev := range events {
		if len(cur) > 0 && len(cur)+len(ev) > fuzzSeedBytes {
			out = append(out, cur)
			cur = nil
		}
		if len(cur) > 0 {
			cur = append(cur, '\n')
		}
		cur = append(cur, ev...)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// fuzzSplitLogs finds the logs in a sample: a JSON array, an object of named
// arrays (in name order), JSON lines or SSE `data:` lines.
func fuzzSplitLogs(b []byte) [][][]byte {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	var arr []jsontext.Value
	if json.Unmarshal(b, &arr) == nil {
		return [][][]byte{fuzzCompactAll(arr)}
	}
	var named map[string][]jsontext.Value
	if json.Unmarshal(b, &named) == nil {
		names := make([]string, 0, len(named))
		for name := range named {
			names = append(names, name)
		}
		sort.Strings(names)
		var out [][][]byte
		for _, name := range names {
			out = append(out, fuzzCompactAll(named[name]))
		}
		return out
	}
	var events [][]byte
	for line := range strings.SplitSeq(string(b), "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "data:"))
		if line != "" {
			events = append(events, []byte(line))
		}
	}
	return [][][]byte{events}
}

// fuzzCompactAll writes each event on one line.
func fuzzCompactAll(vs []jsontext.Value) [][]byte {
	out := make([][]byte, len(vs))
	for i, v := range vs {
		c := v.Clone()
		if err := c.Compact(); err != nil {
			c = v.Clone()
		}
		out[i] = c
	}
	return out
}

package sources

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// geminiChats is the chats folder of the Gemini CLI fixture.
var geminiChats = filepath.Join("..", "testdata", "gemini", "tmp",
	"e828acfc792e3bbcd2a6c6c35323cb44b7b438741c168c8ec59aefe347f193bb", "chats")

// geminiFixture is a Gemini CLI session file; geminiSubagent is the file
// of a subagent it ran.
var (
	geminiFixture  = filepath.Join(geminiChats, "session-2026-04-20T09-15-8e2b7c14.jsonl")
	geminiSubagent = filepath.Join(geminiChats, "8e2b7c14-3f5a-4d9e-b1c6-0a7f2e9d4c31", "c41d9a77-2b8e-4f03-9d6a-5e1f7b3a0c92.jsonl")
)

// A Gemini session file, main or a subagent's, is told from its first
// record, whole or cut short; other first lines are not one.
func TestLooksLikeGeminiSession(t *testing.T) {
	for _, p := range []string{geminiFixture, geminiSubagent} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		first := b[:bytes.IndexByte(b, '\n')]
		if !LooksLikeGeminiSession(first) || !LooksLikeGeminiSession(first[:len(first)/2]) {
			t.Errorf("%s: not told from its first line", p)
		}
		if f, err := detect(bufio.NewReader(bytes.NewReader(b))); err != nil || f != FormatGemini {
			t.Errorf("%s: detected %v (%v)", p, f, err)
		}
	}
	for _, l := range []string{
		`{"type":"RUN_STARTED","sessionId":"s","projectHash":"p"}`,
		`{"sessionId":"s","type":"user","uuid":"u"}`,
		`{"sessionId":"s","projectHash":3}`,
		`{"$set":{"sessionId":"s","projectHash":"p"}}`,
		`[{"sessionId":"s","projectHash":"p"}]`,
	} {
		if LooksLikeGeminiSession([]byte(l)) {
			t.Errorf("%s taken for a Gemini session", l)
		}
	}
}

// A session file replaced whole (Gemini CLI rewrites it through a temporary
// file and a rename when it resumes one) restarts the tail: the records
// after the restart are the new file's, read whole, so what was shown
// before is not shown twice; the same holds for a file rewritten without
// the messages a rewind dropped.
func TestTailGeminiRewritten(t *testing.T) {
	data, whole := sessionWhole(t, geminiFixture)
	dir := t.TempDir()
	path := filepath.Join(dir, "session.jsonl")
	writeFile(t, path, data)
	tl := newTailer(path, TailOptions{Poll: time.Hour})
	tl.check()
	sameSessionRecords(t, tl.pending, whole)
	seen := uint64(len(tl.pending))
	tl.pending = nil

	// What rewriteConversationFile writes after the rewind: the metadata,
	// the messages kept (each once, as last written), no $rewindTo.
	var rewound [][]byte
	last := map[string]int{}
	for _, ln := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		if bytes.Contains(ln, []byte(`"$rewindTo"`)) {
			break
		}
		if bytes.HasPrefix(ln, []byte(`{"$set"`)) {
			continue
		}
		id := string(ln[:min(len(ln), 48)])
		if i, ok := last[id]; ok {
			rewound[i] = ln
			continue
		}
		last[id] = len(rewound)
		rewound = append(rewound, ln)
	}
	shorter := append(bytes.Join(rewound, []byte("\n")), '\n')

	for _, content := range [][]byte{data, shorter} {
		tmp := filepath.Join(dir, "session.jsonl.tmp-1")
		writeFile(t, tmp, content)
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
		tl.check()
		if len(tl.ready) == 0 || !tl.ready[len(tl.ready)-1].restart {
			t.Fatalf("no restart after the file was replaced: %d batches cut", len(tl.ready))
		}
		tl.ready = nil
		want, err := ReadAll(bytes.NewReader(content))
		if err != nil {
			t.Fatal(err)
		}
		got := append([]model.Record(nil), tl.pending...)
		for i := range got {
			got[i].Seq -= seen // numbered on across the restart
		}
		sameSessionRecords(t, got, want)
		seen += uint64(len(tl.pending))
		tl.pending = nil
	}
}

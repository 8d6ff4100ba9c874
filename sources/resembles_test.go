package sources

import (
	"strings"
	"testing"
)

// Resembles names what a file that gave no event is, from its name and
// head; a head that says nothing gives "".
func TestResembles(t *testing.T) {
	for _, tc := range []struct{ name, head, want string }{
		{"x.db", "SQLite format 3\x00\x10\x00", "an SQLite database"},
		{"/r/.aider.chat.history.md", "# aider chat started at 2026-01-01\n", "Aider's chat history"},
		{"notes.md", "# aider chat started at 2026-01-01\n", "Aider's chat history"},
		{"/t/api_conversation_history.json", `[{"role":"user"}]`, "a task file of Cline or Roo Code"},
		{"/s/workspace.yaml", "id: x\ncwd: /r\n", "a Copilot CLI session's description"},
		{"/p/-r/sid/subagents/agent-a.meta.json", `{"agentType":"Explore","toolUseId":"t"}`, "reads with its session (-r/sid.jsonl)"},
		{"chat.json", "{\n  \"sessionId\": \"s\",\n  \"projectHash\": \"h\",\n  \"messages\": []\n}", "a Gemini CLI session saved whole"},
		{"m.json", `[{"role":"user","content":"hi"}]`, "a list of chat messages"},
		{"o.jsonl", `{"a":1,"b":{"c":2}}` + "\n", `JSON whose first object has "a", "b"`},
		{"t.txt", "hello", ""},
		{"e.json", "", ""},
	} {
		got := Resembles(tc.name, []byte(tc.head))
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("%s %.20q: %q, want %q", tc.name, tc.head, got, tc.want)
		}
	}
}

// FuzzResembles: any head, any name, never a panic, and what it says is
// one line.
func FuzzResembles(f *testing.F) {
	f.Add("a.json", []byte(`{"sessionId":"s","projectHash":"h","messages":[]}`))
	f.Add("b.jsonl", []byte(`[{"role":"user","content":"x"}`))
	f.Add("c.db", []byte("SQLite format 3\x00"))
	f.Fuzz(func(t *testing.T, name string, head []byte) {
		if got := Resembles(name, head); strings.ContainsAny(got, "\n\r") && !strings.ContainsAny(name, "\n\r") && !strings.Contains(string(head), "\n") {
			t.Fatalf("more than one line: %q", got)
		}
	})
}

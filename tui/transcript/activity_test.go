package transcript

import (
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/viewtest"
	"github.com/agentwatch/agentwatch/model"
)

// The rows OpenTelemetry becomes (a tool decision, a model call's usage,
// a model call that failed) read as words, not JSON; an activity of
// another kind still shows its JSON.
func TestActivityRowsInWords(t *testing.T) {
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemActivity, Version: 1, Name: "permission",
			Data: []byte(`{"decision":"accept","source":"config","tool":"Bash","toolCallId":"call-1"}`)},
		{Seq: 2, Kind: model.ItemActivity, Version: 1, Name: "permission",
			Data: []byte(`{"decision":"reject","source":"user_reject","tool":"Edit","toolCallId":"toolu_2"}`)},
		{Seq: 3, Kind: model.ItemActivity, Version: 1, Name: "usage",
			Data: []byte(`{"cacheReadTokens":2000,"costUsd":0.0213,"durationMs":1150,"inputTokens":1234,"model":"claude-sonnet-4","outputTokens":567}`)},
		{Seq: 4, Kind: model.ItemActivity, Version: 1, Name: "usage",
			Data: []byte(`{"inputTokens":900,"outputTokens":40,"costUsd":0.0074,"reasoningTokens":1200000}`)},
		{Seq: 5, Kind: model.ItemActivity, Version: 1, Name: "error",
			Data: []byte(`{"attempt":2,"message":"overloaded","model":"claude-sonnet-4","statusCode":"529"}`)},
		{Seq: 6, Kind: model.ItemActivity, Version: 1, Name: "error", Data: []byte(`{"message":"stream disconnected","event":"response.failed"}`)},
		{Seq: 7, Kind: model.ItemActivity, Version: 1, Name: "progress", Data: []byte(`{"done":3}`)},
		{Seq: 8, Kind: model.ItemActivity, Version: 1, Name: "notification",
			Data: []byte(`{"kind":"task","task_id":"b1","status":"completed","summary":"Background command \"npm test\" completed"}`)},
	}
	tr := New()
	tr.SetItems(items, nil)
	got := plainRows(allRows(tr, 100))
	want := []string{
		"       permission · Bash allowed (config)",
		"       permission · Edit rejected (user_reject)",
		"       usage · claude-sonnet-4 · 1,234 in · 567 out · 2,000 cached · $0.02",
		"       usage · 900 in · 40 out · 1,200,000 reasoning · $0.0074",
		"       API error · 529 overloaded · attempt 2",
		"       API error · stream disconnected",
		`       · activity progress {"done":3}`,
		`       notification · task b1 completed: Background command "npm test" completed`,
	}
	for i := range want {
		if i >= len(got) || strings.TrimRight(got[i], " ") != want[i] {
			t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			break
		}
	}
}

// What an agent put in a row's content is made safe before it is drawn:
// no escape sequence of its own reaches the terminal.
func TestActivityRowsStripEscapes(t *testing.T) {
	hostile := "x\x1b]52;c;ZXZpbA==\x07y\x1b[2J\x9b2J\x1b[31mred"
	enc := strings.NewReplacer("\x1b", `\u001b`, "\x07", `\u0007`, "\x9b", `\u009b`).Replace(hostile)
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemActivity, Version: 1, Name: "permission",
			Data: []byte(`{"decision":"` + enc + `","source":"` + enc + `","tool":"` + enc + `"}`)},
		{Seq: 2, Kind: model.ItemActivity, Version: 1, Name: "usage", Data: []byte(`{"model":"` + enc + `","inputTokens":"` + enc + `"}`)},
		{Seq: 3, Kind: model.ItemActivity, Version: 1, Name: "error", Data: []byte(`{"message":"` + enc + `","statusCode":"` + enc + `"}`)},
	}
	tr := New()
	tr.SetItems(items, nil)
	for _, w := range []int{20, 100} {
		for i, row := range allRows(tr, w) {
			rest := viewtest.SGR.ReplaceAllString(row, "")
			for _, bad := range []string{"\x1b", "\x07", "\x9b", "\u009b"} {
				if strings.Contains(rest, bad) {
					t.Errorf("width %d row %d keeps %q: %q", w, i, bad, row)
				}
			}
			if strings.Contains(row, "\x1b[31mred") {
				t.Errorf("width %d row %d keeps the agent's colour: %q", w, i, row)
			}
		}
	}
}

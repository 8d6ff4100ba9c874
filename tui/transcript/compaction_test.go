package transcript

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
)

// A compaction, Claude Code's (an activity) or Codex's (a CUSTOM event),
// draws as its marker with its summary cut to the width; a thread's title
// draws no row at all.
func TestCompactionAndTitleRows(t *testing.T) {
	items := []*model.Item{
		{Seq: 1, Kind: model.ItemCustom, Version: 1, Name: "title", Data: []byte(`{"source":"custom-title","title":"Flaky"}`)},
		{Seq: 2, Kind: model.ItemActivity, Version: 1, Name: "compaction",
			Data: []byte(`{"content":"Conversation compacted","summary":"The user asked\nto fix the flaky test; it is fixed."}`)},
		{Seq: 3, Kind: model.ItemCustom, Version: 1, Name: "compaction", Data: []byte(`{}`)},
		{Seq: 4, Kind: model.ItemCustom, Version: 1, Name: "compaction", Data: []byte(`{"message":"Summary of the work so far"}`)},
		{Seq: 5, Kind: model.ItemCustom, Version: 1, Name: "title", Data: []byte(`{"source":"ai-title","title":"Fix"}`)},
		{Seq: 6, Kind: model.ItemCustom, Version: 1, Name: "other", Data: []byte(`{"a":1}`)},
	}
	tr := New()
	tr.SetItems(items, nil)
	rows := allRows(tr, 50)
	got := plainRows(rows)
	want := []string{
		"       ── context compacted ── The user asked to …",
		"       ── context compacted ──",
		"       ── context compacted ── Summary of the wor…",
		`       · custom other {"a":1}`,
	}
	if len(got) != len(want) {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for i := range want {
		if got[i] != want[i] || ansi.StringWidth(rows[i]) != 50 {
			t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			break
		}
	}
}

// A transcript of titles only draws nothing: every item left out is not
// the same as no item left out.
func TestOnlyTitlesDrawNothing(t *testing.T) {
	tr := New()
	tr.SetItems([]*model.Item{{Seq: 1, Kind: model.ItemCustom, Version: 1, Name: "title", Data: []byte(`{"title":"x"}`)}}, nil)
	if rows := allRows(tr, 40); len(rows) != 0 {
		t.Errorf("rows: %q", rows)
	}
}

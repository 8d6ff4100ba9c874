package render

import "testing"

// ShortStart keeps a name's end, where names of one folder differ, and
// never cuts a wide character in two.
func TestShortStart(t *testing.T) {
	for _, tc := range []struct {
		s     string
		cells int
		want  string
	}{
		{"run.jsonl", 20, "run.jsonl"},
		{"session-2026-12-03-1.jsonl", 12, "…-03-1.jsonl"},
		{"session-2026-12-03-2.jsonl", 12, "…-03-2.jsonl"},
		{"会话记录第二.jsonl", 9, "…二.jsonl"},
		{"abcdef", 1, "f"},
	} {
		got := ShortStart(tc.s, tc.cells)
		if got != tc.want || CellWidth(got) > tc.cells {
			t.Errorf("ShortStart(%q, %d) = %q, want %q", tc.s, tc.cells, got, tc.want)
		}
	}
}

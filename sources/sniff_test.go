package sources

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNotALog(t *testing.T) {
	dir := t.TempDir()
	bom := "\xEF\xBB\xBF"
	files := []struct {
		name, content string
		verdict       sniffVerdict
		why           string // a part of NotALog's answer; "" for a log
	}{
		{"empty.jsonl", "", sniffBlank, ""},
		{"blank.jsonl", bom + " \r\n\t\n", sniffBlank, ""},
		{"lines.jsonl", `{"type":"RUN_STARTED"}` + "\n", sniffLog, ""},
		{"array.json", bom + "\n  [\n", sniffLog, ""},
		{"data.sse", "data: {}\n\n", sniffLog, ""},
		{"event.sse", "event: x\ndata: {}\n\n", sniffLog, ""},
		{"id.sse", "id: 1\n", sniffLog, ""},
		{"retry.sse", "retry: 10\n", sniffLog, ""},
		{"comment.sse", ": keep-alive\n", sniffLog, ""},
		{"partial.jsonl", `{"type":"RUN_ST`, sniffLog, ""},
		{"notes.txt", "remember the milk\n", sniffNot, "not an event log"},
		{"half-bom.jsonl", "\xEF\xBB{}", sniffNot, "not an event log"},
		{"deep-blank.jsonl", strings.Repeat(" ", sniffBytes) + "{}", sniffBlank, ""},
		{".hidden.jsonl", `{"type":"RUN_STARTED"}` + "\n", sniffNot, "hidden"},
	}
	for _, f := range files {
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, []byte(f.content), 0o644); err != nil {
			t.Fatal(err)
		}
		v, _ := sniff(path, nil)
		got := NotALog(path)
		if v != f.verdict || (f.why == "") != (got == "") || !strings.Contains(got, f.why) {
			t.Errorf("%s: verdict %d, NotALog %q; want verdict %d, reason with %q", f.name, v, got, f.verdict, f.why)
		}
	}

	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	others := []struct {
		path    string
		verdict sniffVerdict
		why     string
	}{
		{filepath.Join(dir, "sub"), sniffNot, "a folder"},
		{filepath.Join(dir, "missing.jsonl"), sniffGone, "cannot be read"},
	}
	if st, err := os.Stat(os.DevNull); err == nil && !st.Mode().IsRegular() {
		others = append(others, struct {
			path    string
			verdict sniffVerdict
			why     string
		}{os.DevNull, sniffNot, "not a regular file"})
	}
	for _, o := range others {
		v, _ := sniff(o.path, nil)
		if got := NotALog(o.path); v != o.verdict || !strings.Contains(got, o.why) || got == "" {
			t.Errorf("%s: verdict %d, NotALog %q; want verdict %d, reason with %q", o.path, v, got, o.verdict, o.why)
		}
	}
}

package cli

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// threads lines its columns up by the cells each text takes on a terminal:
// a CJK or emoji title takes two a character, and the columns after it stay
// in line.
func TestThreadsColumnsByDisplayWidth(t *testing.T) {
	dir := t.TempDir()
	log := ""
	for i, title := range []string{"修复失败的测试用例", "fix the failing test", "🧑‍💻 deploy 👍🏽", "naïve café"} {
		id := string(rune('a' + i))
		log += `{"type":"RUN_STARTED","threadId":"` + id + `","runId":"r` + id + `"}` + "\n" +
			`{"type":"TEXT_MESSAGE_START","messageId":"m` + id + `","role":"user"}` + "\n" +
			`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m` + id + `","delta":"` + title + `"}` + "\n" +
			`{"type":"TEXT_MESSAGE_END","messageId":"m` + id + `"}` + "\n" +
			`{"type":"RUN_FINISHED","threadId":"` + id + `","runId":"r` + id + `"}` + "\n"
	}
	path := writeFile(t, dir, "cjk.jsonl", []byte(log))
	code, out, errOut := runCLI(t, nil, "threads", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	col := func(l string) int { // the cell where SOURCE's column begins
		i := strings.Index(l, path)
		if i < 0 {
			i = strings.Index(l, "SOURCE")
		}
		return ansi.StringWidth(l[:i])
	}
	for _, l := range lines[1:] {
		if col(l) != col(lines[0]) {
			t.Errorf("the source column starts at cell %d, the heading's at %d:\n%s", col(l), col(lines[0]), out)
		}
	}
}

// steps lines its columns up by display width too: the status column
// after a label with CJK characters stays in line.
func TestStepsColumnsByDisplayWidth(t *testing.T) {
	log := `{"type":"RUN_STARTED","threadId":"t","runId":"r"}` + "\n"
	for i, loc := range []string{"读取/配置文件.go", "src/app.go", "🧑‍💻/x.go"} {
		id := string(rune('a' + i))
		log += `{"type":"TOOL_CALL_START","toolCallId":"` + id + `","toolCallName":"read","metadata":{"category":"read","location":"` + loc + `"}}` + "\n" +
			`{"type":"TOOL_CALL_END","toolCallId":"` + id + `"}` + "\n" +
			`{"type":"TOOL_CALL_RESULT","messageId":"m` + id + `","toolCallId":"` + id + `","content":"ok"}` + "\n"
	}
	log += `{"type":"RUN_FINISHED","threadId":"t","runId":"r"}` + "\n"
	path := writeFile(t, t.TempDir(), "steps.jsonl", []byte(log))
	code, out, errOut := runCLI(t, nil, "steps", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	at := -1
	for _, l := range lines {
		col := ansi.StringWidth(l[:strings.Index(l, "completed")])
		if at >= 0 && col != at {
			t.Fatalf("the status column is out of line:\n%s", out)
		}
		at = col
	}
}

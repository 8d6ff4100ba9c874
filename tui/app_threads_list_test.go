package tui

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// folderLog is a small log of one thread, as the i-th file of a folder of
// agent logs holds: one run, one user message, one tool call. File i's
// records come a second after file i-1's, so the list shows the last file
// first.
func folderLog(i int) []byte {
	ms := 1_760_000_000_000 + int64(i)*1000
	var b strings.Builder
	line := func(format string, args ...any) {
		fmt.Fprintf(&b, format, args...)
		ms += 10
		fmt.Fprintf(&b, `,"timestamp":%d}`+"\n", ms)
	}
	line(`{"type":"RUN_STARTED","threadId":"thread-%04d","runId":"run-%04d","input":{"threadId":"thread-%04d","runId":"run-%04d",`+
		`"messages":[{"id":"user-%04d","role":"user","content":"task %d: read file %04d"}],"tools":[],"context":[],"forwardedProps":{}}`,
		i, i, i, i, i, i, i)
	line(`{"type":"TOOL_CALL_START","toolCallId":"call-%04d","toolCallName":"read_file"`, i)
	line(`{"type":"TOOL_CALL_ARGS","toolCallId":"call-%04d","delta":"{\"path\":\"f%04d.go\"}"`, i, i)
	line(`{"type":"TOOL_CALL_END","toolCallId":"call-%04d"`, i)
	line(`{"type":"TOOL_CALL_RESULT","messageId":"result-%04d","toolCallId":"call-%04d","content":"package f"`, i, i)
	line(`{"type":"RUN_FINISHED","threadId":"thread-%04d","runId":"run-%04d"`, i, i)
	return []byte(b.String())
}

// folderBatches are the records of a folder of n logs, a batch per file
// (f0000.jsonl…), as a folder's watcher hands them over.
func folderBatches(t testing.TB, n int) []model.Batch {
	t.Helper()
	batches := make([]model.Batch, n)
	for i := range batches {
		recs, err := sources.ReadAll(bytes.NewReader(folderLog(i)))
		if err != nil {
			t.Fatal(err)
		}
		batches[i] = model.Batch{Source: fmt.Sprintf("f%04d.jsonl", i), Records: recs}
	}
	return batches
}

// A folder of 1,000 one-thread logs lists 1,000 threads, and any of them
// opens: the 500th row here.
func TestThreadsAppFolder(t *testing.T) {
	const files = 1000
	batches := folderBatches(t, files)
	d := newThreadsApp(t, 80, 24, AppOptions{Title: "logs/"}, batches...)
	d.close(t)
	if n := d.tv().set.Len(); n != files {
		t.Fatalf("%d threads, want %d", n, files)
	}
	s := ansi.Strip(d.screen(t))
	if !strings.HasPrefix(s, "─ threads · 1000 · logs/ ") || !strings.Contains(s, "rows 1–20 of 1000") {
		t.Fatalf("the list of 1,000 threads:\n%s", s)
	}
	if !strings.Contains(s, "task 999: read file 0999") {
		t.Errorf("the newest file's thread is not on the first page:\n%s", s)
	}
	d.press("g")
	for range 499 {
		d.press("j")
	}
	th := d.tv().order[499]
	if th.ID != "thread-0500" || th.Source != "f0500.jsonl" {
		t.Fatalf("row 500 is %s of %s, want thread-0500 of f0500.jsonl", th.ID, th.Source)
	}
	s = ansi.Strip(d.screen(t))
	if !strings.Contains(s, "task 500: read file 0500") || !strings.Contains(s, "of 1000") {
		t.Fatalf("row 500 selected, the list shows:\n%s", s)
	}
	d.press("enter")
	checkShowsFold(t, d, th, func() *fold.Fold {
		f := fold.New(fold.Options{})
		f.Apply(batches[500].Records...)
		return f
	}())
	if s := ansi.Strip(d.screen(t)); !strings.Contains(s, "task 500: read file 0500") {
		t.Errorf("thread 500's transcript does not show its prompt:\n%s", s)
	}
}

// The list's keys move the selection: a row, a page (as many rows as are
// shown), the first and the last.
func TestThreadsAppListKeys(t *testing.T) {
	d := newThreadsApp(t, 80, 24, AppOptions{}, folderBatches(t, 100)...)
	d.close(t)
	d.screen(t)
	page := d.tv().list.PageSize()
	if page != 20 {
		t.Fatalf("80×24 shows %d rows of 100, want 20", page)
	}
	for _, step := range []struct {
		key  string
		want int
	}{
		{"down", 1}, {"j", 2}, {"up", 1}, {"k", 0}, {"k", 0},
		{"pgdown", page}, {"pgdown", 2 * page}, {"pgup", page},
		{"G", 99}, {"j", 99}, {"pgdown", 99}, {"g", 0}, {"pgup", 0}, {"end", 99}, {"home", 0},
	} {
		d.press(step.key)
		if got := d.tv().list.Selected(); got != step.want {
			t.Fatalf("%s: row %d selected, want %d", step.key, got, step.want)
		}
		lines := strings.Split(d.screen(t), "\n")
		bar := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "\x1b[7m") })
		if want := fmt.Sprintf("task %d:", 99-step.want); bar < 0 || !strings.Contains(lines[bar], want) {
			t.Fatalf("%s: the selected row drawn is %d, want the one of %q", step.key, bar, want)
		}
	}
}

// lineOf is the screen line whose text holds text, -1 when none does.
func lineOf(screen, text string) int {
	for i, l := range strings.Split(ansi.Strip(screen), "\n") {
		if strings.Contains(l, text) {
			return i
		}
	}
	return -1
}

// A click on a list row opens that thread; a click on the header or below
// the rows does nothing.
func TestThreadsAppClickRow(t *testing.T) {
	for _, sz := range threadSizes {
		d := savedThreads(t, sz[0], sz[1])
		s := d.screen(t)
		for _, y := range []int{0, 1, 2 + len(d.tv().order), sz[1] - 2} {
			d.Update(tea.MouseClickMsg{X: 10, Y: y, Button: tea.MouseLeft})
			if !d.tv().listing {
				t.Fatalf("%v: a click on line %d opened %s", sz, y, d.tv().cur.Key())
			}
		}
		th := d.tv().order[3]
		y := lineOf(s, ansi.Truncate(Plain(th.Title()), 30, ""))
		if y < 0 {
			t.Fatalf("%v: no line shows the title of %s:\n%s", sz, th.Key(), ansi.Strip(s))
		}
		d.Update(tea.MouseClickMsg{X: 20, Y: y, Button: tea.MouseLeft})
		checkShows(t, d, th)
		d.press("esc")
		if d.selectedThread() != th {
			t.Errorf("%v: back from the clicked thread the list selects %s", sz, d.selectedThread().Key())
		}
		// Another button does nothing.
		d.Update(tea.MouseClickMsg{X: 20, Y: y - 1, Button: tea.MouseRight})
		if !d.tv().listing {
			t.Errorf("%v: a right click opened a thread", sz)
		}
	}
}

package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/sources"
)

// readPlainLog reads an AG-UI log as records.
func readPlainLog(t *testing.T, log []byte) []model.Record {
	t.Helper()
	recs, err := sources.ReadAll(bytes.NewReader(log))
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

func readDemo(t *testing.T) []model.Record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "assets", "demo.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return readPlainLog(t, b)
}

// printPlain folds recs one at a time (or all at once) through a
// PlainPrinter and returns what it wrote, as lines.
func printPlain(t *testing.T, recs []model.Record, oneByOne bool) []string {
	t.Helper()
	f := fold.New(fold.Options{})
	var out bytes.Buffer
	p := NewPlainPrinter(&out, f)
	apply := func(rs ...model.Record) {
		u, _ := f.Apply(rs...)
		if err := p.Print(u); err != nil {
			t.Fatal(err)
		}
	}
	if oneByOne {
		for _, r := range recs {
			apply(r)
		}
	} else {
		apply(recs...)
	}
	s := out.String()
	if s == "" {
		return nil
	}
	if !strings.HasSuffix(s, "\n") {
		t.Fatalf("output does not end in a newline: %q", s)
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for _, l := range lines {
		for _, r := range l {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Errorf("control character %U in line %q", r, l)
			}
		}
	}
	return lines
}

func indexOf(lines []string, want string) int {
	return slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, want) })
}

func TestPlainDemo(t *testing.T) {
	recs := readDemo(t)
	each := printPlain(t, recs, true)
	all := printPlain(t, recs, false)
	if len(each) == 0 {
		t.Fatal("no lines")
	}
	// The same lines both ways; order differs only where steps ran side by side.
	a, b := slices.Sorted(slices.Values(each)), slices.Sorted(slices.Values(all))
	if !slices.Equal(a, b) {
		t.Errorf("one at a time and all at once differ:\n%s\n---\n%s", strings.Join(each, "\n"), strings.Join(all, "\n"))
	}
	for name, lines := range map[string][]string{"one at a time": each, "all at once": all} {
		// Each line once.
		seen := map[string]bool{}
		for _, l := range lines {
			if seen[l] && !strings.HasPrefix(l, "you: ") && !strings.HasPrefix(l, "agent: ") {
				t.Errorf("%s: line twice: %q", name, l)
			}
			seen[l] = true
		}
		run := indexOf(lines, "step 1 execute running · Running command · ls -la")
		done := indexOf(lines, "step 1 execute completed · Ran command · ls -la · 412ms")
		if run < 0 || done < 0 || run > done {
			t.Errorf("%s: step 1 running at %d, completed at %d", name, run, done)
		}
		if i := slices.IndexFunc(lines, func(l string) bool {
			return strings.HasPrefix(l, "step ") && strings.Contains(l, " failed · ") && strings.HasSuffix(l, " · exit 1")
		}); i < 0 {
			t.Errorf("%s: no failed step with exit 1", name)
		}
		var started, continues, completed int
		for _, l := range lines {
			switch {
			case strings.HasPrefix(l, "run ") && strings.Contains(l, " started"):
				started++
				if strings.Contains(l, " started (continues ") {
					continues++
				}
			case strings.HasPrefix(l, "run ") && strings.HasSuffix(l, " completed"):
				completed++
			}
		}
		if started != 2 || continues != 1 || completed != 2 {
			t.Errorf("%s: runs started %d (continuing %d), completed %d; want 2 (1), 2", name, started, continues, completed)
		}
		if indexOf(lines, "you: CI has been red") < 0 || indexOf(lines, "agent: ") < 0 {
			t.Errorf("%s: messages missing", name)
		}
		for _, l := range lines {
			if (strings.HasPrefix(l, "you: ") || strings.HasPrefix(l, "agent: ")) && len([]rune(l)) > 120+len("agent: ") {
				t.Errorf("%s: message line too long: %q", name, l)
			}
		}
	}
	// Every started line comes before its finished line, every run before its steps.
	for i, l := range each {
		if strings.Contains(l, " running · ") {
			num := strings.Fields(l)[1]
			if j := slices.IndexFunc(each, func(m string) bool {
				return strings.HasPrefix(m, "step "+num+" ") && !strings.Contains(m, " running · ")
			}); j >= 0 && j < i {
				t.Errorf("step %s finished (line %d) before it started (line %d)", num, j, i)
			}
		}
	}
}

func TestPlainProblemAndDeltas(t *testing.T) {
	log := []byte(`{"type":"RUN_STARTED","threadId":"t","runId":"r1"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"nope","delta":"hi"}
{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"Hello\n"}
{"type":"TEXT_MESSAGE_CONTENT","messageId":"m1","delta":"world"}
{"type":"TEXT_MESSAGE_END","messageId":"m1"}
{"type":"RUN_ERROR","message":"out of\ntokens"}
`)
	recs := readPlainLog(t, log)
	f := fold.New(fold.Options{})
	var out bytes.Buffer
	p := NewPlainPrinter(&out, f)
	var got [][]string
	for _, r := range recs {
		u, _ := f.Apply(r)
		out.Reset()
		if err := p.Print(u); err != nil {
			t.Fatal(err)
		}
		// Printing the same update again adds nothing.
		if err := p.Print(u); err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Fields(strings.ReplaceAll(out.String(), "\n", " |")))
	}
	lines := func(i int) string { return strings.Join(got[i], " ") }
	want := []string{
		"run r1 started |",
		"problem #2 TEXT_MESSAGE_CONTENT: TEXT_MESSAGE_CONTENT for message 'nope' that is not open [R6-text-not-open] |",
		"",
		"",
		"",
		"agent: Hello… |",
		"run r1 failed: out of tokens |",
	}
	for i, w := range want {
		if i == 1 {
			if !strings.HasPrefix(lines(i), "problem #2 TEXT_MESSAGE_CONTENT: ") || !strings.HasSuffix(lines(i), " [R6-text-not-open] |") {
				t.Errorf("record %d printed %q, want a problem line for rule R6", i+1, lines(i))
			}
			continue
		}
		if lines(i) != w {
			t.Errorf("record %d printed %q, want %q", i+1, lines(i), w)
		}
	}
	if all := printPlain(t, recs, false); len(all) != 4 {
		t.Errorf("all at once: %q, want 4 lines", all)
	}
}

func TestPlainHostileText(t *testing.T) {
	recs := readPlainLog(t, hostileLog())
	for _, oneByOne := range []bool{true, false} {
		lines := printPlain(t, recs, oneByOne)
		out := strings.Join(lines, "\n")
		for _, bad := range []string{"\x1b", "\x07", "\u009b", "]52;", "[2J", "]0;"} {
			if strings.Contains(out, bad) {
				t.Errorf("output holds %q:\n%s", bad, out)
			}
		}
		if indexOf(lines, "you: user asks") < 0 || indexOf(lines, "run r2 started (continues r1)") < 0 {
			t.Errorf("lines missing:\n%s", out)
		}
		if i := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "run r2 failed: boom") }); i < 0 || indexOf(lines, "step 11 execute failed") > i {
			t.Errorf("no failed run line after its failed step:\n%s", out)
		}
		if indexOf(lines, "problem #") < 0 {
			t.Errorf("no problem line:\n%s", out)
		}
	}
}

func TestPlainFirstLineAndDuration(t *testing.T) {
	long := strings.Repeat("é", 200)
	if got := plainFirstLine(long, 120); len([]rune(got)) != 120 || !strings.HasSuffix(got, "…") {
		t.Errorf("long line: %d runes %q", len([]rune(got)), got)
	}
	if got := plainFirstLine("\n\n  a\tb \x1b[2J c\n\nmore", 120); got != "a b c…" {
		t.Errorf("got %q", got)
	}
	if got := plainFirstLine("only", 120); got != "only" {
		t.Errorf("got %q", got)
	}
	for d, want := range map[int64]string{412: "412ms", 1234: "1.2s", 14700: "14.7s", 123000: "2m3s"} {
		if got := plainDuration(timeMS(d)); got != want {
			t.Errorf("%dms: %q, want %q", d, got, want)
		}
	}
}

func timeMS(ms int64) (d time.Duration) { return time.Duration(ms) * time.Millisecond }

package search

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

func TestMatcherCase(t *testing.T) {
	for _, tc := range []struct {
		query, text string
		want        int
	}{
		{"parse", "func ParseLength()", 5},
		{"Parse", "func parseLength() ParseLength", 19},
		{"PARSE", "parse", -1},
		{"länge", "die LÄNGE", 4},
		{"x", "", -1},
		{"", "anything", -1},
		{"ab", "aAaB", 2},
	} {
		if got := NewMatcher(tc.query).Index(tc.text); got != tc.want {
			t.Errorf("%q in %q: %d, want %d", tc.query, tc.text, got, tc.want)
		}
	}
	if got := NewMatcher("ab").All("ab AB aB xab"); len(got) != 4 || got[3] != [2]int{10, 12} {
		t.Errorf("All = %v", got)
	}
}

// thread is items and steps: a message then n tool calls, every tenth
// failed, every hundredth printing "needle".
func thread(n int) ([]*model.Item, []*model.Step) {
	items := []*model.Item{{Seq: 1, Kind: model.ItemMessage, Role: "assistant", Text: "I will look for the needle."}}
	var steps []*model.Step
	for i := range n {
		s := &model.Step{Index: i, Category: model.CategoryExecute, Status: model.StatusCompleted,
			Location: fmt.Sprintf("go test ./pkg%d", i), Args: `{"command":"go test"}`, Result: "ok\tpkg\t0.1s\n" + strings.Repeat("PASS\n", 20)}
		if i%10 == 0 {
			s.Status = model.StatusFailed
		}
		if i%100 == 0 {
			s.Result += "found a NEEDLE here\n"
		}
		steps = append(steps, s)
		items = append(items, &model.Item{Seq: uint64(i + 2), Kind: model.ItemToolCall, Step: i})
	}
	return items, steps
}

func TestFindCountsItemsInOrder(t *testing.T) {
	items, steps := thread(1000)
	hits := Find(items, steps, NewMatcher("needle"), nil)
	if len(hits) != 11 || hits[0] != (Hit{Seq: 1, Step: -1}) || hits[1].Step != 0 || hits[10].Step != 900 {
		t.Fatalf("hits %v", hits)
	}
	if hits := Find(items, steps, NewMatcher("Needle"), nil); len(hits) != 0 {
		t.Errorf("an upper-case query matched %d items whatever their case", len(hits))
	}
	f, _ := ParseFilter("failed")
	kept := Find(items, steps, NewMatcher("needle"), func(i int) bool { return f.Keep(steps[i]) })
	if len(kept) != 11 {
		t.Errorf("with the failed filter %d hits, want the message and the 10 failed steps", len(kept))
	}
	if Find(items, steps, NewMatcher("pkg42"), nil)[0].Step != 42 {
		t.Error("a location is not searched")
	}
}

func TestParseFilter(t *testing.T) {
	s := &model.Step{Category: model.CategoryEdit, Status: model.StatusFailed, Location: "a/b.go"}
	for _, tc := range []struct {
		spec string
		keep bool
	}{
		{"", true},
		{"failed", true},
		{"running", false},
		{"execute,edit", true},
		{"exec", false},
		{"edit failed", true},
		{"edit, done", false},
		{"text:b.go", true},
		{"failed text:nothing", false},
		{"EDIT", true},
	} {
		f, err := ParseFilter(tc.spec)
		if err != nil {
			t.Fatalf("%q: %v", tc.spec, err)
		}
		if got := f.Keep(s); got != tc.keep {
			t.Errorf("%q keeps %v, want %v", tc.spec, got, tc.keep)
		}
		if f.Active() != (tc.spec != "") {
			t.Errorf("%q active %v", tc.spec, f.Active())
		}
	}
	if _, err := ParseFilter("failed,bogus"); err == nil || !strings.Contains(err.Error(), "bogus") {
		t.Errorf("an unknown word: %v", err)
	}
}

// BenchmarkFind100k is one keystroke of a search over a thread of 100,000
// steps of about 130 bytes of output each.
func BenchmarkFind100k(b *testing.B) {
	items, steps := thread(100_000)
	m := NewMatcher("needle")
	_ = Find(items, steps, NewMatcher("sxyz"), nil)
	b.ReportAllocs()
	for b.Loop() {
		if len(Find(items, steps, m, nil)) != 1001 {
			b.Fatal("wrong count")
		}
	}
}

// BenchmarkFindCommonLetter100k searches for a query whose first letter
// is everywhere: the worst case of the candidate scan.
func BenchmarkFindCommonLetter100k(b *testing.B) {
	items, steps := thread(100_000)
	m := NewMatcher("sxyz")
	b.ReportAllocs()
	for b.Loop() {
		Find(items, steps, m, nil)
	}
}

// Search is smart case: a query in lower case matches any case, one with
// capitals matches them exactly; the filter's text: is read in any case.
func TestSmartCase(t *testing.T) {
	for _, tc := range []struct {
		query, text string
		match       bool
	}{
		{"parselength", "func ParseLength(s string)", true},
		{"ParseLength", "func parselength(s string)", false},
		{"ParseLength", "func ParseLength(s string)", true},
		{"überprüfen", "Überprüfen der Länge", true},
	} {
		if got := NewMatcher(tc.query).In(tc.text); got != tc.match {
			t.Errorf("%q in %q: %v, want %v", tc.query, tc.text, got, tc.match)
		}
	}
	f, err := ParseFilter("Text:ParseLength")
	if err != nil || f.Text.Query() != "ParseLength" {
		t.Fatalf("Text: read as %+v, %v", f, err)
	}
}

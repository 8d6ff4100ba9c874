package render

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
)

func TestUnifiedDiffs(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	news := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	got := UnifiedDiffs([]model.Diff{{Path: "/w/x.txt", OldText: &old, NewText: news}, {Path: "/w/new.txt", NewText: "1\n2\n"}})
	want := "--- /w/x.txt\n+++ /w/x.txt\n" +
		"@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+D\n e\n f\n g\n" +
		"@@ -11,3 +11,4 @@\n k\n l\n m\n+n\n" +
		"--- /dev/null\n+++ /w/new.txt\n@@ -0,0 +1,2 @@\n+1\n+2\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	same := "x\n"
	if got := UnifiedDiffs([]model.Diff{{Path: "p", OldText: &same, NewText: same}}); got != "--- p\n+++ p\n" {
		t.Errorf("no change: %q", got)
	}
}

// Every edit script turns the old lines into the new ones, and is a
// shortest one: it keeps a longest common subsequence.
func TestEditScriptRebuilds(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "d", ""}
	gen := func() []string {
		out := make([]string, r.IntN(30))
		for i := range out {
			out[i] = words[r.IntN(len(words))]
		}
		return out
	}
	for range 2000 {
		a, b := gen(), gen()
		ops := editScript(a, b)
		var got []string
		kept := 0
		for _, op := range ops {
			switch op.kind {
			case ' ':
				if a[op.old] != b[op.new] {
					t.Fatalf("kept line differs: %q %q", a[op.old], b[op.new])
				}
				got = append(got, a[op.old])
				kept++
			case '+':
				got = append(got, b[op.new])
			}
		}
		if strings.Join(got, "\n") != strings.Join(b, "\n") || len(ops)-kept != len(a)+len(b)-2*lcs(a, b) {
			t.Fatalf("%q → %q: script %v is not a shortest one", a, b, ops)
		}
	}
}

// lcs is the length of a longest common subsequence of a and b.
func lcs(a, b []string) int {
	dp := make([][]int, len(a)+1)
	for i := range dp {
		dp[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				dp[i][j] = dp[i+1][j+1] + 1
			} else {
				dp[i][j] = max(dp[i+1][j], dp[i][j+1])
			}
		}
	}
	return dp[0][0]
}

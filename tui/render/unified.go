package render

// This file turns a file's text before and after a change into a unified
// diff (as diff -u prints it), for steps that carry the two texts (ACP
// diff content) rather than a diff.

import (
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/model"
)

const (
	// unifiedContext is the unchanged lines shown around each change.
	unifiedContext = 3
	// maxEditDistance bounds the diff's search: past it the rest of the
	// change is shown as all removed then all added. Memory grows with
	// its square (1000: 8 MB at worst), and a model's edits are far smaller.
	maxEditDistance = 1000
)

// UnifiedDiffs renders the diffs of a step as one unified diff, a file after
// another: "--- path" ("--- /dev/null" for a new file), "+++ path", then
// hunks with three lines of context. A diff that changes nothing gets only
// its header lines.
func UnifiedDiffs(diffs []model.Diff) string {
	var b strings.Builder
	for _, d := range diffs {
		old := ""
		b.WriteString("--- ")
		if d.OldText == nil {
			b.WriteString("/dev/null")
		} else {
			old = *d.OldText
			b.WriteString(d.Path)
		}
		b.WriteString("\n+++ " + d.Path + "\n")
		writeHunks(&b, splitLines(old), splitLines(d.NewText))
	}
	return b.String()
}

// splitLines splits text into lines without their line ends.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}

// editOp is one line of an edit script: kept (' '), removed ('-') or
// added ('+'), with its index in the old or new lines.
type editOp struct {
	kind     byte
	old, new int
}

// writeHunks writes the hunks that turn a into b.
func writeHunks(w *strings.Builder, a, b []string) {
	ops := editScript(a, b)
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// A hunk runs from a change to the last change followed by
		// no more than 2×context unchanged lines.
		start := max(0, i-unifiedContext)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*unifiedContext {
				break
			}
		}
		end = min(len(ops), end+unifiedContext+1)
		writeHunk(w, a, b, ops[start:end])
		i = end
	}
}

func writeHunk(w *strings.Builder, a, b []string, ops []editOp) {
	oldStart, newStart, oldN, newN := -1, -1, 0, 0
	for _, op := range ops {
		if op.kind != '+' {
			if oldStart < 0 {
				oldStart = op.old
			}
			oldN++
		}
		if op.kind != '-' {
			if newStart < 0 {
				newStart = op.new
			}
			newN++
		}
	}
	w.WriteString("@@ -" + hunkRange(oldStart, oldN, ops[0].old) + " +" + hunkRange(newStart, newN, ops[0].new) + " @@\n")
	for _, op := range ops {
		w.WriteByte(op.kind)
		if op.kind == '+' {
			w.WriteString(b[op.new])
		} else {
			w.WriteString(a[op.old])
		}
		w.WriteByte('\n')
	}
}

// hunkRange is "start,count" 1-based; an empty range names the line
// before it, as diff -u writes it.
func hunkRange(start, n, at int) string {
	if n == 0 {
		return strconv.Itoa(at) + ",0"
	}
	return strconv.Itoa(start+1) + "," + strconv.Itoa(n)
}

// editScript returns a shortest edit script from a to b (Myers' greedy
// algorithm on what is left once the common start and end are set
// aside), removals before additions within a change.
func editScript(a, b []string) []editOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]editOp, 0, len(a)+len(b))
	for i := range pre {
		ops = append(ops, editOp{' ', i, i})
	}
	ops = append(ops, middleScript(a[pre:len(a)-suf], b[pre:len(b)-suf], pre)...)
	for i := range suf {
		ops = append(ops, editOp{' ', len(a) - suf + i, len(b) - suf + i})
	}
	return ops
}

// middleScript is Myers' O((N+M)·D) diff of a and b, whose lines start at
// index off in the whole texts.
func middleScript(a, b []string, off int) []editOp {
	n, m := len(a), len(b)
	all := func() []editOp {
		ops := make([]editOp, 0, n+m)
		for i := range n {
			ops = append(ops, editOp{'-', off + i, off})
		}
		for j := range m {
			ops = append(ops, editOp{'+', off + n, off + j})
		}
		return ops
	}
	if n == 0 || m == 0 {
		return all()
	}
	limit := min(n+m, maxEditDistance)
	// v[k+limit] is the furthest x on diagonal k; trace keeps v after each d.
	v := make([]int, 2*limit+2)
	var trace [][]int
	found := -1
	for d := 0; d <= limit && found < 0; d++ {
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[k-1+limit] < v[k+1+limit]) {
				x = v[k+1+limit] // down: an addition
			} else {
				x = v[k-1+limit] + 1 // right: a removal
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[k+limit] = x
			if x >= n && y >= m {
				found = d
				break
			}
		}
		trace = append(trace, append([]int(nil), v[limit-d:limit+d+1]...))
	}
	if found < 0 {
		return all()
	}
	// Walk back from (n, m) through the saved rounds.
	var rev []editOp
	x, y := n, m
	for d := found; d > 0; d-- {
		prev := trace[d-1] // v after round d-1, indexed k+(d-1)
		at := func(k int) int { return prev[k+d-1] }
		k := x - y
		var pk int
		if k == -d || (k != d && at(k-1) < at(k+1)) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := at(pk)
		py := px - pk
		for x > px && y > py {
			x, y = x-1, y-1
			rev = append(rev, editOp{' ', off + x, off + y})
		}
		if pk == k+1 {
			y--
			rev = append(rev, editOp{'+', off + x, off + y})
		} else {
			x--
			rev = append(rev, editOp{'-', off + x, off + y})
		}
	}
	for x > 0 && y > 0 {
		x, y = x-1, y-1
		rev = append(rev, editOp{' ', off + x, off + y})
	}
	ops := make([]editOp, 0, len(rev))
	for i := len(rev) - 1; i >= 0; i-- {
		ops = append(ops, rev[i])
	}
	return ordered(ops)
}

// ordered puts the removals of each change before its additions, as diff
// -u prints them (Myers' walk may interleave them).
func ordered(ops []editOp) []editOp {
	out := make([]editOp, 0, len(ops))
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			out = append(out, ops[i])
			i++
			continue
		}
		j := i
		for j < len(ops) && ops[j].kind != ' ' {
			j++
		}
		for _, op := range ops[i:j] {
			if op.kind == '-' {
				out = append(out, op)
			}
		}
		for _, op := range ops[i:j] {
			if op.kind == '+' {
				out = append(out, op)
			}
		}
		i = j
	}
	return out
}

package main

import (
	"fmt"
	"strings"
)

// unifiedDiff returns the unified diff (three lines of context) that turns
// text a into text b, as `git diff` prints it for path, with the number of
// added and removed lines. The demo's files are short, so a plain
// longest-common-subsequence table is enough.
func unifiedDiff(path, a, b string) (diff string, added, removed int) {
	x, y := lines(a), lines(b)
	// lcs[i][j] is the length of the longest common subsequence of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type edit struct {
		kind byte // ' ', '-' or '+'
		text string
		ai   int // line index in a (for ' ' and '-') or where b's line goes
		bi   int
	}
	var script []edit
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			script = append(script, edit{' ', x[i], i, j})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			// Removals first, as git prints a changed block.
			script = append(script, edit{'-', x[i], i, j})
			i++
			removed++
		default:
			script = append(script, edit{'+', y[j], i, j})
			j++
			added++
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", path, path)
	const context = 3
	for k := 0; k < len(script); {
		if script[k].kind == ' ' {
			k++
			continue
		}
		// A hunk: from context lines before this change to context lines
		// after the last change that is at most 2*context lines further.
		start := max(0, k-context)
		end := k
		for m := k; m < len(script); m++ {
			if script[m].kind != ' ' {
				end = m
			} else if m-end > 2*context {
				break
			}
		}
		end = min(len(script), end+context+1)
		var na, nb int
		for _, e := range script[start:end] {
			if e.kind != '+' {
				na++
			}
			if e.kind != '-' {
				nb++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(script[start].ai, na), hunkRange(script[start].bi, nb))
		for _, e := range script[start:end] {
			out.WriteByte(e.kind)
			out.WriteString(e.text)
			out.WriteByte('\n')
		}
		k = end
	}
	return out.String(), added, removed
}

func hunkRange(first, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", first)
	}
	if n == 1 {
		return fmt.Sprintf("%d", first+1)
	}
	return fmt.Sprintf("%d,%d", first+1, n)
}

func lines(s string) []string {
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

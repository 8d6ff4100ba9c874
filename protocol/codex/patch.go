package codex

import (
	"fmt"
	"strings"
)

// patch is an apply_patch input: Codex's own patch format, a file
// at a time ("*** Update File: a.go", hunks of " ", "-" and "+" lines
// after "@@ context"), between "*** Begin Patch" and "*** End Patch".
type patch struct {
	files []filePatch
}

// filePatch is one file's part of a patch.
type filePatch struct {
	op     string // "add", "update" or "delete"
	path   string
	moveTo string
	hunks  []hunk
}

// hunk is a run of changed lines and the context around them.
type hunk struct {
	context string   // what followed "@@", if anything
	lines   []string // with their " ", "-" or "+"
}

// parsePatch reads an apply_patch input as far as it is a patch.
func parsePatch(input string) patch {
	var p patch
	var f *filePatch
	for line := range strings.SplitSeq(input, "\n") {
		line = strings.TrimSuffix(line, "\r")
		if name, ok := cutFile(line, "*** Add File: "); ok {
			p.files = append(p.files, filePatch{op: "add", path: name})
			f = &p.files[len(p.files)-1]
			continue
		}
		if name, ok := cutFile(line, "*** Update File: "); ok {
			p.files = append(p.files, filePatch{op: "update", path: name})
			f = &p.files[len(p.files)-1]
			continue
		}
		if name, ok := cutFile(line, "*** Delete File: "); ok {
			p.files = append(p.files, filePatch{op: "delete", path: name})
			f = nil
			continue
		}
		if f == nil {
			continue
		}
		if name, ok := cutFile(line, "*** Move to: "); ok {
			f.moveTo = name
			continue
		}
		if strings.HasPrefix(line, "***") {
			continue // End of File, End Patch
		}
		if ctx, ok := strings.CutPrefix(line, "@@"); ok {
			f.hunks = append(f.hunks, hunk{context: strings.TrimSpace(ctx)})
			continue
		}
		if line == "" || !strings.ContainsRune(" -+", rune(line[0])) {
			continue
		}
		if len(f.hunks) == 0 {
			f.hunks = append(f.hunks, hunk{})
		}
		h := &f.hunks[len(f.hunks)-1]
		h.lines = append(h.lines, line)
	}
	return p
}

// cutFile reads a file header's path.
func cutFile(line, prefix string) (string, bool) {
	name, ok := strings.CutPrefix(line, prefix)
	name = strings.TrimSpace(name)
	return name, ok && name != ""
}

// first is the first file the patch changes ("" when none).
func (p patch) first() string {
	if len(p.files) == 0 {
		return ""
	}
	return p.files[0].path
}

// unified is the patch as a unified diff, a file after another, for the
// edit's view. An apply_patch hunk finds its place by its context, not by
// line numbers, which the patch does not hold: the hunks are numbered as
// if each followed the one before from line 1, so the counts are right
// and the numbers are places in the patch. "" when nothing parsed.
func (p patch) unified() string {
	var b strings.Builder
	for _, f := range p.files {
		from, to := "a/"+f.path, "b/"+f.path
		switch f.op {
		case "add":
			from = "/dev/null"
		case "delete":
			to = "/dev/null"
		}
		if f.moveTo != "" {
			to = "b/" + f.moveTo
		}
		fmt.Fprintf(&b, "--- %s\n+++ %s\n", from, to)
		old, nw := 1, 1
		if f.op == "add" {
			old = 0
		}
		for _, h := range f.hunks {
			oc, nc := 0, 0
			for _, l := range h.lines {
				switch l[0] {
				case ' ':
					oc++
					nc++
				case '-':
					oc++
				case '+':
					nc++
				}
			}
			fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@", old, oc, nw, nc)
			if h.context != "" {
				b.WriteString(" " + h.context)
			}
			b.WriteByte('\n')
			for _, l := range h.lines {
				b.WriteString(l + "\n")
			}
			old, nw = old+oc, nw+nc
		}
	}
	return b.String()
}

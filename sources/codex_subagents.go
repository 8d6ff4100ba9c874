package sources

// This file reads a Codex rollout together with its subagents' rollouts:
// a thread the session spawns (spawn_agent) writes a rollout of its own,
// in the dated folder of the day it started
// (sessions/YYYY/MM/DD/rollout-<time>-<thread>.jsonl), and its lines fold
// into the session as the subagent run of the call that spawned it
// (protocol/codex, SubagentLine).
//
// Where a subagent's lines go: a spawn call returns at once, and the child
// works while the session goes on, so its lines go among the session's in
// the order of their times, each before the first of the session's lines
// written after it (at a tie, the session's line first), from the output
// of the call that spawned it on. A rollout read whole gives the same
// records whenever it is read. While the session is followed, a tail also
// hands out what the children wrote each time it has read the session to
// its end (Idle), so a subagent is seen as it works.
//
// A child's rollout is found by its thread id, which the spawn call's
// output names: among the rollouts of the session's day and the days after
// (a folder's listing is kept, and listed again only when a child is not
// found in it while the session is followed); its first line must say the
// session (or one of its children) spawned it.

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/klauspost/compress/zstd"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/codex"
)

// codexSession is the lineTranslator of a Codex rollout that reads its
// subagents' rollouts too.
type codexSession struct {
	tr *codex.Translator
	// path is the rollout's; root is the sessions folder its dated
	// folder is in ("" for a rollout outside one: only its own folder is
	// looked in), day that folder's date (YYYY/MM/DD).
	path, root, day string
	limit           int64
	// children are the subagents' rollouts found, in the order their
	// spawns were learnt; seen is how many of tr.Spawned() were looked
	// for, missing those not found yet.
	children []*codexChild
	seen     int
	missing  []string
	// listed are the rollout names of each folder looked in.
	listed map[string][]string
}

// codexChild is one subagent's rollout and how far it was read.
type codexChild struct {
	meta    codex.Subagent
	path    string
	off     int64
	partial []byte
	// lines are complete lines read and not yet handed out.
	lines []codexLine
	// whole says the file was read whole (a compressed rollout).
	whole bool
}

type codexLine struct {
	at   time.Time
	text []byte
}

// codexReadStep is how much of a child's rollout is read at a time.
const codexReadStep = 64 << 10

// newCodexSession is the translator of the rollout at path ("" when the
// file is not known: its subagents are not read).
func newCodexSession(path string, limit int64) lineTranslator {
	if path == "" {
		return codex.New()
	}
	s := &codexSession{tr: codex.New(), path: path, limit: limit, listed: map[string][]string{}}
	day := filepath.Dir(path)
	d, m, y := filepath.Base(day), filepath.Base(filepath.Dir(day)), filepath.Base(filepath.Dir(filepath.Dir(day)))
	if allDigits(y, 4) && allDigits(m, 2) && allDigits(d, 2) {
		s.root, s.day = filepath.Dir(filepath.Dir(filepath.Dir(day))), y+"/"+m+"/"+d
	}
	return s
}

func allDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Line translates one line of the session, after the lines its children
// wrote before it.
func (s *codexSession) Line(b []byte) []model.Record {
	var out []model.Record
	if len(s.children) > 0 || len(s.tr.Spawned()) > s.seen {
		if at := codex.LineTime(b); !at.IsZero() {
			out = s.childLines(at, false)
		}
	}
	return append(out, s.tr.Line(b)...)
}

// Idle hands out what the children have written since, looking again for
// those not found yet.
func (s *codexSession) Idle() []model.Record {
	s.find(true)
	return s.childLines(time.Time{}, true)
}

// hasChildren reports whether a child's rollout was found in what was read.
func (s *codexSession) hasChildren() bool { return len(s.children) > 0 }

// childLines translates the children's lines written before at (all of
// them, when all is set), oldest first.
func (s *codexSession) childLines(before time.Time, all bool) []model.Record {
	var out []model.Record
	for {
		s.find(false)
		var next *codexChild
		for _, c := range s.children {
			if !s.fill(c) {
				continue
			}
			if next == nil || c.lines[0].at.Before(next.lines[0].at) {
				next = c
			}
		}
		if next == nil || (!all && !next.lines[0].at.Before(before)) {
			return out
		}
		ln := next.lines[0]
		next.lines[0] = codexLine{}
		next.lines = next.lines[1:]
		out = append(out, s.tr.SubagentLine(next.meta, ln.text)...)
	}
}

// find looks for the rollouts of the threads spawned since it last
// looked; again, when relist is set, for those it has not found, listing
// the folders anew.
func (s *codexSession) find(relist bool) {
	spawned := s.tr.Spawned()
	if s.seen == len(spawned) && (!relist || len(s.missing) == 0) {
		return
	}
	s.missing = append(s.missing, spawned[s.seen:]...)
	s.seen = len(spawned)
	if relist {
		clear(s.listed)
	}
	for _, dir := range s.folders() {
		if len(s.missing) == 0 {
			return
		}
		names, ok := s.listed[dir]
		if !ok {
			names = rolloutNames(dir)
			s.listed[dir] = names
		}
		s.missing = slices.DeleteFunc(s.missing, func(id string) bool {
			return s.track(dir, names, id)
		})
	}
}

// track follows the rollout of thread id if one of names in dir is it
// and its first line says it was spawned by the session or a child of it.
func (s *codexSession) track(dir string, names []string, id string) bool {
	if len(s.children) >= maxSubagentFiles {
		return true // no more are followed
	}
	var found string
	for _, n := range names {
		switch {
		case strings.HasSuffix(n, "-"+id+".jsonl"):
			found = n
		case found == "" && strings.HasSuffix(n, "-"+id+".jsonl.zst"):
			found = n
		}
	}
	if found == "" {
		return false
	}
	p := filepath.Join(dir, found)
	if p == s.path {
		return true
	}
	meta, ok := codex.ReadSubagent(firstLine(p, s.limit))
	if !ok || meta.ID != id || !s.family(meta.Parent) {
		return false
	}
	s.children = append(s.children, &codexChild{meta: meta, path: p})
	return true
}

// family reports whether thread is the session or a child found of it.
func (s *codexSession) family(thread string) bool {
	if thread == s.tr.Thread() {
		return true
	}
	for _, c := range s.children {
		if c.meta.ID == thread {
			return true
		}
	}
	return false
}

// folders are where the session's children may be: its own folder, then
// the dated folders of the days after it.
func (s *codexSession) folders() []string {
	own := filepath.Dir(s.path)
	if s.root == "" {
		return []string{own}
	}
	dirs := []string{own}
	for _, y := range subfolders(s.root, 4) {
		for _, m := range subfolders(filepath.Join(s.root, y), 2) {
			for _, d := range subfolders(filepath.Join(s.root, y, m), 2) {
				if date := y + "/" + m + "/" + d; date > s.day {
					dirs = append(dirs, filepath.Join(s.root, y, m, d))
				}
			}
		}
	}
	return dirs
}

// subfolders are the folders in dir named by n digits, in order.
func subfolders(dir string, n int) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if e.IsDir() && allDigits(e.Name(), n) {
			out = append(out, e.Name())
		}
	}
	return out
}

// rolloutNames are the names of the rollouts in dir.
func rolloutNames(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		n := e.Name()
		if !e.IsDir() && strings.HasPrefix(n, "rollout-") && (strings.HasSuffix(n, ".jsonl") || strings.HasSuffix(n, ".jsonl.zst")) {
			out = append(out, n)
		}
	}
	return out
}

// firstLine is the first line of the (maybe compressed) file at path, at
// most limit bytes of it; nil when it has no whole first line yet.
func firstLine(path string, limit int64) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	in := unzstd(bufio.NewReaderSize(f, bufferSize))
	line, err := bufio.NewReader(io.LimitReader(in, limit+1)).ReadBytes('\n')
	if err != nil {
		return nil
	}
	return line
}

// fill reads more of c's rollout when none of its lines is at hand, and
// tells whether one is.
func (s *codexSession) fill(c *codexChild) bool {
	if len(c.lines) > 0 {
		return true
	}
	if c.whole {
		return false
	}
	if strings.HasSuffix(c.path, ".zst") {
		// A compressed rollout is one Codex no longer writes: read once.
		c.whole = true
		f, err := os.Open(c.path)
		if err != nil {
			return false
		}
		defer f.Close()
		d, err := zstd.NewReader(f, zstd.WithDecoderConcurrency(1))
		if err != nil {
			return false
		}
		defer d.Close()
		b, _ := io.ReadAll(d)
		s.split(c, append(b, '\n'))
		return len(c.lines) > 0
	}
	f, err := os.Open(c.path)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, codexReadStep)
	for len(c.lines) == 0 {
		n, err := f.ReadAt(buf, c.off)
		if n > 0 {
			c.off += int64(n)
			s.split(c, buf[:n])
		}
		if err != nil || n == 0 {
			break
		}
	}
	return len(c.lines) > 0
}

// split adds the lines b completes to c's, keeping the rest for later; a
// line over the limit is skipped, as in the session.
func (s *codexSession) split(c *codexChild, b []byte) {
	c.partial = append(c.partial, b...)
	for {
		i := bytes.IndexByte(c.partial, '\n')
		if i < 0 {
			break
		}
		if text := bytes.TrimSpace(c.partial[:i]); len(text) > 0 && int64(len(text)) <= s.limit {
			c.lines = append(c.lines, codexLine{at: codex.LineTime(text), text: bytes.Clone(text)})
		}
		c.partial = c.partial[i+1:]
	}
	if int64(len(c.partial)) > s.limit {
		c.partial = nil
	}
	c.partial = slices.Clip(c.partial)
}

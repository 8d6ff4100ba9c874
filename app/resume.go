package app

// This file keeps, for each big log a screen showed, where that screen
// left off: the fold of everything it had read and the byte it had read
// to. The next screen of the same log takes up from there, so opening a
// 126 MB log a second time shows its end at once instead of after reading
// it all again; what the fold shed is read back from the file, as always.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/sources"
)

// resumeKeep is how many logs' resume points are kept; the least recently
// written go first.
const resumeKeep = 8

// resumeMaxFloor is what a resume point may hold of a small log: it may
// hold a quarter of a log, or this much for one under 16 MiB; one bigger
// than that is not kept.
const resumeMaxFloor = 4 << 20

// keepResume is what a resume point keeps of each thread: the newest
// finished items and the content of the newest steps, as much as a screen
// keeps of a thread it follows, with the skeleton of every step the screen
// kept (its newest 2,048) and a sketch of each older one, and the
// tombstones the trim before made. What goes is read back from the log,
// as on the screen that kept it.
var keepResume = fold.Keep{Items: 2000, Content: 256, Skeletons: fold.All, Tombstones: fold.TombstonesRecent}

// stepSkeleton is about what a step exports to without its content: the
// 126 MB log's resume point was 12 MB with all its 18,406 steps' skeletons
// (256 of them in full) and 2,000 items; keeping 2,048 skeletons, 5 MB.
const stepSkeleton = 600

// exportGuess is about what ts exports to, from what its folds hold: the
// text of their items (twice: as items and as the protocol's messages),
// the content of their steps, and a skeleton's worth for every step. It
// reads what is there and copies nothing, so a fold too big to keep is let
// go before it is exported.
func exportGuess(ts *fold.Threads) int64 {
	var n int64
	for _, th := range ts.List() {
		for _, it := range th.Fold.Items() {
			n += 2*int64(len(it.Text)) + int64(len(it.Data))
		}
		for _, s := range th.Fold.Steps() {
			n += stepSkeleton + int64(len(s.Args)+len(s.ArgsJSON)+len(s.Result)+len(s.ResultJSON))
			for _, im := range s.Screenshots {
				n += int64(len(im.Data)) * 4 / 3 // base64
			}
			for _, d := range s.Diffs {
				n += int64(len(d.NewText))
				if d.OldText != nil {
					n += int64(len(*d.OldText))
				}
			}
		}
	}
	return n
}

// resumeVersion is the format of a resume point; one of another version
// is not used.
const resumeVersion = 1

// resumePoint is what a screen of a log left off with.
type resumePoint struct {
	Version int `json:"version"`
	// Path is the log's absolute path; ToolKinds the digest of the
	// --tool-kinds file its fold used ("" for none).
	Path      string `json:"path"`
	ToolKinds string `json:"toolKinds"`
	// Build names the program that kept it (buildID): another build may
	// fold otherwise, so its resume points are not taken up.
	Build string `json:"build"`
	// Offset and Seq say how far the fold had read: the file's bytes
	// before Offset, records 1 to Seq. Head and Mark are the file's first
	// bytes and those just before Offset as they were.
	Offset int64  `json:"offset"`
	Seq    uint64 `json:"seq"`
	Head   []byte `json:"head"`
	Mark   []byte `json:"mark"`
	// Threads is the fold of those records.
	Threads fold.ThreadsSnapshot `json:"threads"`
}

// resumeStore is the folder resume points are kept in (the user's cache
// folder, agentwatch/resume).
type resumeStore struct{ dir string }

// newResumeStore is the store in cacheDir ("" for none: nothing is kept).
func newResumeStore(cacheDir string) *resumeStore {
	if cacheDir == "" {
		return nil
	}
	return &resumeStore{dir: filepath.Join(cacheDir, "resume")}
}

// file is where the resume point of the log at path is kept.
func (s *resumeStore) file(path string) string {
	sum := sha256.Sum256([]byte(path))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:16])+".json")
}

// buildID names this build of the program: its module version, Go
// version and commit, and whether the checkout had changes.
func buildID() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	id := info.Main.Version + " " + info.GoVersion
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" || s.Key == "vcs.modified" {
			id += " " + s.Value
		}
	}
	return id
}

// toolKindsDigest names the --tool-kinds file's content, so that a fold
// made with other tool categories is not taken up.
func toolKindsDigest(opts *Options) string {
	if opts.ToolKinds == "" {
		return ""
	}
	b, err := os.ReadFile(opts.ToolKinds)
	if err != nil {
		return "unreadable"
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// has says whether a resume point of the log at path is kept.
func (s *resumeStore) has(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	_, err = os.Stat(s.file(abs))
	return err == nil
}

// load returns the threads and the tail start a screen of the log at path
// takes up from, when a resume point of it is kept and the file still
// begins with what was folded; ok false otherwise (take says why).
func (s *resumeStore) load(path string, opts *Options, fo fold.Options) (ts *fold.Threads, from *sources.TailStart, ok bool) {
	ts, from, err := s.take(path, opts, fo)
	return ts, from, err == nil
}

// errResumeStale says that no resume point of this log is kept, or one
// kept for another build, version, --tool-kinds file or content of the
// log: nothing is wrong, and the log is read from its start.
var errResumeStale = errors.New("no resume point for this log as it is")

// take is load with the reason a point is not taken up: errResumeStale
// when none fits (nothing to tell), else the fault of a point no save of
// this log could have written (damaged, or forged): unreadable, its
// offset not just past a record, its size, record numbers or steps beyond
// what the log allows. The log is then read from its start, as if
// nothing had been kept.
func (s *resumeStore) take(path string, opts *Options, fo fold.Options) (*fold.Threads, *sources.TailStart, error) {
	if s == nil {
		return nil, nil, errResumeStale
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, errResumeStale
	}
	log, err := os.Stat(abs)
	if err != nil {
		return nil, nil, errResumeStale
	}
	kept, err := os.Stat(s.file(abs))
	if err != nil {
		return nil, nil, errResumeStale
	}
	if kept.Size() > resumeLimit(log.Size()) {
		return nil, nil, fmt.Errorf("%d bytes, more than a save of this log writes", kept.Size())
	}
	b, err := os.ReadFile(s.file(abs))
	if err != nil {
		return nil, nil, errResumeStale
	}
	var p resumePoint
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, nil, errors.New("not a resume point")
	}
	if p.Version != resumeVersion || p.Path != abs || p.ToolKinds != toolKindsDigest(opts) || p.Build != buildID() {
		return nil, nil, errResumeStale
	}
	now, err := sources.TailStartAt(abs, p.Offset, p.Seq)
	if p.Offset <= 0 || errors.Is(err, sources.ErrNotAfterRecord) || err == nil && !numbered(p) {
		return nil, nil, fmt.Errorf("byte %d, record %d: no place a save of this log stops at", p.Offset, p.Seq)
	}
	if err != nil || !bytes.Equal(now.Head, p.Head) || !bytes.Equal(now.Mark, p.Mark) {
		return nil, nil, errResumeStale // the log was rewritten
	}
	snap, one := asSource(p.Threads, path)
	if !one {
		return nil, nil, errors.New("threads of several logs")
	}
	ts, err := fold.RestoreThreads(snap, fo)
	if err != nil {
		return nil, nil, err
	}
	if err := plausible(ts, p); err != nil {
		return nil, nil, err
	}
	return ts, &now, nil
}

// minStepBytes is the fewest bytes of a log a step is made from: a tool
// call's id and name, in JSON.
const minStepBytes = 8

// plausible tells whether ts, restored from p, can be a fold of the
// log's bytes before p.Offset: it holds no more records than p.Seq, no
// more steps or items than those bytes can make, and a sketch of every
// step it forgot. A screen draws a place for each step a fold made, so a
// fold that claims a trillion forgotten steps would hold the screen for
// ever.
func plausible(ts *fold.Threads, p resumePoint) error {
	var records uint64
	for _, th := range ts.List() {
		if th.Records < 0 {
			return fmt.Errorf("thread %q: %d records", th.ID, th.Records)
		}
		records += uint64(th.Records)
		f := th.Fold
		if steps := int64(f.StepCount()); steps < 0 || steps > p.Offset/minStepBytes {
			return fmt.Errorf("thread %q: %d steps from %d bytes", th.ID, steps, p.Offset)
		}
		if base := f.StepBase(); base > 0 && f.ForgottenStep(base-1) == nil {
			return fmt.Errorf("thread %q: %d forgotten steps without their sketches", th.ID, base)
		}
		if items := f.ItemsMade(); items > uint64(p.Offset) {
			return fmt.Errorf("thread %q: %d items from %d bytes", th.ID, items, p.Offset)
		}
	}
	if records > p.Seq {
		return fmt.Errorf("%d records in its threads, %d read", records, p.Seq)
	}
	return nil
}

// numbered tells whether p's record numbers can be those of a fold of
// the file's bytes before p.Offset: every record takes a byte at least,
// and no thread holds a record numbered past p.Seq, which the tail
// numbers on from.
func numbered(p resumePoint) bool {
	if p.Seq > uint64(p.Offset) {
		return false
	}
	for _, th := range p.Threads.Threads {
		if th.LastSeq > p.Seq {
			return false
		}
	}
	return true
}

// resumeLimit is the most a resume point of a log of size bytes holds:
// a quarter of the log, or resumeMaxFloor for a smaller one.
func resumeLimit(size int64) int64 { return max(size/4, resumeMaxFloor) }

// asSource names the one source of snap's threads as path names the log
// now: the screen that kept them may have named it otherwise ("run.jsonl"
// from the log's folder, "/tmp/run.jsonl" from elsewhere), and what
// arrives now must fold on into the same threads. ok is false when snap
// has threads of more than one source.
func asSource(snap fold.ThreadsSnapshot, path string) (fold.ThreadsSnapshot, bool) {
	was := ""
	same := func(name string) bool {
		if was == "" {
			was = name
		}
		return name == was
	}
	for i := range snap.Threads {
		if !same(snap.Threads[i].Source) {
			return snap, false
		}
		snap.Threads[i].Source = path
	}
	for i := range snap.Sources {
		if !same(snap.Sources[i].Source) {
			return snap, false
		}
		snap.Sources[i].Source = path
	}
	return snap, true
}

// save keeps where a screen of the log at path left off: its threads,
// which folded the file's bytes before end, records 1 to seq, shed to
// what a screen keeps (ts is changed: it is the save's own copy), under
// a's --tool-kinds. A log smaller than a.resumeMinBytes is not kept, nor a fold bigger than a
// quarter of what it folded (loading it would gain little). The file is
// written whole or not at all, readable by the user alone.
func (s *resumeStore) save(path string, ts *fold.Threads, end int64, seq uint64, a *App) error {
	opts := a.Options
	if s == nil || end < a.resumeMinBytes {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	start, err := sources.TailStartAt(abs, end, seq)
	if errors.Is(err, sources.ErrNotAfterRecord) {
		// No tail could take the log up there (inside an SSE frame, say):
		// nothing to keep, and a point kept earlier stays.
		return nil
	}
	if err != nil {
		return err
	}
	for _, th := range ts.List() {
		th.Fold.Trim(keepResume)
	}
	limit := resumeLimit(end)
	if exportGuess(ts) > limit {
		// Too big to be worth keeping, and to be written out at all: a
		// fold of 100,000 tool calls or of one 50 MB message took the
		// whole machine while it was exported, and a screen that quit
		// meanwhile did not end within a second. A point kept earlier
		// stays: the log only grew since (else it is refused when read),
		// and folding on from it is still shorter than from the start.
		return nil
	}
	snap, err := ts.Export()
	if err != nil {
		return err
	}
	p := resumePoint{Version: resumeVersion, Path: abs, ToolKinds: toolKindsDigest(opts), Build: buildID(),
		Offset: end, Seq: seq, Head: start.Head, Mark: start.Mark, Threads: snap}
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".resume-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after a rename, nothing is there
	w := &cappedWriter{w: bufio.NewWriterSize(tmp, 256<<10), left: limit}
	err = json.MarshalWrite(w, &p)
	if err == nil {
		err = w.w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, errResumeTooBig) {
		return nil // as for a guess too big: a point kept earlier stays
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), s.file(abs)); err != nil {
		return err
	}
	s.prune()
	return nil
}

// prune removes all but the resumeKeep newest resume points, and what
// saves cut short by the end of their program left over an hour ago.
func (s *resumeStore) prune() {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return
	}
	type kept struct {
		name string
		at   time.Time
	}
	var all []kept
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			continue
		}
		switch {
		case filepath.Ext(e.Name()) == ".json":
			all = append(all, kept{e.Name(), info.ModTime()})
		case strings.HasPrefix(e.Name(), ".resume-") && time.Since(info.ModTime()) > time.Hour:
			os.Remove(filepath.Join(s.dir, e.Name()))
		}
	}
	if len(all) <= resumeKeep {
		return
	}
	slices.SortFunc(all, func(a, b kept) int { return b.at.Compare(a.at) })
	for _, k := range all[resumeKeep:] {
		if err := os.Remove(filepath.Join(s.dir, k.name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
	}
}

// errResumeTooBig stops writing a resume point past its share of the log.
var errResumeTooBig = errors.New("resume point too big")

// cappedWriter writes at most left bytes to w, then fails.
type cappedWriter struct {
	w    *bufio.Writer
	left int64
}

func (c *cappedWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > c.left {
		return 0, errResumeTooBig
	}
	c.left -= int64(len(p))
	return c.w.Write(p)
}

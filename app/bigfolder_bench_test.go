package app

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/claudegen"
	"github.com/agentwatch/agentwatch/sources"
)

// bigClaude is the generated configuration folder of claudegen.Default,
// written once per machine under the temporary folder (it is some
// hundreds of MB, and writing it takes longer than reading it).
var bigClaude struct {
	once     sync.Once
	dir      string
	sessions []claudegen.Session
	err      error
}

// bigClaudeFolder returns the generated folder and its sessions.
func bigClaudeFolder(tb testing.TB) (string, []claudegen.Session) {
	tb.Helper()
	bigClaude.once.Do(func() {
		o := claudegen.Default
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("agentwatch-claudegen-%d-%d-%d-%d", o.Sessions, o.Projects, o.Big, o.Seed))
		if _, err := os.Stat(filepath.Join(dir, "done")); err != nil {
			os.RemoveAll(dir)
			if _, err := claudegen.Write(dir, o); err != nil {
				bigClaude.err = err
				return
			}
			os.WriteFile(filepath.Join(dir, "done"), nil, 0o644)
		}
		bigClaude.dir = dir
		bigClaude.sessions = claudegen.Sessions(dir, o)
	})
	if bigClaude.err != nil {
		tb.Fatal(bigClaude.err)
	}
	return bigClaude.dir, bigClaude.sessions
}

// readBytes is what this process has read so far through read calls
// (/proc/self/io's rchar), -1 where that is not known.
func readBytes() int64 {
	f, err := os.Open("/proc/self/io")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "rchar: "); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	return -1
}

// folderList is what listing a folder of sessions took: until its first
// rows, until every session had its row, and the bytes read meanwhile.
type folderList struct {
	first, complete time.Duration
	read            int64
	rows            int
}

// listClaudeFolder lists the sessions of the Claude Code configuration
// folder dir as agentwatch claude --all does for its thread list: it
// identifies the folder and follows it as the screen does, folding what
// records come, until every session has a row (from its glance, or from
// its fold). rows are the titles by file.
func listClaudeFolder(tb testing.TB, a *App, dir string) (folderList, map[string]string) {
	var out folderList
	read0 := readBytes()
	start := time.Now()
	src, err := a.ClaudeSessions(dir, true)
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	fo := a.folderOptions(src)
	if src.glance {
		glanceOptions(ctx, &fo)
	}
	batches, events := sources.FollowFolder(ctx, src.followed(), fo)
	if src.glance {
		batches = src.projects.noting(ctx, batches)
	}
	go func() {
		for range events {
		}
	}()
	ts := fold.NewThreads(fold.Options{})
	rows := map[string]string{}
	done := map[string]bool{}
	for b := range batches {
		if b.Glance != nil {
			rows[b.Source] = b.Glance.Title
			done[b.Source] = true
		}
		ts.Apply(b.Source, b.Records...)
		if out.first == 0 && (ts.Len() > 0 || len(rows) > 0) {
			out.first = time.Since(start)
		}
		if b.Size > 0 && b.Read >= b.Size {
			done[b.Source] = true
		}
		if len(done) == len(src.Files) {
			break
		}
	}
	for _, th := range ts.List() {
		rows[th.Source] = th.Title()
	}
	out.rows = len(rows)
	out.complete = time.Since(start)
	out.read = readBytes() - read0
	cancel()
	for range batches {
	}
	return out, rows
}

// BenchmarkClaudeFolderList times the thread list of a generated Claude
// Code folder of 5,000 sessions across 50 projects (claudegen.Default,
// about 0.6 GB): the time to its first rows, to every session's row, and
// the bytes read. Glanced is the screen's way (heads and tails, a session
// folded when opened); folded, every session tailed and folded, as the
// headless views still do.
func BenchmarkClaudeFolderList(b *testing.B) {
	for _, glance := range []bool{true, false} {
		name := "glanced"
		if !glance {
			name = "folded"
		}
		b.Run(name, func(b *testing.B) { benchFolderList(b, glance) })
	}
}

func benchFolderList(b *testing.B, glance bool) {
	dir, _ := bigClaudeFolder(b)
	b.ReportAllocs()
	var l folderList
	var first, complete []time.Duration
	for b.Loop() {
		a := New(&Options{})
		a.glanceAlways = glance
		l, _ = listClaudeFolder(b, a, dir)
		first, complete = append(first, l.first), append(complete, l.complete)
	}
	// The medians of the runs: on a shared machine one run can be slowed
	// by others' work.
	b.ReportMetric(float64(median(first).Milliseconds()), "ms-first-rows")
	b.ReportMetric(float64(median(complete).Milliseconds()), "ms-complete")
	b.ReportMetric(float64(l.read)/(1<<20), "MiB-read")
	b.ReportMetric(float64(l.rows), "rows")
	runtime.GC()
}

// median is the middle of ds (the upper of the two middles).
func median(ds []time.Duration) time.Duration {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	return ds[len(ds)/2]
}

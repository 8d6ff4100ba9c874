package sources

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agentwatch/agentwatch/model"
)

// FolderOptions tune FollowFolder.
type FolderOptions struct {
	// Poll is how often the folder is listed again, to find files no change
	// event announced; where there are no change events (a network
	// filesystem, a glob whose folder part is a pattern too) every file is
	// also looked at this often. 0 means one second.
	Poll time.Duration
	// MaxEventBytes is the largest event accepted in any file, as in
	// TailOptions; 0 means DefaultMaxEventBytes.
	MaxEventBytes int64
	// Whole, when set, is asked about each file before it is tailed: when
	// it returns ok, the file is read whole by it (a messages file, an ACP
	// recording), its records are sent as one batch, and it is not
	// followed as it grows.
	Whole func(path string) (recs []model.Record, ok bool)
	// Known are the verdicts of a caller that looked at the folder's files
	// already (app, identifying the folder; Look.Verdict), by path as the
	// folder or pattern names them. A file there when FollowFolder starts
	// is judged by its verdict, so its head is not read again; a file that
	// comes later, or that is looked at again (an empty file written to),
	// is read.
	Known map[string]Verdict
	// OpenHead opens a file to read its first bytes, to judge whether it
	// is a log (os.Open when nil; a test's counter).
	OpenHead func(path string) (io.ReadCloser, error)
	// Ignore, when set, is asked about each file found before anything
	// else: a file it returns true for is passed over without a word, as
	// if it were not there (a Claude Code session's own folder of
	// subagents, beside its session file).
	Ignore func(path string) bool
	// Also are more globs whose matches join the pattern's, when
	// FollowFolder follows a glob: files of one kind kept in folders of
	// different depths (Codex's dated sessions and its archived ones).
	Also []string
	// Glance, when set, makes the folder list its files rather than fold
	// them: a file is not tailed but glanced at (its first
	// GlanceHeadBytes and last GlanceTailBytes, whole lines only, handed
	// to Glance) when it is found and again whenever it changes, and what
	// Glance returns is sent as a batch without records (model.Batch's
	// Glance). A file whose glance is not ok, and a file Open names, is
	// tailed from its start as without Glance. No file's head is read to
	// judge it: every non-empty file is taken. The tail is read further
	// back when it holds no whole line or Glance says it is Untimed.
	// head and tail are a reused buffer: Glance keeps nothing of them.
	Glance func(path string, head, tail []byte) (model.Glance, bool)
	// Open names glanced files to fold from now on (by path as the folder
	// or pattern names them): each is tailed from its start, and its
	// records follow its glances.
	Open <-chan string
	// MaxOpen bounds how many of its files the folder's tails hold open at
	// once (folder_open.go); 0 means half of what the process may open,
	// at most 4,096.
	MaxOpen int
}

// FolderEvent is news about one file of a followed folder: exactly one of
// Added, Skipped and Err is set, or else Event is a change in the file's
// tail (Event's zero value, TailWaiting, is only news when the others are
// unset).
type FolderEvent struct {
	// Path is the file, as the folder or pattern names it (the folder or
	// pattern itself for Err).
	Path string
	// Added: the file starts being followed. It comes before any of the
	// file's batches and other events.
	Added bool
	// Skipped says why the file is not followed (NotALog's reason); each
	// file is reported once for as long as it is there.
	Skipped string
	// Err says the folder could not be listed; listing is tried again every
	// Poll, and the error is reported again only once it changes.
	Err error
	// Event is a change in the state of the file's tail.
	Event TailEvent
	// Unopened, with Event TailUnopened, is why the file could not be
	// opened.
	Unopened error
}

// folderTailPoll is how often each file of a folder is looked at while the
// folder's change events arrive: they wake the file's tail, so its own poll
// is only a backstop for events lost. At 10 s a folder of 1,000 idle logs
// costs about 400 system calls a second (a read, two stats and a read of the
// file's head per file), against 4,000 if every file were looked at every
// second.
const folderTailPoll = 10 * time.Second

// folderRoom is how many batches a followed folder's channel holds. Its
// files' tails hold the batches they wait to send anyway, one each; room
// lets a reader that gathers what is ready (the screen takes up to 256
// batches a frame) take a burst of many files' batches at once, and
// those after it (otlp.Live) keep the same room. Without it the screen of
// a folder of 10,000 logs took one batch a frame, and 301 s to list them.
const folderRoom = 256

// folderNotify turns fsnotify on; tests turn it off to try the poll alone.
var folderNotify = true

// FollowFolder follows every event log in a folder, each as Tail follows
// one file, with one fsnotify watcher for the whole folder. pattern is a
// folder (every file directly in it) or a glob in filepath.Match syntax
// ("runs/*.jsonl"); each file found either way is followed when NotALog
// says it is a log (or, for a file there at the start, what opts.Known
// says of it), and reported once as Skipped when not.
//
// The files there are started in name order; a file created later is
// followed as soon as a change event (or the listing every Poll) shows it.
// An empty file is not decided until something is written to it (an agent
// creates its log, then writes).
//
// The watcher's events wake the tail of the file they name, so each tail
// looks at its file by itself only every 10 s. Where no events come (no
// watcher could be made, a glob whose folder part is a pattern, or a file
// appeared that no event announced, as on a network filesystem) every file
// is looked at every Poll instead.
//
// Each file's records come as Batches with Source set to the file's path,
// numbered from 1 per file and in order per file; batches of different
// files interleave. Read both channels until they close: a file's tail is
// started once its Added event is received. Cancel ctx to stop; every tail
// stops and both channels close.
func FollowFolder(ctx context.Context, pattern string, opts FolderOptions) (<-chan model.Batch, <-chan FolderEvent) {
	if opts.Poll <= 0 {
		opts.Poll = time.Second
	}
	f := newFolder(pattern, opts)
	out := make(chan model.Batch, folderRoom)
	events := make(chan FolderEvent)
	go f.run(ctx, out, events)
	return out, events
}

// folderFileState is what a folder does with one of its files.
type folderFileState int

const (
	fileFollowed folderFileState = iota
	filePending                  // empty so far: decided when written
	fileSkipped                  // reported as Skipped
)

// folderFile is a file a folder knows of.
type folderFile struct {
	state folderFileState
	wake  chan struct{} // a followed file's tail's wake
	// open, for a file glanced at and not folded yet, is closed to fold it.
	open chan struct{}
}

// folderNews is a FolderEvent waiting to be sent, and for an Added event the
// tail that starts once it is.
type folderNews struct {
	ev   FolderEvent
	tail *tailer
	// glance starts the file's glances rather than its tail; open is the
	// file's folderFile.open.
	glance     bool
	wake, open chan struct{}
}

// folder is the state of a FollowFolder, owned by its run goroutine.
type folder struct {
	pattern string // the glob, "" for a folder
	dir     string // the folder listed (a glob's folder part), cleaned
	opts    FolderOptions

	w        *fsnotify.Watcher // nil when the folder cannot be watched
	watching bool              // w has dir's watch in place
	// deaf: a file appeared that no change event announced, as on a network
	// filesystem whose remote writes inotify never hears of; from then on
	// every file is looked at every Poll.
	deaf bool
	// unheard are the files the last listing found and no event named yet;
	// still unheard at the next listing, they make the folder deaf.
	unheard map[string]bool

	files   map[string]*folderFile // by path
	queue   []folderNews
	listErr string // the listing error last reported
	// known are opts.Known not used yet, until the first listing is done:
	// what a caller knew holds only for the files there at the start.
	known map[string]Verdict
	// glancing holds a token for each glance under way (glanceAtOnce).
	glancing chan struct{}
	// budget bounds the files the tails hold open (opts.MaxOpen).
	budget *openBudget
}

func newFolder(pattern string, opts FolderOptions) *folder {
	pattern = filepath.Clean(pattern)
	f := &folder{dir: pattern, opts: opts, files: map[string]*folderFile{}, unheard: map[string]bool{},
		known: make(map[string]Verdict, len(opts.Known)), glancing: make(chan struct{}, glanceAtOnce),
		budget: newOpenBudget(opts.MaxOpen)}
	for p, v := range opts.Known {
		f.known[filepath.Clean(p)] = v
	}
	if hasGlobMeta(pattern) {
		if _, err := os.Lstat(pattern); err != nil {
			f.pattern, f.dir = pattern, filepath.Dir(pattern)
		}
	}
	return f
}

// hasGlobMeta reports whether s has a pattern character (as filepath.Glob
// sees them: a backslash escapes, except on Windows).
func hasGlobMeta(s string) bool {
	if runtime.GOOS == "windows" {
		return strings.ContainsAny(s, `*?[`)
	}
	return strings.ContainsAny(s, `*?[\`)
}

// watch sets up the folder's watch; a glob whose folder part is a pattern
// has none, and is followed by its poll alone.
func (f *folder) watch() {
	if !folderNotify || hasGlobMeta(f.dir) {
		return
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return // out of inotify instances: the poll still follows everything
	}
	f.w = w
	f.watching = w.Add(f.dir) == nil
}

// heard reports whether change events are trusted to tell of every change.
func (f *folder) heard() bool { return f.watching && !f.deaf }

func (f *folder) run(ctx context.Context, out chan<- model.Batch, events chan<- FolderEvent) {
	var tails sync.WaitGroup
	defer func() {
		tails.Wait()
		close(out)
		close(events)
	}()
	f.watch()
	var notify <-chan fsnotify.Event
	var werrs <-chan error
	if f.w != nil {
		defer f.w.Close()
		notify, werrs = f.w.Events, f.w.Errors
	}
	f.scan(false)
	f.known = nil
	tick := time.NewTicker(f.opts.Poll)
	defer tick.Stop()
	for {
		var send chan<- FolderEvent
		var ev FolderEvent
		if len(f.queue) > 0 {
			send, ev = events, f.queue[0].ev
		}
		select {
		case <-ctx.Done():
			return
		case send <- ev:
			n := f.queue[0]
			t := n.tail
			f.queue[0] = folderNews{}
			f.queue = f.queue[1:]
			if n.glance && ctx.Err() == nil {
				tails.Add(1)
				go func() {
					defer tails.Done()
					f.glanceFile(ctx, ev.Path, n.wake, n.open, out, events)
				}()
			}
			if t != nil && ctx.Err() == nil {
				tails.Add(1)
				go func() {
					defer tails.Done()
					if f.opts.Whole != nil {
						if recs, ok := f.opts.Whole(ev.Path); ok {
							select {
							case out <- model.Batch{Source: ev.Path, Records: recs}:
							case <-ctx.Done():
							}
							return
						}
					}
					tailFile(ctx, ev.Path, t, out, events)
				}()
			}
		case e, ok := <-notify:
			if !ok {
				notify, f.watching = nil, false
				continue
			}
			f.notice(e)
		case err, ok := <-werrs:
			if !ok {
				werrs = nil
				continue
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// Events were lost: look at everything, as on a first scan.
				f.wakeAll()
				f.scan(false)
				f.recheckPending()
			}
		case p, ok := <-f.opts.Open:
			if !ok {
				f.opts.Open = nil
				continue
			}
			if ff := f.files[filepath.Clean(p)]; ff != nil && ff.open != nil {
				close(ff.open)
				ff.open = nil
			}
		case <-tick.C:
			f.tick()
		}
	}
}

// tailFile runs the tail of a folder's file, its batches and events marked
// with the file's path.
func tailFile(ctx context.Context, path string, t *tailer, out chan<- model.Batch, events chan<- FolderEvent) {
	runTail(ctx, t, out, events,
		func(recs []model.Record, restart bool, p tailProgress) model.Batch {
			return model.Batch{Source: path, Records: recs, Restart: restart, Read: p.read, Size: p.size}
		},
		func(e TailEvent) FolderEvent {
			ev := FolderEvent{Path: path, Event: e}
			if e == TailUnopened {
				ev.Unopened = t.unopened
			}
			return ev
		}, true)
}

// notice handles a change event from the folder's watcher.
func (f *folder) notice(e fsnotify.Event) {
	path := filepath.Clean(e.Name)
	if path == f.dir {
		if e.Has(fsnotify.Remove) || e.Has(fsnotify.Rename) {
			f.watching = false // the watch went with the folder; tick puts it back
		}
		return
	}
	if filepath.Dir(path) != f.dir {
		return
	}
	delete(f.unheard, path)
	ff := f.files[path]
	switch {
	case ff == nil:
		// A Write without a Create: the Create was lost or came before the watch.
		if e.Has(fsnotify.Create) || e.Has(fsnotify.Write) {
			f.consider(path)
		}
	case ff.state == fileFollowed:
		wake(ff.wake)
	case ff.state == filePending:
		f.consider(path)
	case ff.state == fileSkipped:
		if e.Has(fsnotify.Remove) || e.Has(fsnotify.Rename) {
			delete(f.files, path) // a new file of that name is looked at afresh
		}
	}
}

// tick is the poll: it lists the folder again and, when change events are
// not heard, looks at every file.
func (f *folder) tick() {
	if f.w != nil && !f.watching && f.w.Add(f.dir) == nil {
		f.watching = true
		f.scan(false) // what came before the watch was put back is not unheard
	} else {
		f.scan(f.heard())
	}
	if f.heard() {
		return
	}
	f.wakeAll()
	f.recheckPending()
}

// recheckPending looks again at the files that were empty.
func (f *folder) recheckPending() {
	for path, ff := range f.files {
		if ff.state == filePending {
			f.consider(path)
		}
	}
}

// scan lists the folder and considers the files it does not know of, in
// name order. With checkHeard, a file found that no change event named by
// the next scan makes the folder deaf.
func (f *folder) scan(checkHeard bool) {
	paths, err := f.list()
	if err != nil {
		if msg := err.Error(); msg != f.listErr {
			f.listErr = msg
			name := f.dir
			if f.pattern != "" {
				name = f.pattern
			}
			f.queue = append(f.queue, folderNews{ev: FolderEvent{Path: name, Err: err}})
		}
		return
	}
	f.listErr = ""
	if checkHeard && len(f.unheard) > 0 {
		f.deaf = true
	}
	clear(f.unheard)
	for _, p := range paths {
		if f.files[p] != nil {
			continue
		}
		if checkHeard {
			f.unheard[p] = true
		}
		f.consider(p)
	}
	// Files no longer there that were not followed are forgotten, so that a
	// new file of the same name is looked at afresh.
	for p, ff := range f.files {
		if ff.state != fileFollowed {
			if _, found := slices.BinarySearch(paths, p); !found {
				delete(f.files, p)
			}
		}
	}
}

// list returns the files of the folder or the glob's matches, in name order.
func (f *folder) list() ([]string, error) {
	if f.pattern != "" {
		var paths []string
		for _, g := range f.globs() {
			found, err := filepath.Glob(g)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", g, err)
			}
			paths = append(paths, found...)
		}
		slices.Sort(paths)
		return slices.Compact(paths), nil
	}
	// Names only: a folder's entries are not looked at one by one until new.
	d, err := os.Open(f.dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = filepath.Join(f.dir, n)
	}
	slices.Sort(paths)
	return paths, nil
}

// globs are the globs the folder is listed by: its pattern, then Also.
func (f *folder) globs() []string {
	return append([]string{f.pattern}, f.opts.Also...)
}

// consider decides what to do with a file not followed yet.
func (f *folder) consider(path string) {
	if f.pattern != "" && !slices.ContainsFunc(f.globs(), func(g string) bool {
		ok, _ := filepath.Match(g, path)
		return ok
	}) {
		return
	}
	if f.opts.Ignore != nil && f.opts.Ignore(path) {
		return
	}
	if f.opts.Glance != nil {
		switch st, err := os.Stat(path); {
		case err != nil:
			delete(f.files, path)
		case st.Mode().IsRegular() && st.Size() == 0:
			f.files[path] = &folderFile{state: filePending}
		case st.Mode().IsRegular():
			f.glanceAt(path)
		}
		return
	}
	v, why := f.judge(path)
	switch v {
	case sniffLog:
		f.follow(path)
	case sniffBlank:
		f.files[path] = &folderFile{state: filePending}
	case sniffGone:
		delete(f.files, path)
	case sniffNot:
		if ff := f.files[path]; ff == nil || ff.state != fileSkipped {
			f.files[path] = &folderFile{state: fileSkipped}
			f.queue = append(f.queue, folderNews{ev: FolderEvent{Path: path, Skipped: why}})
		}
	}
}

// judge decides whether path is a log: by what the caller knew of it when
// FollowFolder started, once, else by a look at its head.
func (f *folder) judge(path string) (sniffVerdict, string) {
	if k, ok := f.known[path]; ok {
		delete(f.known, path) // a file looked at again has changed since
		return k.verdict, k.why
	}
	return sniff(path, f.opts.OpenHead)
}

// follow queues the file's Added event; its tail starts once that is sent.
func (f *folder) follow(path string) {
	ff := &folderFile{state: fileFollowed, wake: make(chan struct{}, 1)}
	f.files[path] = ff
	t := newTailer(path, TailOptions{
		Poll:          max(folderTailPoll, f.opts.Poll),
		MaxEventBytes: f.opts.MaxEventBytes,
		Wake:          ff.wake,
	})
	t.budget = f.budget
	f.queue = append(f.queue, folderNews{ev: FolderEvent{Path: path, Added: true}, tail: t})
}

// glanceAt queues the file's Added event; its glances start once that is
// sent.
func (f *folder) glanceAt(path string) {
	ff := &folderFile{state: fileFollowed, wake: make(chan struct{}, 1), open: make(chan struct{})}
	f.files[path] = ff
	f.queue = append(f.queue, folderNews{ev: FolderEvent{Path: path, Added: true}, glance: true, wake: ff.wake, open: ff.open})
}

// wakeAll wakes every followed file's tail.
func (f *folder) wakeAll() {
	for _, ff := range f.files {
		if ff.state == fileFollowed {
			wake(ff.wake)
		}
	}
}

// wake tells a tail to look at its file, unless it is told already.
func wake(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

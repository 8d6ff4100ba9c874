package fold

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/agentwatch/agentwatch/model"
)

// threadsSnapshotVersion is the format of exported ThreadsSnapshots.
const threadsSnapshotVersion = 1

// ThreadsSnapshot is a Threads' whole state as data that outlives the
// process (JSON): a later run restores it with RestoreThreads and folds a
// big log on from where an earlier run left off, instead of from its start.
// Threads are referred to by their index in Threads (-1 for none), so the
// snapshot holds no pointers; sources and requests are sorted, so the same
// state always exports to the same bytes. Later folding never changes a
// snapshot taken.
type ThreadsSnapshot struct {
	// Version is the snapshot format; RestoreThreads refuses one it does
	// not know.
	Version int `json:"version"`
	// Threads are the set's threads in List order.
	Threads []ThreadSnapshot `json:"threads"`
	// Sources are the routing state of every source the set has seen, by
	// name.
	Sources []RouteSnapshot `json:"sources"`
	// Last is the thread of the last record applied (Threads.Last).
	Last int `json:"last"`
}

// ThreadSnapshot is one thread of a ThreadsSnapshot: Thread's fields, its
// title as the thread list shows it, and its fold's snapshot.
type ThreadSnapshot struct {
	Source   string    `json:"source"`
	ID       string    `json:"id,omitempty"`
	Records  int       `json:"records"`
	FirstSeq uint64    `json:"firstSeq"`
	LastSeq  uint64    `json:"lastSeq"`
	First    time.Time `json:"first,omitzero"`
	Last     time.Time `json:"last,omitzero"`
	// Title and TitleFound are what Title has read so far: kept, not read
	// again from the restored fold, because a shed fold may no longer hold
	// the first user message.
	Title      string `json:"title,omitempty"`
	TitleFound bool   `json:"titleFound,omitempty"`
	// Named and NamedRank are the title the thread's events gave it and
	// how much it counts (see Thread.Title).
	Named     string `json:"named,omitempty"`
	NamedRank int    `json:"namedRank,omitempty"`
	// Fold is the thread's fold (Fold.Export).
	Fold model.Snapshot `json:"fold"`
}

// RouteSnapshot is the routing state of one source in a ThreadsSnapshot:
// which thread's run is open, where records outside a run go, the thread
// that took records before any was named, and the ACP requests in flight.
// Threads are indexes into ThreadsSnapshot.Threads, -1 for none.
type RouteSnapshot struct {
	Source  string `json:"source"`
	Open    int    `json:"open"`
	OpenRun string `json:"openRun,omitempty"`
	Last    int    `json:"last"`
	Unnamed int    `json:"unnamed"`
	// Requests are the ACP requests in flight, sorted by key.
	Requests []RequestSnapshot `json:"requests,omitempty"`
}

// RequestSnapshot is one ACP request in flight: its key (direction and id,
// as the fold matches responses) and the index of the thread it went to.
type RequestSnapshot struct {
	Key    string `json:"key"`
	Thread int    `json:"thread"`
}

// Export returns the set's whole state as an independent snapshot. It
// changes nothing in the set (a title not yet read stays unread).
func (t *Threads) Export() (ThreadsSnapshot, error) {
	snap := ThreadsSnapshot{Version: threadsSnapshotVersion, Threads: make([]ThreadSnapshot, len(t.list)),
		Sources: make([]RouteSnapshot, 0, len(t.sources)), Last: t.Index(t.last)}
	for i, th := range t.list {
		f, err := th.Fold.Export()
		if err != nil {
			return ThreadsSnapshot{}, fmt.Errorf("export thread %d (%s of %s): %w", i, th.Key(), th.Source, err)
		}
		snap.Threads[i] = ThreadSnapshot{Source: th.Source, ID: th.ID, Records: th.Records, FirstSeq: th.FirstSeq, LastSeq: th.LastSeq,
			First: th.First, Last: th.Last, Title: th.title, TitleFound: th.titleFound, Named: th.named, NamedRank: th.namedRank, Fold: f}
	}
	for _, name := range slices.Sorted(maps.Keys(t.sources)) {
		src := t.sources[name]
		r := RouteSnapshot{Source: name, Open: t.Index(src.open), OpenRun: src.openRun, Last: t.Index(src.last), Unnamed: t.Index(src.unnamed)}
		for _, k := range slices.Sorted(maps.Keys(src.requests)) {
			r.Requests = append(r.Requests, RequestSnapshot{Key: k, Thread: t.Index(src.requests[k])})
		}
		snap.Sources = append(snap.Sources, r)
	}
	return snap, nil
}

// RestoreThreads returns a set in the snapshot's state whose folds use opts
// (which should be those of the set that exported it); folding on from it
// gives what the original would have. A snapshot that does not hold
// together (an unknown version, a thread index out of range, two threads
// of one source with the same id, a thread routed from another source, a
// fold that does not restore) is refused with an error: it is read from a
// file that may be damaged.
func RestoreThreads(snap ThreadsSnapshot, opts Options) (*Threads, error) {
	if snap.Version != threadsSnapshotVersion {
		return nil, fmt.Errorf("restore threads: snapshot version %d, want %d", snap.Version, threadsSnapshotVersion)
	}
	t := NewThreads(opts)
	t.list = make([]*Thread, len(snap.Threads))
	for i, s := range snap.Threads {
		if s.Records < 0 {
			return nil, fmt.Errorf("restore threads: thread %d has %d records", i, s.Records)
		}
		f := New(opts)
		if err := f.Restore(s.Fold); err != nil {
			return nil, fmt.Errorf("restore threads: thread %d (%q of %s): %w", i, s.ID, s.Source, err)
		}
		th := &Thread{Source: s.Source, ID: s.ID, Fold: f, Records: s.Records, FirstSeq: s.FirstSeq, LastSeq: s.LastSeq,
			First: s.First, Last: s.Last, title: s.Title, titleFound: s.TitleFound, named: s.Named, namedRank: s.NamedRank, order: i}
		t.list[i] = th
		// byKey holds exactly the named threads: add and name put them
		// there, Forget takes them out with their thread.
		if th.ID != "" {
			k := threadKey{th.Source, th.ID}
			if _, dup := t.byKey[k]; dup {
				return nil, fmt.Errorf("restore threads: thread %d: source %s has two threads %q", i, th.Source, th.ID)
			}
			t.byKey[k] = th
		}
	}
	// at is the thread at index i, which must belong to source (any
	// source when source is ""): a route only ever holds its own threads.
	at := func(i int, source, what string) (*Thread, error) {
		if i == -1 {
			return nil, nil
		}
		if i < 0 || i >= len(t.list) {
			return nil, fmt.Errorf("restore threads: %s is thread %d of %d", what, i, len(t.list))
		}
		if th := t.list[i]; source == "" || th.Source == source {
			return th, nil
		}
		return nil, fmt.Errorf("restore threads: %s is thread %d, of source %s", what, i, t.list[i].Source)
	}
	for _, r := range snap.Sources {
		if _, dup := t.sources[r.Source]; dup {
			return nil, fmt.Errorf("restore threads: source %s is there twice", r.Source)
		}
		src := &sourceRoute{name: r.Source, openRun: r.OpenRun, requests: make(map[string]*Thread, len(r.Requests))}
		var err error
		if src.open, err = at(r.Open, r.Source, "the open run of source "+r.Source); err != nil {
			return nil, err
		}
		if src.last, err = at(r.Last, r.Source, "the latest thread of source "+r.Source); err != nil {
			return nil, err
		}
		if src.unnamed, err = at(r.Unnamed, r.Source, "the unnamed thread of source "+r.Source); err != nil {
			return nil, err
		}
		for _, q := range r.Requests {
			what := fmt.Sprintf("request %q of source %s", q.Key, r.Source)
			if _, dup := src.requests[q.Key]; dup {
				return nil, fmt.Errorf("restore threads: %s is there twice", what)
			}
			// A response goes to its request's thread, so it must be one.
			th, err := at(q.Thread, r.Source, what)
			if err == nil && th == nil {
				err = fmt.Errorf("restore threads: %s has no thread", what)
			}
			if err != nil {
				return nil, err
			}
			src.requests[q.Key] = th
		}
		t.sources[r.Source] = src
	}
	for i, th := range t.list {
		if t.sources[th.Source] == nil {
			return nil, fmt.Errorf("restore threads: thread %d is of source %s, which has no routing state", i, th.Source)
		}
	}
	var err error
	if t.last, err = at(snap.Last, "", "the last thread"); err != nil {
		return nil, err
	}
	return t, nil
}

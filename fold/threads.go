package fold

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Threads folds the records of any number of sources, each thread by its
// own Fold: a file may hold many threads, and a folder holds many files.
//
// The rule that assigns a record to a thread, per source: a record that
// names its thread (model.Record.Thread) goes there; otherwise RUN_STARTED and
// RUN_FINISHED name their thread; the events between belong to the run that
// is open, and events outside a run to the thread of the latest run; events
// before the first run belong to the first thread named. An ACP record
// belongs to the session it names, a response to the session of its request.
// A RUN_STARTED of another thread while a run is still open is a diagnostic
// (RuleThreadOverlap) naming both threads, and the new run starts.
//
// Threads are told apart by source and thread id, so two files that use the
// same thread id stay two threads. Like Fold, Threads is pure and not safe
// for concurrent use.
type Threads struct {
	opts    Options
	list    []*Thread // in order of first appearance
	byKey   map[threadKey]*Thread
	sources map[string]*sourceRoute
	// last is the thread of the last record applied.
	last *Thread
}

// Thread is one thread of one source and the fold that shows it.
type Thread struct {
	// Source names where the thread's records come from (a file path, "-").
	Source string
	// ID is the thread id ("" until a run or session names it, and for a
	// source that never names one).
	ID string
	// Fold folds the thread's records (and only those).
	Fold *Fold
	// Records counts the records the thread was given.
	Records int
	// FirstSeq and LastSeq are the source's numbers of the thread's first
	// and last record; First and Last their times (zero when unknown).
	FirstSeq, LastSeq uint64
	First, Last       time.Time

	title      string
	titleFound bool
	// named is the title the thread's events gave it (a CUSTOM "title"
	// event, as protocol/claude makes of Claude Code's titles), and
	// namedRank how much it counts: a title the user set (custom-title)
	// beats one made for them (ai-title, summary), and a later one an
	// earlier one of its rank.
	named     string
	namedRank int
	order     int // index in Threads.list
	// cp is the fold's checkpoint from the set's last Checkpoint, kept
	// while the thread gets no records (threads_checkpoint.go).
	cp *Checkpoint
}

// Key names the thread for people and flags: its id, or "(no thread id)".
func (t *Thread) Key() string {
	if t.ID == "" {
		return "(no thread id)"
	}
	return t.ID
}

// Title is what the thread list calls the thread: the title its events
// gave it (a CUSTOM "title" event: the user's own before one made for
// them), else the title an ACP agent gave its session, else its first
// user message, on one line ("" while it has none of these).
func (t *Thread) Title() string {
	if t.named != "" {
		return t.named
	}
	if s := t.Fold.Session().Title; s != "" {
		return oneLine(s)
	}
	if !t.titleFound {
		if s, ok := firstUserText(t.Fold); ok {
			t.title, t.titleFound = s, true
		}
	}
	return t.title
}

// Name is the title the thread was given, by its user or its agent (a
// CUSTOM "title" event, an ACP session's title): Title without its
// fallback to the first user message; "" when it was given none.
func (t *Thread) Name() string {
	if t.named != "" {
		return t.named
	}
	return oneLine(t.Fold.Session().Title)
}

type threadKey struct{ source, id string }

// sourceRoute is the routing state of one source.
type sourceRoute struct {
	name string
	// open is the thread whose AG-UI run is open (nil when none is).
	open    *Thread
	openRun string
	// last is where records outside a run go: the latest run's thread, or
	// the source's unnamed first thread.
	last *Thread
	// unnamed is the thread that took records before any was named.
	unnamed *Thread
	// requests maps an ACP request in flight to the thread it went to.
	requests map[string]*Thread
}

// NewThreads returns an empty set of threads whose folds use opts.
func NewThreads(opts Options) *Threads {
	return &Threads{opts: opts, byKey: map[threadKey]*Thread{}, sources: map[string]*sourceRoute{}}
}

// ThreadUpdate is what one Apply changed in one thread.
type ThreadUpdate struct {
	Thread *Thread
	Update Update
	// New is set when the thread appeared in this Apply.
	New bool
}

// Apply folds records of one source, each into its thread's fold. It
// returns one ThreadUpdate per thread that got records, in the order the
// threads first appear in recs.
func (t *Threads) Apply(source string, recs ...model.Record) []ThreadUpdate {
	src := t.source(source)
	var out []ThreadUpdate
	var (
		// group is the records of one thread in a row: a part of recs,
		// not a copy (copying took a quarter of a whole log's fold).
		group []model.Record
		from  int
		th    *Thread
		note  *Diagnostic
	)
	flush := func() {
		if len(group) == 0 {
			return
		}
		u := th.Fold.apply(group, note)
		th.noteTitles(group)
		th.Records += len(group)
		th.cp = nil
		t.last = th
		if th.FirstSeq == 0 {
			th.FirstSeq, th.First = group[0].Seq, group[0].At
		}
		th.LastSeq = group[len(group)-1].Seq
		// The latest record with a time, not the last record: a Claude
		// Code session ends with lines of no time (its summary), and a
		// thread whose last activity is lost sorts as if it had none.
		for i := len(group) - 1; i >= 0; i-- {
			if at := group[i].At; !at.IsZero() {
				th.Last = at
				if th.First.IsZero() {
					th.First = at
				}
				break
			}
		}
		if th.ID == "" && th.Fold.ThreadID() != "" {
			t.name(src, th, th.Fold.ThreadID())
		}
		// Few threads change per Apply: a scan beats a map here.
		i := slices.IndexFunc(out, func(x ThreadUpdate) bool { return x.Thread == th })
		if i >= 0 {
			out[i].Update = mergeUpdates(out[i].Update, u)
		} else {
			out = append(out, ThreadUpdate{Thread: th, Update: u, New: th.Records == len(group)})
		}
		group, note = nil, nil
	}
	for i := range recs {
		to, n := t.route(src, &recs[i])
		if to != th || n != nil {
			group = recs[from:i]
			flush()
			th, note, from = to, n, i
		}
	}
	group = recs[from:]
	flush()
	return out
}

// Route assigns rec to its thread without folding it, for splitting a log
// by thread; a set is used either to Apply or to Route, not both.
func (t *Threads) Route(source string, rec *model.Record) *Thread {
	th, _ := t.route(t.source(source), rec)
	th.Records++
	if th.FirstSeq == 0 {
		th.FirstSeq, th.First = rec.Seq, rec.At
	}
	th.LastSeq = rec.Seq
	if !rec.At.IsZero() {
		th.Last = rec.At
		if th.First.IsZero() {
			th.First = rec.At
		}
	}
	return th
}

// Forget drops every thread of source and what it knew of the source's
// runs, for a source that started over (a file truncated or replaced):
// its records from now on fold into new threads. It returns the threads
// dropped.
func (t *Threads) Forget(source string) []*Thread {
	var gone []*Thread
	kept := make([]*Thread, 0, len(t.list))
	for _, th := range t.list {
		if th.Source == source {
			gone = append(gone, th)
			delete(t.byKey, threadKey{source, th.ID})
			continue
		}
		th.order = len(kept)
		kept = append(kept, th)
	}
	t.list = kept
	delete(t.sources, source)
	if t.last != nil && t.last.Source == source {
		t.last = nil
	}
	return gone
}

// Trim trims every thread's fold to k (Fold.Trim) and returns what it
// dropped in all. A thread's title is read before its first user message
// can go, so the thread list keeps showing it.
func (t *Threads) Trim(k Keep) Trimmed {
	var all Trimmed
	for _, th := range t.list {
		th.Title()
		all.add(th.Fold.Trim(k))
	}
	return all
}

// Last is the thread of the last record applied (nil before any).
func (t *Threads) Last() *Thread { return t.last }

// List returns the threads in the order they first appeared (the set's
// own slice; read only).
func (t *Threads) List() []*Thread { return t.list }

// Len is how many threads there are.
func (t *Threads) Len() int { return len(t.list) }

// Find returns the threads whose id is id, from any source.
func (t *Threads) Find(id string) []*Thread {
	var out []*Thread
	for _, th := range t.list {
		if th.ID == id {
			out = append(out, th)
		}
	}
	return out
}

// Index returns th's place in List (-1 when it is not in the set).
func (t *Threads) Index(th *Thread) int {
	if th == nil || th.order >= len(t.list) || t.list[th.order] != th {
		return -1
	}
	return th.order
}

// source returns the routing state of a source, new when it is.
func (t *Threads) source(name string) *sourceRoute {
	src := t.sources[name]
	if src == nil {
		src = &sourceRoute{name: name, requests: map[string]*Thread{}}
		t.sources[name] = src
	}
	return src
}

// route picks the thread a record belongs to, and a diagnostic to report
// with it when it starts a run over another thread's open run.
func (t *Threads) route(src *sourceRoute, rec *model.Record) (*Thread, *Diagnostic) {
	if rec.Thread != "" {
		// The source knows the thread (see model.Record.Thread): its runs
		// may overlap other threads' runs without being a problem.
		th := t.thread(src, rec.Thread)
		src.last = th
		return th, nil
	}
	if rec.Proto == model.ProtoACP {
		return t.routeACP(src, rec), nil
	}
	switch ev := rec.Event.(type) {
	case *agui.RunStarted:
		th := t.thread(src, ev.ThreadID)
		var note *Diagnostic
		if src.open != nil && src.open != th {
			note = &Diagnostic{Seq: rec.Seq, Type: ev.EventType(), Rule: RuleThreadOverlap, Message: say(
				"run '%s' of thread '%s' started while run '%s' of thread '%s' was still open; the events that follow belong to thread '%s'",
				ev.RunID, ev.ThreadID, src.openRun, src.open.ID, ev.ThreadID)}
		}
		src.open, src.openRun, src.last = th, ev.RunID, th
		return th, note
	case *agui.RunFinished:
		th := src.open
		if named := t.byKey[threadKey{src.name, ev.ThreadID}]; named != nil {
			th = named
		}
		if th == nil {
			th = t.thread(src, ev.ThreadID)
		}
		if th == src.open {
			src.open, src.openRun = nil, ""
		}
		src.last = th
		return th, nil
	case *agui.RunError:
		th := t.current(src)
		src.open, src.openRun = nil, ""
		return th, nil
	}
	return t.current(src), nil
}

// current is the thread of the open run, else of the latest, else the
// source's unnamed first thread.
func (t *Threads) current(src *sourceRoute) *Thread {
	switch {
	case src.open != nil:
		return src.open
	case src.last != nil:
		return src.last
	}
	src.last = t.unnamed(src)
	return src.last
}

// routeACP sends an ACP record to the thread of the session it names, a
// response to its request's thread, and anything else to the latest
// session's thread. A session becomes a thread when the client names it
// (session/prompt, session/load…) or a session/new answer does; a message
// from the agent for a session nobody opened goes to the current thread,
// whose fold reports it. A session/new while the current thread already
// has its session starts a new thread, which its answer names.
func (t *Threads) routeACP(src *sourceRoute, rec *model.Record) *Thread {
	var th *Thread
	switch ev := rec.Event.(type) {
	case *acp.Response:
		for _, k := range responseKeys(ev) {
			if to, ok := src.requests[k]; ok {
				delete(src.requests, k)
				return to
			}
		}
	case acp.Request:
		req := ev.Req()
		switch id := requestSession(ev); {
		case req.Method == acp.MethodSessionNew && t.current(src).ID != "":
			th = t.add(src, "")
			src.unnamed = th
		case id != "":
			th = t.session(src, id, req.Dir == acp.Send)
		}
		if th == nil {
			th = t.current(src)
		}
		src.requests[pendingKey(req.Dir, req.ID)] = th
		src.last = th
		return th
	case acp.Update:
		th = t.session(src, ev.Session(), false)
	case *acp.Cancel:
		th = t.session(src, ev.SessionID, ev.Dir == acp.Send)
	}
	if th == nil {
		return t.current(src)
	}
	src.last = th
	return th
}

// session is the thread of ACP session id: a known one, one the client
// names (open), or the source's first thread while it has no session
// yet; nil when the session is unknown and the agent named it.
func (t *Threads) session(src *sourceRoute, id string, open bool) *Thread {
	if id == "" {
		return nil
	}
	if th := t.byKey[threadKey{src.name, id}]; th != nil {
		return th
	}
	if cur := t.current(src); open || (cur.ID == "" && cur.Fold.ThreadID() == "") {
		return t.thread(src, id)
	}
	return nil
}

// responseKeys are the request keys a response may answer, as the fold
// looks them up.
func responseKeys(r *acp.Response) []string {
	if r.Dir != "" {
		return []string{pendingKey(r.Dir.Opposite(), r.ID), pendingKey("", r.ID)}
	}
	return []string{pendingKey(acp.Send, r.ID), pendingKey(acp.Recv, r.ID), pendingKey("", r.ID)}
}

// requestSession is the session a request names ("" for none).
func requestSession(r acp.Request) string {
	switch e := r.(type) {
	case *acp.LoadSession:
		return e.SessionID
	case *acp.Prompt:
		return e.SessionID
	case *acp.SetMode:
		return e.SessionID
	case *acp.RequestPermission:
		return e.SessionID
	case *acp.FSRequest:
		return e.SessionID
	case *acp.TerminalRequest:
		return e.SessionID
	}
	return ""
}

// thread returns the source's thread id, taking over the unnamed first
// thread when it has not been named yet.
func (t *Threads) thread(src *sourceRoute, id string) *Thread {
	if th := t.byKey[threadKey{src.name, id}]; th != nil {
		return th
	}
	if u := src.unnamed; u != nil && u.ID == "" && u.Fold.ThreadID() == "" {
		t.name(src, u, id)
		return u
	}
	return t.add(src, id)
}

// unnamed returns the thread that takes records before any thread is named.
func (t *Threads) unnamed(src *sourceRoute) *Thread {
	if src.unnamed == nil {
		src.unnamed = t.add(src, "")
	}
	return src.unnamed
}

func (t *Threads) add(src *sourceRoute, id string) *Thread {
	th := &Thread{Source: src.name, ID: id, Fold: New(t.opts), order: len(t.list)}
	t.list = append(t.list, th)
	if id != "" {
		t.byKey[threadKey{src.name, id}] = th
	}
	return th
}

// name gives the unnamed thread th its id, unless the source already has a
// thread of that id (then th stays apart under its empty id).
func (t *Threads) name(src *sourceRoute, th *Thread, id string) {
	k := threadKey{src.name, id}
	if _, taken := t.byKey[k]; taken || id == "" {
		return
	}
	th.ID = id
	t.byKey[k] = th
}

// mergeUpdates joins two updates of one fold.
func mergeUpdates(a, b Update) Update {
	a.Items = slices.Compact(slices.Sorted(slices.Values(append(a.Items, b.Items...))))
	a.Steps = slices.Compact(slices.Sorted(slices.Values(append(a.Steps, b.Steps...))))
	a.Diagnostics = append(a.Diagnostics, b.Diagnostics...)
	return a
}

// firstUserText is the text of the fold's first user message, on one line.
func firstUserText(f *Fold) (string, bool) {
	for _, it := range f.Items() {
		if it.Kind == model.ItemMessage && it.Role == "user" && it.Status.Done() {
			return oneLine(it.Text), true
		}
	}
	return "", false
}

// oneLine joins a text's words with single spaces.
func oneLine(s string) string {
	out := make([]byte, 0, min(len(s), 256))
	space := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' {
			space = len(out) > 0
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, c)
	}
	return string(out)
}

// titleRanks is how much a title event counts, by its "source": a title
// the user set beats one made for them; an unnamed source counts least.
var titleRanks = map[string]int{"custom-title": 3, "ai-title": 2, "summary": 2}

// noteTitles keeps the title the thread's CUSTOM "title" events give it
// ({"title": "...", "source": "custom-title"|"ai-title"|"summary"}): a
// later title of a rank at least the kept one's replaces it.
func (t *Thread) noteTitles(recs []model.Record) {
	for i := range recs {
		c, ok := recs[i].Event.(*agui.Custom)
		if !ok || c.Name != "title" {
			continue
		}
		var v struct {
			Title  string `json:"title"`
			Source string `json:"source"`
		}
		if json.Unmarshal(c.Value, &v) != nil {
			continue
		}
		title := oneLine(v.Title)
		rank := max(titleRanks[v.Source], 1)
		if title != "" && rank >= t.namedRank {
			t.named, t.namedRank = title, rank
		}
	}
}

// Package fold turns AG-UI records into what agentwatch shows: the
// conversation's messages and state exactly as the reference client builds
// them, and on top the display model — items with streaming state, the
// agent computer's steps, runs and their tree — plus a diagnostic for every
// event that breaks a protocol rule.
//
// The fold is pure: no I/O, no clock, no goroutines. Its whole state exports
// to JSON and restores, and folding is deterministic, which its tests state
// as laws (docs/ARCHITECTURE.md).
package fold

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// snapshotVersion is the format of exported snapshots.
const snapshotVersion = 1

// Options configure a fold.
type Options struct {
	// ToolKinds maps tool names to categories and locations (`--tool-kinds`).
	ToolKinds ToolKinds
}

// state is everything a fold knows; it is what Export writes.
type state struct {
	ThreadID string `json:"threadId,omitempty"`
	// Applied counts records applied; LastSeq is the last record's Seq.
	Applied  uint64 `json:"applied"`
	LastSeq  uint64 `json:"lastSeq"`
	NextItem uint64 `json:"nextItem"`
	// Evicted counts the items Trim shed; ShedSteps the steps whose
	// content it shed, ShedMessages the messages (shed.go).
	Evicted      uint64 `json:"evicted,omitempty"`
	ShedSteps    uint64 `json:"shedSteps,omitzero"`
	ShedMessages uint64 `json:"shedMessages,omitzero"`
	// Forgets counts the Trims that forgot tombstones and ForgetMark is
	// NextItem at the last one; ForgotSteps and ForgotDiagnostics count the
	// steps and diagnostics Trim forgot (forget.go).
	Forgets           uint64 `json:"forgets,omitzero"`
	ForgetMark        uint64 `json:"forgetMark,omitzero"`
	ForgotSteps       uint64 `json:"forgotSteps,omitzero"`
	ForgotDiagnostics uint64 `json:"forgotDiagnostics,omitzero"`

	Legacy  legacyState  `json:"legacy"`
	Chunks  chunkState   `json:"chunks"`
	Verify  verifyState  `json:"verify"`
	Reduce  reduceState  `json:"reduce"`
	Display displayState `json:"display"`
	// ACP is the ACP side of the fold (acp_apply.go).
	ACP acpState `json:"acp,omitzero"`

	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
	Warnings    []Warning    `json:"warnings,omitempty"`
}

// Fold folds the records of one thread. It is not safe for concurrent use.
type Fold struct {
	opts     Options
	st       state
	resuming bool
	restored bool
	scratch  []agui.Event // reused by chunk expansion
	ctx      ctx          // reused by Apply
	// sheds counts the Trims that dropped something, so a
	// checkpoint kept for a quiet thread knows it is stale (Threads).
	sheds uint64
}

// New returns an empty fold.
func New(opts Options) *Fold {
	return &Fold{opts: opts, st: state{Reduce: newReduceState()}}
}

// Update is what one Apply changed: the items and steps to redraw, and the
// diagnostics it added.
type Update struct {
	Items       []uint64
	Steps       []int
	Diagnostics []Diagnostic
}

// Empty reports whether nothing changed.
func (u Update) Empty() bool {
	return len(u.Items) == 0 && len(u.Steps) == 0 && len(u.Diagnostics) == 0
}

// Apply folds records in order. Every record is applied or reported: a record
// that breaks a rule becomes a diagnostic and the fold goes on. The error is
// non-nil only for records of another thread (wrapping ErrCorrelation; they
// are skipped and reported too) or when called during Resume (ErrResuming).
func (f *Fold) Apply(recs ...model.Record) (Update, error) {
	if f.resuming {
		return Update{}, ErrResuming
	}
	u, errs := f.applyNoted(recs, nil)
	return u, errors.Join(errs...)
}

// apply is Apply for Threads, which has already routed recs to this fold:
// note, when set, is a diagnostic reported before the first record.
// Records of another thread are still refused (and reported), so they
// need no error here.
func (f *Fold) apply(recs []model.Record, note *Diagnostic) Update {
	if f.resuming {
		return Update{}
	}
	u, _ := f.applyNoted(recs, note)
	return u
}

func (f *Fold) applyNoted(recs []model.Record, note *Diagnostic) (Update, []error) {
	c := &f.ctx
	c.changed, c.steps = c.changed[:0], c.steps[:0]
	nd := len(f.st.Diagnostics)
	var errs []error
	for i := range recs {
		if note != nil && i == 0 {
			c.seq, c.at = recs[0].Seq, recs[0].At
			f.diagnose(c, note.Type, note.Rule, note.Message)
		}
		if err := f.applyOne(c, &recs[i]); err != nil {
			errs = append(errs, err)
		}
	}
	u := Update{Diagnostics: slices.Clone(f.st.Diagnostics[nd:])}
	u.Items = slices.Compact(slices.Sorted(slices.Values(c.changed)))
	u.Steps = slices.Compact(slices.Sorted(slices.Values(c.steps)))
	return u, errs
}

func (f *Fold) diagnose(c *ctx, typ string, rule Rule, msg string) {
	d := Diagnostic{Seq: c.seq, Type: typ, Rule: rule, Message: msg}
	f.st.Diagnostics = append(f.st.Diagnostics, d)
	f.st.Display.add(c, &f.st, &model.Item{ID: typ, Kind: model.ItemDiagnostic, Status: model.StatusFailed, Name: string(rule), Text: msg})
}

func (f *Fold) warn(c *ctx, typ, msg string) {
	f.st.Warnings = append(f.st.Warnings, Warning{Seq: c.seq, Type: typ, Message: msg})
}

func (f *Fold) applyOne(c *ctx, rec *model.Record) error {
	c.seq, c.at = rec.Seq, rec.At
	f.st.Applied++
	f.st.LastSeq = rec.Seq
	if rec.Proto == model.ProtoACP {
		return f.applyACP(c, rec)
	}
	switch ev := rec.Event.(type) {
	case nil:
		f.diagnose(c, "", RuleUnreadable, "record has no event")
		return nil
	case *model.Unreadable:
		f.diagnose(c, "", RuleUnreadable, ev.Reason)
		return nil
	case *agui.Malformed:
		rule := RuleMalformed
		if errors.Is(ev.Err, agui.ErrTooDeep) {
			rule = RuleTooDeep
		}
		f.diagnose(c, ev.Type, rule, say("%s: %v", ev.Type, ev.Err))
		return nil
	case *agui.Unknown:
		f.warn(c, ev.Type, say("unknown event type '%s' kept as is", ev.Type))
		f.st.Display.add(c, &f.st, &model.Item{ID: ev.Type, Kind: model.ItemUnknown, Status: model.StatusCompleted, Name: ev.Type, Data: limitData(rec.Raw)})
		return nil
	}
	ev, ok := rec.Event.(agui.Event)
	if !ok {
		f.diagnose(c, rec.Event.EventType(), RuleUnreadable, say("not an AG-UI event (%s)", rec.Event.EventType()))
		return nil
	}
	if err := f.correlate(c, ev); err != nil {
		return err
	}
	ev, note := f.st.Legacy.translate(rec.Seq, ev)
	if note != "" {
		f.warn(c, rec.Event.EventType(), note)
	}
	expanded, err := f.st.Chunks.expand(ev, f.scratch[:0])
	f.scratch = expanded[:0]
	if err != nil {
		f.diagnose(c, ev.EventType(), RuleChunk, err.Error())
		return nil
	}
	for _, e := range expanded {
		if v := f.st.Verify.firstEvent(e); v != nil {
			f.diagnose(c, rec.Event.EventType(), v.rule, v.msg)
		}
		if v := f.st.Verify.check(e); v != nil {
			// Named by the record's own type (a chunk or THINKING_* event may
			// expand into others); the message names the expanded event.
			f.diagnose(c, rec.Event.EventType(), v.rule, v.msg)
			continue
		}
		if v := f.st.Reduce.apply(e, func(format string, args ...any) { f.warn(c, e.EventType(), say(format, args...)) }); v != nil {
			f.diagnose(c, rec.Event.EventType(), v.rule, v.msg)
			continue
		}
		f.st.Display.apply(c, &f.st, e, f.opts.ToolKinds)
	}
	return nil
}

// correlate holds the fold to one thread: the first run's threadId.
func (f *Fold) correlate(c *ctx, ev agui.Event) error {
	var thread string
	switch e := ev.(type) {
	case *agui.RunStarted:
		thread = e.ThreadID
	case *agui.RunFinished:
		thread = e.ThreadID
	default:
		return nil
	}
	if f.st.ThreadID == "" {
		f.st.ThreadID = thread
		return nil
	}
	if thread == f.st.ThreadID {
		return nil
	}
	msg := say("event is for thread '%s' but this fold shows thread '%s'; it was not applied", thread, f.st.ThreadID)
	f.diagnose(c, ev.EventType(), RuleCorrelation, msg)
	return fmt.Errorf("record #%d: %w: %s", c.seq, ErrCorrelation, msg)
}

// Export returns the fold's whole state as an independent snapshot.
func (f *Fold) Export() (model.Snapshot, error) {
	f.flush()
	b, err := agui.MarshalValue(&f.st)
	if err != nil {
		return model.Snapshot{}, fmt.Errorf("export fold: %w", err)
	}
	return model.Snapshot{Version: snapshotVersion, State: b}, nil
}

// flush brings what a reader sees up to date; every read of the fold
// goes through it. Streamed text and state are current after every record,
// so there is nothing to do now: it stays the one place for such a step.
func (f *Fold) flush() {}

// Fresh reports whether the fold has applied nothing and restored nothing.
func (f *Fold) Fresh() bool { return f.st.Applied == 0 && !f.restored && !f.resuming }

// Restore loads a snapshot into a fresh fold; folding on from there gives
// what folding every record would have.
func (f *Fold) Restore(snap model.Snapshot) error {
	if !f.Fresh() {
		return ErrNotFresh
	}
	st, err := decodeState(snap)
	if err != nil {
		return err
	}
	f.st = st
	f.restored = true
	return nil
}

func decodeState(snap model.Snapshot) (state, error) {
	if snap.Version != snapshotVersion {
		return state{}, fmt.Errorf("restore fold: snapshot version %d, want %d", snap.Version, snapshotVersion)
	}
	var st state
	if err := agui.UnmarshalValue(snap.State, &st); err != nil {
		return state{}, fmt.Errorf("restore fold: %w", err)
	}
	if err := st.Display.Sketches.check(st.Display.StepBase); err != nil {
		return state{}, fmt.Errorf("restore fold: %w", err)
	}
	st.Reduce.reindex()
	st.Display.reindex()
	return st, nil
}

// History is a source of records for Resume, read to its end (io.EOF).
type History interface {
	Next() (model.Record, error)
}

// Resume folds a whole history into a fresh fold as one step: it stages into
// a copy and commits only when the history was read to its end. On an error
// or a cancelled ctx the fold is exactly as before and Resume may be retried
// with a reopened history. It publishes nothing: the next Apply returns only
// what new records change.
func (f *Fold) Resume(cx context.Context, h History) error {
	if f.resuming {
		return ErrResuming
	}
	if !f.Fresh() {
		return ErrNotFresh
	}
	f.resuming = true
	defer func() { f.resuming = false }()
	stage := &Fold{opts: f.opts, st: state{Reduce: newReduceState()}}
	for {
		if err := cx.Err(); err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		rec, err := h.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("resume: %w", err)
		}
		c := &ctx{}
		if err := stage.applyOne(c, &rec); err != nil && !errors.Is(err, ErrCorrelation) {
			return fmt.Errorf("resume: %w", err)
		}
	}
	f.st = stage.st
	f.restored = true
	return nil
}

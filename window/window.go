// Package window is what a view keeps of the threads it shows, and how it
// reads back what it let go: the one place between the fold and the screen
// where memory is decided.
//
// A thread that grows past twice what the view keeps is trimmed to it (its
// oldest finished items and the content of its older steps let go, the
// skeletons of the oldest steps reduced to shared sketches); the rows the
// screen draws are the items kept, the items read back, and a gap row
// wherever items are missing; a step whose content went, or a gap the
// person goes to, is read back through a Reader (a file's index, a replay's
// timeline), off the screen's goroutine, and comes back as a message. The
// screen keeps UI state only: it asks the window for rows and steps.
package window

import (
	"time"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// Reader reads back what a view let go of one source.
type Reader interface {
	// Items reads items of a thread back, as w asks.
	Items(w ItemsWanted) (ItemsRead, error)
	// Step reads step index of thread back whole, content included; the
	// tool call's id is "" for a step the view forgot (whatever step has
	// that index is read back).
	Step(thread string, index int, toolCallID string) (*model.Step, error)
}

// ItemsWanted is what a window asks a Reader for: the items From ≤ Seq <
// To of a thread, or, when Step is not -1, about Max items around the
// tool-call item of step Step.
type ItemsWanted struct {
	// Source and Thread name the thread (fold.Thread's Source and ID).
	Source, Thread string
	// From and To are the items wanted by Seq, when Step is -1.
	From, To uint64
	// AfterKind and AfterID are the kind and id of item To, which the
	// view shows: a file without it is not the one the view folded ("" when
	// the view does not know item To).
	AfterKind model.ItemKind
	AfterID   string
	// Step, when not -1, is the step whose tool-call item is wanted with
	// the items around it, and ToolCallID its tool call's id, which the
	// file must have too.
	Step       int
	ToolCallID string
	// Max is how many items are wanted at most.
	Max int
}

// ItemsRead is what a read back brings: the items, and the steps their
// tool-call rows show, without their content (a row draws a step's label,
// status and result mark; the panel reads a selected step back whole).
type ItemsRead struct {
	Items []*model.Item
	Steps []*model.Step
}

// ScreenKeep is what the screen keeps of a thread: about 1.5 MB of
// skeletons, and a few thousand items, against some 800 bytes a step
// without end; the tombstones of the trim before, so what an agent sends
// again about a dropped item folds as it would have. A thread is trimmed to
// its Keep once it holds twice Keep.Items items.
var ScreenKeep = fold.Keep{Items: 2000, Content: 256, Skeletons: 2048, Tombstones: fold.TombstonesRecent}

// Options shape a window.
type Options struct {
	// Keep is what a thread keeps (ScreenKeep when zero).
	Keep fold.Keep
	// Reader is how a source's shed items and steps are read back, nil
	// when the source is not a file (what was shed is gone). It is asked
	// once per source: for a file, when its first batch is read (a
	// FileReader is then told what the view folds of it).
	Reader func(source string) Reader
	// Recording is the file a live agent's session is recorded to
	// (--record; "" for none): what the view lets go of the session is
	// read back from it, as the session's thread there.
	Recording string
	// Checkpoint is given, on the screen's goroutine, a checkpoint of the
	// threads each time a file source has been read to its end and folded
	// (at most every checkpointEvery): the threads fold the file's bytes
	// before end, records 1 to seq. It may keep it and must return at
	// once. Nil keeps nothing.
	Checkpoint func(source string, cp *fold.ThreadsCheckpoint, end int64, seq uint64)
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Window is what one view keeps and reads back. It is used on the view's
// goroutine alone; its reads run off it, and their results come back as
// ItemsReadMsg and StepReadMsg.
type Window struct {
	opts Options
	// views hold the items read back and the gap rows of threads whose
	// items were shed (rows.go), readers how each source's are read back.
	views   map[viewKey]*view
	readers map[string]Reader
	// had is what the view folded of each file source (had.go).
	had map[string]*Had
	// forgotten is each fold's steps as last given, stand-ins for those it
	// forgot first, and standIn the last of those made a step of its own,
	// of the fold standInOf (steps.go).
	forgotten map[*fold.Fold]*forgottenSteps
	standIn   *model.Step
	standInOf *fold.Fold
	// stepReads hold steps read back whole, nil while being read
	// (stepread.go).
	stepReads map[StepKey]*StepReadMsg
	// progress is how far each file source has been read, folded how far
	// the threads folded it, kept the end last given to Checkpoint and
	// keptAt when (progress.go, folded.go).
	progress map[string]progress
	folded   map[string]foldedTo
	kept     map[string]int64
	keptAt   time.Time
}

// New returns a window shaped by opts.
func New(opts Options) *Window {
	if opts.Keep == (fold.Keep{}) {
		opts.Keep = ScreenKeep
	}
	return &Window{opts: opts}
}

// Recording is the file a live session is recorded to ("" for none).
func (w *Window) Recording() string { return w.opts.Recording }

// Keeps is what the window keeps of a thread.
func (w *Window) Keeps() fold.Keep { return w.opts.Keep }

// now is the window's clock.
func (w *Window) now() time.Time {
	if w.opts.Now != nil {
		return w.opts.Now()
	}
	return time.Now()
}

// At is where the view is: the thread it shows (nil for a bare fold, as a
// live session without a recording is) and that thread's fold now; in a
// replay, the timeline's reader at the player's position (nil otherwise),
// and that position.
type At struct {
	Thread *fold.Thread
	Fold   *fold.Fold
	Replay Reader
	Pos    int
}

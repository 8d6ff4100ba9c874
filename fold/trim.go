package fold

import "math"

// All, as a count in a Keep, keeps every one.
const All = math.MaxInt

// Keep says what Trim keeps of a fold's past, tier by tier: items; the
// content of steps; steps as skeletons (older ones as sketches); and the
// tombstones of what went. Each count keeps the newest of what it counts,
// 0 none and All every one, so the zero Keep keeps nothing that is
// finished and no tombstone: a thread retired to the bone. What is open,
// the state and the runs always stay.
//
// Each use has its own Keep, decided where its limits are (the screen's,
// --plain's, a resume point's, a replay's checkpoints).
type Keep struct {
	// Items is how many finished display items stay. Older ones go,
	// leaving a tombstone, except the plan item of an ACP session and the
	// message item ACP chunks go to, which the next plan or chunk updates.
	Items int
	// Content is how many finished steps keep their content: Args,
	// ArgsJSON, Result, ResultJSON, Screenshots and Diffs. Older ones stay
	// as skeletons marked Shed, with what a timeline draws.
	Content int
	// Skeletons is how many of the newest steps stay steps. Older ones go
	// once shed and finished, each leaving a sketch of two bytes
	// (Fold.ForgottenStep); Index never changes (Fold.StepBase).
	Skeletons int
	// Tombstones says which tombstones stay.
	Tombstones Tombstones
}

// Tombstones says which tombstones Trim keeps: the ids of the items,
// messages and tool calls it dropped, which make an event that names one
// fold as it would have, had nothing been dropped. When a tombstone goes,
// a message's id stays as a 64-bit hash (agents resend a conversation's
// messages with each run, and one forgotten outright would come back as
// new); with them go the verifier's owners of streams nothing kept names,
// and all but the newest 1,024 diagnostics and warnings.
type Tombstones uint8

const (
	// TombstonesNone keeps no tombstone.
	TombstonesNone Tombstones = iota
	// TombstonesRecent keeps the tombstones made since the previous Trim
	// that forgot any (an item's: when the item is newer than what that
	// Trim had made); older ones go.
	TombstonesRecent
	// TombstonesAll keeps every tombstone, every owner and every
	// diagnostic.
	TombstonesAll
)

// String names t as a person would.
func (t Tombstones) String() string {
	switch t {
	case TombstonesNone:
		return "none"
	case TombstonesRecent:
		return "recent"
	case TombstonesAll:
		return "all"
	}
	return "unknown"
}

// Trimmed counts what one Trim dropped.
type Trimmed struct {
	// Shed counts the items, the steps' content and the messages dropped.
	Shed Shed
	// Forgot counts the skeletons, tombstones, owners and diagnostics.
	Forgot Forgot
}

// add adds o to t.
func (t *Trimmed) add(o Trimmed) {
	t.Shed.Items += o.Shed.Items
	t.Shed.Steps += o.Shed.Steps
	t.Shed.Messages += o.Shed.Messages
	t.Forgot.Steps += o.Forgot.Steps
	t.Forgot.Tombstones += o.Forgot.Tombstones
	t.Forgot.Owners += o.Forgot.Owners
	t.Forgot.Diagnostics += o.Forgot.Diagnostics
}

// Trim drops what k does not keep, so that a fold that follows an endless
// log costs what a view shows plus a bounded trace of the rest, not all
// the log ever said (docs/ARCHITECTURE.md, law 5). It returns what it
// dropped.
//
// It sheds, unless k keeps every item and every step's content: the items
// and the steps' content k does not keep, every finished message of the
// reduce state that no kept item or kept step shows (activity messages
// stay: their patches need their content), and the output of a finished
// ACP terminal that only shed steps show. Whatever it sheds leaves its id
// behind, a tombstone, so that folding on goes exactly as it would have,
// except that what was dropped is gone: a later event for a dropped
// message updates nothing and adds no item, and a message that names a
// dropped one goes where the reference puts it; a result that comes for a
// shed step sets its status, exit code and times, not its content.
//
// Then it forgets, unless k keeps every skeleton and every tombstone: the
// skeletons and the tombstones k does not keep (see Keep and Tombstones).
// Folding on then goes as it goes after shedding alone, for every event
// that names nothing forgotten; one that names something forgotten long
// ago folds as though its id were new: a late result for a forgotten
// step, for instance, shows as a step whose start never came.
//
// Trim never drops or changes an open item, step or message (a step or
// message whose stream the verifier holds open is open), never reuses a
// sequence number, never changes what it keeps, and never changes an
// object a checkpoint shares. What it dropped is counted in the exported
// state (Shedded). During Resume it does nothing.
//
// What stays grows with the log, but slowly: a sketch per forgotten step
// (two bytes) and a hash per forgotten message (about 20 bytes as JSON),
// and between two Trims a skeleton per shed step (about 600 bytes, most of
// it the model.Step itself) and a tombstone per dropped message (about 100
// bytes). BenchmarkShedBounded measures it.
func (f *Fold) Trim(k Keep) Trimmed {
	if f.resuming {
		return Trimmed{}
	}
	f.flush()
	var out Trimmed
	if k.Items < All || k.Content < All {
		out.Shed = f.shed(k.Items, k.Content)
	}
	if k.Skeletons < All || k.Tombstones != TombstonesAll {
		out.Forgot = f.forget(k.Skeletons, k.Tombstones)
	}
	return out
}

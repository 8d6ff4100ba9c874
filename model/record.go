// Package model holds the plain data that flows between agentwatch's layers:
// records read from sources, and the display items, steps and snapshots the
// fold builds from them. It has no logic beyond small methods.
package model

import (
	"encoding/json"
	"time"
)

// Proto names the protocol a record was read in.
type Proto string

// The protocols agentwatch reads.
const (
	ProtoAGUI Proto = "agui"
	ProtoACP  Proto = "acp"
)

// Event is a decoded protocol event. Each protocol package supplies its own
// concrete types; EventType returns the wire name (for AG-UI the `type` field).
type Event interface {
	EventType() string
}

// Record is one item read from a source: the raw bytes as they arrived, the
// decoded event, its place in arrival order and its time.
type Record struct {
	// Seq numbers records from 1 in arrival order; a source never reuses one.
	Seq uint64
	// At is the event's own timestamp when it has one, else its arrival time
	// (zero when neither is known, as for a saved log without timestamps).
	At time.Time
	// Proto is the protocol the record was read in.
	Proto Proto
	// Raw is the event exactly as read (one JSON value), kept so nothing is lost.
	Raw json.RawMessage
	// Event is the decoded event; never nil for a record a source produced.
	Event Event
	// Thread names the thread the record belongs to when its source knows
	// it (an OpenTelemetry source groups what it receives by conversation);
	// empty lets fold.Threads decide by the protocol's own rules.
	Thread string
}

// Unreadable stands in for input a source could not turn into an event: a
// line that is not JSON, a value that is not an object, a cut-off tail. The
// fold shows it as a diagnostic, so nothing read is silently dropped.
type Unreadable struct {
	// Reason says what was wrong, in words a user understands.
	Reason string
	// Offset is the byte offset in the input where the bad part starts (-1 when unknown).
	Offset int64
}

// EventType reports the empty type: unreadable input has none.
func (u *Unreadable) EventType() string { return "" }

// Batch is records of one source, in order, as they reach the screen: a
// folder or a server log delivers many sources' batches on one channel.
type Batch struct {
	// Source names where the records come from (a file path, "-"); each
	// source's threads are told apart from other sources'.
	Source  string
	Records []Record
	// Restart says the source started over before these records (a file
	// truncated or replaced): what it sent before is no longer there, and
	// its threads start again.
	Restart bool
	// Read and Size say how far a file source has been read with these
	// records, in bytes, and how big it is (both 0 when not known): a
	// view shows its progress through a big file.
	Read, Size int64
	// End is, for a file source, the byte offset just past the last of
	// these records, where reading would take up after them: the file's
	// bytes before End hold exactly its records (since the last Restart)
	// up to this batch's last, and a later run that restores what was
	// folded of them may go on reading there. 0 when not known: a batch
	// without records, a source that is not a file, a last record that
	// stands for a line over the size limit whose end is not read yet, or
	// one that says a JSON array broke, after which nothing is read.
	End int64
	// Glance, in a batch without records, says what a look at the head and
	// tail of a file that is not folded found (a big folder's session,
	// listed until it is opened); a later glance of the same source
	// replaces it.
	Glance *Glance
}

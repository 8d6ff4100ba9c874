package sources

import (
	"fmt"
	"math"
	"sort"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/agentwatch/agentwatch/model"
)

// Index locates every record of a log file: where its bytes are, its time
// and its type. It is append-only; an Index value is an immutable prefix,
// safe to read (from any goroutine) while the Indexer that made it goes on.
//
// It is a struct of arrays in fixed-size chunks, 14 bytes a record (offset
// and time as 32-bit steps from the chunk's first, length, type number): a
// generated 100 MB log of 555,000 events indexes in 7.5 MB, and growing the
// index never copies what is already there. What the columns cannot say
// goes on the side, and real logs have little of it: records it cannot
// point back into the file for (unreadable input, an SSE event joined from
// several data: lines), a time that is not a whole millisecond or is more
// than 24 days from its chunk's first, a place more than 4 GiB from it,
// the 65,535th type name and beyond. A translated format (a Claude Code
// session, a Codex rollout) is the exception: its records are AG-UI events
// protocol/claude or protocol/codex made, one line giving several, not
// spans of the file, so each is kept on the side whole with the thread it
// names (about the size of the session's text,
// where a JSON Lines log keeps 14 bytes an event).
type Index struct {
	n      int
	format Format
	chunks []*indexChunk
	types  []string // types[0] is "", the type of unreadable records
	extras []extra  // in record order
	// extraBytes is what the extras hold beyond their own size.
	extraBytes int
}

const (
	chunkShift = 12
	chunkLen   = 1 << chunkShift
	chunkMask  = chunkLen - 1
)

// indexChunk holds chunkLen records' columns. Offsets and times are kept
// as steps from the chunk's base: 14 bytes a record instead of 24, which
// on the 126 MB, 700,000-event log is 9.3 MiB instead of 16 MiB, kept for
// as long as a replay or a review runs. The columns are an allocation of
// their own, exactly 7 pages: with the bases beside them they took 8.
type indexChunk struct {
	baseOff int64 // input offset the off column counts from
	baseMs  int64 // Unix milliseconds the at column counts from
	// sub is the nanoseconds past the millisecond, made for a chunk when one
	// of its times is not a whole millisecond (most logs have none). It is
	// set while other records of the chunk are read, hence atomic.
	sub atomic.Pointer[[chunkLen]int32]
	*chunkColumns
}

// chunkColumns are a chunk's columns, by record.
type chunkColumns struct {
	off  [chunkLen]uint32 // input offset of the raw bytes, from baseOff
	size [chunkLen]uint32 // their length; 0 when they are not in the input, sizeExtra when the extra says where
	at   [chunkLen]int32  // time in whole milliseconds from baseMs, or noTime, or atExtra
	typ  [chunkLen]uint16 // number in Index.types, or typeExtra
}

// The at column's two values that are not times. A time whose step lands
// on one of them goes to the extras.
const (
	noTime  int32 = math.MinInt32     // the record has no time
	atExtra int32 = math.MinInt32 + 1 // see the record's extra
)

// sizeExtra in the size column says the record's place is in its extra;
// typeExtra in the type column, its type.
const (
	sizeExtra uint32 = math.MaxUint32
	typeExtra uint16 = math.MaxUint16
)

// extra is what the columns cannot say about one record.
type extra struct {
	i   int               // record index, from 0
	raw []byte            // the raw bytes when they are not one span of the input
	bad *model.Unreadable // the event, for a record that is unreadable
	at  time.Time         // the time, when the at column says atExtra
	off int64             // the place, when the size column says sizeExtra
	n   uint32            // its length
	typ uint32            // the type number, when the type column says typeExtra
	// thread is the thread the record names (model.Record.Thread), for a
	// translated format's records.
	thread string
}

// Len is the number of records indexed.
func (x Index) Len() int { return x.n }

// Format is the log's format, as detected (FormatAuto while the Indexer
// has not read far enough to tell).
func (x Index) Format() Format { return x.format }

// At is record i's time: the event's own timestamp, as agui.Time reads
// it, or the zero time when it has none. Records are numbered from 0 here
// (their Seq is i+1).
func (x Index) At(i int) time.Time {
	x.check(i)
	c := x.chunks[i>>chunkShift]
	switch ms := c.at[i&chunkMask]; ms {
	case noTime:
		return time.Time{}
	case atExtra:
		return x.extraOf(i).at
	default:
		ns := (c.baseMs + int64(ms)) * int64(time.Millisecond)
		if sub := c.sub.Load(); sub != nil {
			ns += int64(sub[i&chunkMask])
		}
		return time.Unix(0, ns).UTC()
	}
}

// Type is record i's event type as written (its EventType), "" for an
// unreadable record.
func (x Index) Type(i int) string {
	x.check(i)
	t := x.chunks[i>>chunkShift].typ[i&chunkMask]
	if t == typeExtra {
		return x.types[x.extraOf(i).typ]
	}
	return x.types[t]
}

// Footprint is about how many bytes of memory the index holds: its
// columns, the type names and the records kept on the side.
func (x Index) Footprint() int {
	n := len(x.chunks)*int(unsafe.Sizeof(indexChunk{})+unsafe.Sizeof(chunkColumns{})) + cap(x.chunks)*8
	for _, c := range x.chunks {
		if c.sub.Load() != nil {
			n += int(unsafe.Sizeof([chunkLen]int32{}))
		}
	}
	for _, t := range x.types {
		n += len(t) + int(unsafe.Sizeof(t))
	}
	return n + cap(x.extras)*int(unsafe.Sizeof(extra{})) + x.extraBytes
}

func (x Index) check(i int) {
	if i < 0 || i >= x.n {
		panic(fmt.Sprintf("sources.Index: record %d out of range [0,%d)", i, x.n))
	}
}

// extraAt returns the position in x.extras of the first extra for a record
// at or after i.
func (x Index) extraAt(i int) int {
	return sort.Search(len(x.extras), func(k int) bool { return x.extras[k].i >= i })
}

// extraOf returns record i's extra, which must exist.
func (x Index) extraOf(i int) *extra {
	return &x.extras[x.extraAt(i)]
}

// chunkFor returns the chunk record i goes in, starting one with the
// bases given when i is its first; i is x.n, where no Index value handed
// out reads.
func (x *Index) chunkFor(i int, baseOff, baseMs int64) *indexChunk {
	if i>>chunkShift == len(x.chunks) {
		x.chunks = append(x.chunks, &indexChunk{baseOff: baseOff, baseMs: baseMs, chunkColumns: new(chunkColumns)})
	}
	return x.chunks[i>>chunkShift]
}

// place returns where record i's raw bytes are in the input: offset and
// length, 0 when they are not there.
func (x Index) place(i int) (int64, int) {
	c, k := x.chunks[i>>chunkShift], i&chunkMask
	switch size := c.size[k]; size {
	case 0:
		return 0, 0
	case sizeExtra:
		ex := x.extraOf(i)
		return ex.off, int(ex.n)
	default:
		return c.baseOff + int64(c.off[k]), int(size)
	}
}

// End is where the last record's bytes that are in the input end: how much
// of the input the index covers so far (0 for an empty index).
func (x Index) End() int64 {
	for i := x.n - 1; i >= 0; i-- {
		if off, size := x.place(i); size > 0 {
			return off + int64(size)
		}
	}
	return 0
}

// splitTime splits a time into Unix milliseconds and the nanoseconds past
// them; ok is false for a time the columns cannot hold whatever the base
// (one that does not fit in int64 nanoseconds, or not in UTC).
func splitTime(t time.Time) (ms int64, sub int32, ok bool) {
	ns := t.UnixNano()
	if time.Unix(0, ns).UTC() != t {
		return 0, 0, false
	}
	ms = ns / int64(time.Millisecond)
	if ns%int64(time.Millisecond) < 0 {
		ms-- // floor, so sub is never negative
	}
	return ms, int32(ns - ms*int64(time.Millisecond)), true
}

// encodeTime turns a record's time into the at column's value for a chunk
// whose times count from baseMs, and the nanoseconds past the millisecond;
// ok is false when it must go to the extras.
func encodeTime(t time.Time, baseMs int64) (v, sub int32, ok bool) {
	if t == (time.Time{}) {
		return noTime, 0, true
	}
	ms, sub, ok := splitTime(t)
	d := ms - baseMs
	if !ok || d <= int64(atExtra) || d > math.MaxInt32 {
		return atExtra, 0, false
	}
	return int32(d), sub, true
}

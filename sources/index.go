package sources

import (
	"fmt"
	"math"
	"sort"
	"time"
	"unsafe"

	"github.com/agentwatch/agentwatch/model"
)

// Index locates every record of a log file: where its bytes are, its time
// and its type. It is append-only; an Index value is an immutable prefix,
// safe to read (from any goroutine) while the Indexer that made it goes on.
//
// It is a struct of arrays in fixed-size chunks, 24 bytes a record (offset,
// length, time, type number): a generated 100 MB log of 555,000 events
// indexes in 13 MB, and growing the index never copies what is already
// there. Records
// it cannot point back into the file for — unreadable input, an SSE event
// joined from several data: lines, a time that does not fit in nanoseconds
// — are kept whole on the side; real logs have few.
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

// indexChunk holds chunkLen records' columns.
type indexChunk struct {
	off  [chunkLen]int64  // input offset of the raw bytes
	size [chunkLen]uint32 // their length; 0 when they are not in the input at off
	at   [chunkLen]int64  // time in Unix nanoseconds, or noTime, or atExtra
	typ  [chunkLen]uint32 // number in Index.types
}

// The at column's two values that are not times. A real time that lands on
// one of them goes to the extras.
const (
	noTime  int64 = math.MinInt64     // the record has no time
	atExtra int64 = math.MinInt64 + 1 // see the record's extra
)

// extra is what the columns cannot say about one record.
type extra struct {
	i   int               // record index, from 0
	raw []byte            // the raw bytes when they are not one span of the input
	bad *model.Unreadable // the event, for a record that is unreadable
	at  time.Time         // the time, when the at column says atExtra
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
	switch ns := x.chunks[i>>chunkShift].at[i&chunkMask]; ns {
	case noTime:
		return time.Time{}
	case atExtra:
		return x.extraOf(i).at
	default:
		return time.Unix(0, ns).UTC()
	}
}

// Type is record i's event type as written (its EventType), "" for an
// unreadable record.
func (x Index) Type(i int) string {
	x.check(i)
	return x.types[x.chunks[i>>chunkShift].typ[i&chunkMask]]
}

// Footprint is about how many bytes of memory the index holds: its
// columns, the type names and the records kept on the side.
func (x Index) Footprint() int {
	n := len(x.chunks)*int(unsafe.Sizeof(indexChunk{})) + cap(x.chunks)*8
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

// set writes record i's columns; i is x.n or beyond, where no Index value
// handed out reads.
func (x *Index) set(i int, off int64, size uint32, at int64, typ uint32) {
	if i>>chunkShift == len(x.chunks) {
		x.chunks = append(x.chunks, new(indexChunk))
	}
	c, k := x.chunks[i>>chunkShift], i&chunkMask
	c.off[k], c.size[k], c.at[k], c.typ[k] = off, size, at, typ
}

// place returns where record i's raw bytes are in the input: offset and
// length, 0 when they are not there.
func (x Index) place(i int) (int64, int) {
	c, k := x.chunks[i>>chunkShift], i&chunkMask
	return c.off[k], int(c.size[k])
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

// encodeTime turns a record's time into the at column's value; ok is false
// when it must go to the extras.
func encodeTime(t time.Time) (v int64, ok bool) {
	if t == (time.Time{}) {
		return noTime, true
	}
	ns := t.UnixNano()
	if ns <= atExtra || time.Unix(0, ns).UTC() != t {
		return atExtra, false
	}
	return ns, true
}

package search

// This file keeps the text of what a view lets go of, so that a search
// still finds it. A view sheds its thread's oldest finished items and the
// content of its older steps to bound its memory (docs/ARCHITECTURE.md,
// law 5); before each trim, the archive takes the text of every finished
// item it has not taken yet (for a tool call, its step's label, tool,
// location, arguments, output and diffs), as Find would search it, and
// keeps it compressed in blocks of about 64 KiB. A search reads the blocks
// back (archive_scan.go) off the screen's goroutine; a match in an item
// the view let go is shown by reading the item back from its source.

import (
	"slices"

	"github.com/klauspost/compress/s2"

	"github.com/agentwatch/agentwatch/model"
)

// blockSize is how much text a block holds before it is compressed: big
// enough to compress well, small enough that the first match of a search
// costs a few blocks read back.
const blockSize = 64 << 10

// Archive is the text of a thread's finished items, kept so that a search
// finds items the view shed. It is filled on the view's goroutine (Take)
// and read, through a Shelf, on any.
type Archive struct {
	// blocks are sealed: never changed once appended, so a Shelf may read
	// them while more are added.
	blocks []*block
	// open is the block being filled: its text and its entries.
	open    []byte
	entries []entry
	// taken is the items whose text was taken, by Seq.
	taken bitset
	// raw and packed count the text taken and what it costs compressed,
	// count the items taken with text.
	raw, packed, count int
	// dropped counts the items let go by DropOldest.
	dropped int
	// pack is where a block is compressed before it is copied.
	pack []byte
}

// entry is an item's text in a block: its Seq, its step (-1 for none),
// and where its text ends in the block (it starts where the one before
// ends).
type entry struct {
	seq  uint64
	step int32
	end  uint32
}

// block is some items' texts, one after another, each ended by a zero
// byte (so that no match spans two): compressed (packed) once sealed, or
// as they are (text) in a Shelf's copy of the open block.
type block struct {
	packed  []byte
	text    []byte
	entries []entry
	// minSeq and maxSeq bound the Seq of its entries, grams the
	// trigrams of its text (grams.go).
	minSeq, maxSeq uint64
	grams          *grams
}

// Take adds the text of each finished item of items the archive does not
// have yet; steps are the steps the thread keeps, the first of index base
// (fold.Fold's Steps and StepBase). Call it before the thread is trimmed:
// a tool call is taken with its step's content, which a trim lets go of.
func (a *Archive) Take(items []*model.Item, steps []*model.Step, base int) {
	for _, it := range items {
		if !it.Status.Done() || a.taken.has(it.Seq) {
			continue
		}
		step := -1
		start := len(a.open)
		switch it.Kind {
		case model.ItemToolCall:
			i := it.Step - base
			if i < 0 || i >= len(steps) || steps[i] == nil || !steps[i].Status.Done() {
				continue // taken once its step is finished
			}
			step = it.Step
			a.open = appendStepText(a.open, steps[i])
		case model.ItemMessage, model.ItemReasoning, model.ItemError, model.ItemDiagnostic:
			a.open = appendField(appendField(a.open, it.Text), it.Name)
		case model.ItemPlan:
			a.open = appendField(a.open, string(it.Data))
		default:
			a.taken.add(it.Seq)
			continue // nothing a search looks at
		}
		a.taken.add(it.Seq)
		a.raw += len(a.open) - start
		a.count++
		a.entries = append(a.entries, entry{seq: it.Seq, step: int32(step), end: uint32(len(a.open))})
		if len(a.open) >= blockSize {
			a.seal()
		}
	}
}

// appendStepText appends the fields of a step that StepHas searches.
func appendStepText(b []byte, s *model.Step) []byte {
	for _, f := range [...]string{s.Category.Verb(s.Status), s.Title, s.ToolName, s.Location, s.Args, s.Result} {
		b = appendField(b, f)
	}
	for _, d := range s.Diffs {
		b = appendField(appendField(b, d.Path), d.NewText)
	}
	return b
}

// appendField appends a field and the zero byte that ends it.
func appendField(b []byte, f string) []byte {
	if f == "" {
		return b
	}
	return append(append(b, f...), 0)
}

// seal compresses the open block and starts another.
func (a *Archive) seal() {
	if len(a.entries) == 0 {
		return
	}
	// Encode writes into room for the worst case, three times what the
	// text compresses to here: the block keeps a copy of what it wrote.
	a.pack = s2.Encode(a.pack[:cap(a.pack)], a.open)
	b := &block{packed: slices.Clone(a.pack), entries: slices.Clip(a.entries), grams: gramsOf(a.open)}
	b.minSeq, b.maxSeq = seqBounds(b.entries)
	a.blocks = append(a.blocks, b)
	a.packed += len(b.packed)
	a.open, a.entries = a.open[:0], nil
}

// seqBounds is the least and the greatest Seq of entries.
func seqBounds(entries []entry) (lo, hi uint64) {
	lo = entries[0].seq
	for _, e := range entries {
		lo, hi = min(lo, e.seq), max(hi, e.seq)
	}
	return lo, hi
}

// Has reports whether the archive took the text of item seq.
func (a *Archive) Has(seq uint64) bool { return a != nil && a.taken.has(seq) }

// Empty reports whether the archive holds no text.
func (a *Archive) Empty() bool { return a == nil || len(a.blocks) == 0 && len(a.entries) == 0 }

// Cost is the text the archive took and the bytes it keeps for it: the
// compressed blocks, the entries (16 bytes an item) and the block open.
func (a *Archive) Cost() (text, kept int) {
	if a == nil {
		return 0, 0
	}
	kept = a.packed + cap(a.open) + cap(a.pack) + len(a.taken.words)*8
	for _, b := range a.blocks {
		kept += len(b.entries)*16 + len(grams{})*8
	}
	return a.raw, kept + len(a.entries)*16
}

// DropOldest lets go of the oldest block (never the only one) and reports
// whether there was one to let go: a view bounds what its archives keep.
func (a *Archive) DropOldest() bool {
	if a == nil || len(a.blocks) < 2 {
		return false
	}
	b := a.blocks[0]
	a.blocks = a.blocks[1:]
	a.packed -= len(b.packed)
	a.dropped += len(b.entries)
	return true
}

// Dropped is how many items DropOldest let go of: a search no longer
// finds them.
func (a *Archive) Dropped() int {
	if a == nil {
		return 0
	}
	return a.dropped
}

// Shelf is what an archive held when it was asked: safe to search on any
// goroutine while the archive goes on taking text.
type Shelf struct {
	blocks []*block
}

// Shelf returns what the archive holds now, the open block copied.
func (a *Archive) Shelf() Shelf {
	if a == nil {
		return Shelf{}
	}
	s := Shelf{blocks: a.blocks[:len(a.blocks):len(a.blocks)]}
	if len(a.entries) > 0 {
		b := &block{text: slices.Clone(a.open), entries: slices.Clone(a.entries), grams: gramsOf(a.open)}
		b.minSeq, b.maxSeq = seqBounds(b.entries)
		s.blocks = append(s.blocks, b)
	}
	return s
}

// bitset is a set of small numbers (item sequence numbers, which start at
// 1 and are never skipped): a bit each.
type bitset struct{ words []uint64 }

func (b *bitset) has(i uint64) bool {
	w := i / 64
	return w < uint64(len(b.words)) && b.words[w]&(1<<(i%64)) != 0
}

func (b *bitset) add(i uint64) {
	w := i / 64
	for uint64(len(b.words)) <= w {
		b.words = append(b.words, 0)
	}
	b.words[w] |= 1 << (i % 64)
}

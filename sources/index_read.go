package sources

import (
	"bytes"
	"fmt"
	"io"

	"github.com/agentwatch/agentwatch/model"
)

// readWindow is the most Records reads at once: neighbouring events come
// in one read, and memory stays bounded whatever range is asked for.
const readWindow = 256 << 10

// arenaBytes is the most the blocks the raw bytes of returned records are
// copied into hold: few allocations, and a record kept alone keeps no more
// than one block alive.
const arenaBytes = 1 << 20

// Records reads and decodes records i to j-1 (numbered from 0; their Seq
// is i+1 to j) from ra, which must hold the bytes the Indexer read. They
// are the records Reader.Next returns for the same log: the same Seq, At,
// Raw and Event. An error is an I/O error from ra, or a range outside the
// index.
func (x Index) Records(ra io.ReaderAt, i, j int) ([]model.Record, error) {
	if i < 0 || j < i || j > x.n {
		return nil, fmt.Errorf("sources.Index: records %d to %d asked of %d", i, j, x.n)
	}
	recs := make([]model.Record, j-i)
	w := window{ra: ra, end: x.spanEnd(i, j)}
	var arena []byte
	e := x.extraAt(i)
	for k := i; k < j; k++ {
		var ex *extra
		if e < len(x.extras) && x.extras[e].i == k {
			ex = &x.extras[e]
			e++
		}
		var raw []byte
		if off, size := x.place(k); size > 0 {
			b, err := w.read(off, size)
			if err != nil {
				return nil, fmt.Errorf("record %d at byte %d: %w", k+1, off, err)
			}
			if size > readWindow {
				raw = b // read into its own buffer
			} else {
				if cap(arena)-len(arena) < size {
					// No bigger than what is left to read: a record or
					// two asked for alone keep only their own bytes.
					arena = make([]byte, 0, min(arenaBytes, max(int64(size), w.end-off)))
				}
				arena = append(arena, b...)
				raw = arena[len(arena)-size : len(arena) : len(arena)]
			}
		} else if ex != nil && ex.raw != nil {
			raw = bytes.Clone(ex.raw) // the index stays as it is, whatever callers do
		}
		seq := uint64(k + 1)
		if ex != nil && ex.bad != nil {
			u := *ex.bad
			recs[k-i] = model.Record{Seq: seq, At: x.At(k), Proto: x.proto(), Raw: raw, Event: &u}
			continue
		}
		recs[k-i] = item{raw: raw, acp: x.format == FormatACPRecording}.record(seq)
		if ex != nil {
			recs[k-i].Thread = ex.thread
		}
	}
	return recs, nil
}

// proto is the protocol of the index's records.
func (x Index) proto() model.Proto {
	if x.format == FormatACPRecording {
		return model.ProtoACP
	}
	return model.ProtoAGUI
}

// spanEnd returns where the input bytes of records i to j-1 end: how far
// reading ahead is of use.
func (x Index) spanEnd(i, j int) int64 {
	for k := j - 1; k >= i; k-- {
		if off, size := x.place(k); size > 0 {
			return off + int64(size)
		}
	}
	return 0
}

// window reads spans of an io.ReaderAt through one buffer of at most
// readWindow bytes, reading ahead up to end.
type window struct {
	ra  io.ReaderAt
	end int64
	buf []byte
	at  int64 // input offset of buf[0]
}

// read returns the n bytes at off, valid until the next read. A span
// longer than the window is read into a buffer of its own.
func (w *window) read(off int64, n int) ([]byte, error) {
	if off >= w.at && off+int64(n) <= w.at+int64(len(w.buf)) {
		return w.buf[off-w.at:][:n], nil
	}
	if n > readWindow {
		b := make([]byte, n)
		if err := readFull(w.ra, b, off); err != nil {
			return nil, err
		}
		return b, nil
	}
	size := int(min(max(w.end-off, int64(n)), readWindow))
	if cap(w.buf) < size {
		w.buf = make([]byte, size)
	}
	w.buf = w.buf[:size]
	m, err := w.ra.ReadAt(w.buf, off)
	if m < n {
		w.buf = w.buf[:0]
		if err == nil || err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	w.buf, w.at = w.buf[:m], off
	return w.buf[:n], nil
}

// readFull fills b from ra at off.
func readFull(ra io.ReaderAt, b []byte, off int64) error {
	m, err := ra.ReadAt(b, off)
	if m == len(b) {
		return nil
	}
	if err == nil || err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return err
}

package sources

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
)

// SyncInterval is how long a Recorder lets written events sit in the
// operating system's cache before it fsyncs the file.
const SyncInterval = 100 * time.Millisecond

// Recorder appends AG-UI events to a log kept as one JSON array, the AG-UI
// serialization format: "[" then the events separated by ",\n"; the closing
// "]" is written only by Close.
//
// Every Write hands its events to the operating system with one write call
// before it returns, so a crash or kill of this process leaves a file the
// Reader accepts (an array whose closing ] is missing, with at most a
// cut-off last event if the kill landed inside that write). The file is
// fsynced at most SyncInterval after a Write (by a timer, so a quiet stream
// is synced too) and on Close, which bounds what a machine crash can lose.
//
// A missing top-level "timestamp" is filled with the record's At, or the
// time of the Write when At is zero, in ms since the epoch. It is inserted
// textually as the first member (`{"timestamp":N,` + the rest); nothing else
// in the event is changed or re-encoded, and an event that has a timestamp
// (valid or not) is written byte for byte.
//
// A Recorder is safe for concurrent use.
type Recorder struct {
	mu     sync.Mutex
	f      *os.File
	path   string
	first  bool        // no event in the array yet: the next one needs no separator
	dirty  bool        // written since the last fsync
	timer  *time.Timer // pending fsync, when dirty
	err    error       // sticky: the first write error
	closed bool
	// size is where the last complete event (or the opening bracket) ends:
	// a write that fails is cut back to it, so the file never ends inside
	// an event. events counts the events this Recorder wrote.
	size     int64
	events   int
	appended bool             // opened with appendTo
	now      func() time.Time // the clock for missing timestamps; tests replace it
}

// CreateRecorder creates the log at path. It refuses a file that exists
// unless appendTo is set; then it reopens the file's array after its last
// event (removing a closing "]" and the whitespace around it, and a comma
// left after the last event) so that the file stays one array. The file
// must then be a JSON array, closed or not, made of complete values; one
// that ends in a cut-off value is refused rather than cut. An empty file is
// started afresh. A new file is created with mode 0600: agent transcripts
// are private. A path that is not a regular file (a device, a named pipe, a
// directory, or a symbolic link to one) is refused with an error wrapping
// ErrNotRegular; with appendTo, a symbolic link to a regular file appends
// to the file it leads to.
func CreateRecorder(path string, appendTo bool) (*Recorder, error) {
	r := &Recorder{path: path, first: true, now: time.Now}
	if !appendTo {
		f, err := CreateOutput(path)
		if errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("record: %s already exists; use --append to add to it", path)
		}
		if err != nil {
			return nil, fmt.Errorf("record: %w", err)
		}
		r.f = f
		if err := r.start(); err != nil {
			f.Close()
			os.Remove(path)
			return nil, err
		}
		return r, nil
	}
	f, err := OpenOutput(path, os.O_RDWR)
	if err != nil {
		return nil, fmt.Errorf("record: %w", err)
	}
	r.f, r.appended = f, true
	if err := r.reopen(); err != nil {
		f.Close()
		return nil, err
	}
	return r, nil
}

// start writes the opening bracket of a new array and syncs it.
func (r *Recorder) start() error {
	if _, err := r.f.Write([]byte("[")); err != nil {
		return fmt.Errorf("record: %s: %w", r.path, err)
	}
	if err := r.f.Sync(); err != nil {
		return fmt.Errorf("record: %s: %w", r.path, err)
	}
	r.size = 1
	return nil
}

// reopen finds where the existing array's last event ends, cuts the file
// there and positions the next write after it.
func (r *Recorder) reopen() error {
	if _, err := r.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("record: %s: %w", r.path, err)
	}
	dec := jsontext.NewDecoder(bufio.NewReaderSize(r.f, bufferSize), lenient...)
	tok, err := dec.ReadToken()
	if err == io.EOF { // empty or only whitespace: start afresh
		if err := r.f.Truncate(0); err != nil {
			return fmt.Errorf("record: %s: %w", r.path, err)
		}
		if _, err := r.f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("record: %s: %w", r.path, err)
		}
		return r.start()
	}
	if err != nil && !recSyntaxErr(err) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return fmt.Errorf("record: %s: %w", r.path, err)
	}
	if err != nil || tok.Kind() != '[' {
		return fmt.Errorf("record: cannot append to %s: it is not a JSON array of events", r.path)
	}
	end := dec.InputOffset() // just after '[' or the last complete event
	first := true
	for {
		if dec.PeekKind() == ']' {
			if _, err := dec.ReadToken(); err != nil {
				return fmt.Errorf("record: %s: %w", r.path, err)
			}
			at := dec.InputOffset() - 1
			if _, err := dec.ReadToken(); err != io.EOF {
				return fmt.Errorf("record: cannot append to %s: data after the closing ] at byte %d", r.path, at)
			}
			break
		}
		if err := dec.SkipValue(); err != nil {
			if !recSyntaxErr(err) && err != io.EOF && !errors.Is(err, io.ErrUnexpectedEOF) {
				return fmt.Errorf("record: %s: %w", r.path, err)
			}
			// The array is not closed: only a separator may follow the last event.
			ok, err := r.onlySeparator(end)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("record: cannot append to %s: it ends in a cut-off or unreadable event after byte %d; repair or move it first", r.path, end)
			}
			break
		}
		end = dec.InputOffset()
		first = false
	}
	if err := r.f.Truncate(end); err != nil {
		return fmt.Errorf("record: %s: %w", r.path, err)
	}
	if _, err := r.f.Seek(end, io.SeekStart); err != nil {
		return fmt.Errorf("record: %s: %w", r.path, err)
	}
	r.first, r.size = first, end
	return nil
}

// onlySeparator reports whether the file from offset end on holds nothing
// but whitespace and at most one comma.
func (r *Recorder) onlySeparator(end int64) (bool, error) {
	if _, err := r.f.Seek(end, io.SeekStart); err != nil {
		return false, fmt.Errorf("record: %s: %w", r.path, err)
	}
	rest, err := io.ReadAll(io.LimitReader(r.f, 4096))
	if err != nil {
		return false, fmt.Errorf("record: %s: %w", r.path, err)
	}
	return len(rest) < 4096 && separator(rest) == len(rest), nil
}

func recSyntaxErr(err error) bool {
	var se *jsontext.SyntacticError
	return errors.As(err, &se)
}

// Write appends the records' events to the log with one write call and
// returns once the operating system has them (see Recorder for fsync).
// Records whose Event is *model.Unreadable are skipped: their Raw is not an
// event (it may be a cut-off tail or nothing at all). A record whose Raw is
// not a JSON object is an error, and nothing of that Write is written.
// A write the operating system refuses (a full disk, a file size limit) is
// cut back, so the file ends after the last event written whole, and the
// error names the file and says how many events it keeps. After a write
// error the Recorder keeps returning it.
func (r *Recorder) Write(recs ...model.Record) error {
	var buf bytes.Buffer
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return fmt.Errorf("record: %s: write after Close", r.path)
	}
	if r.err != nil {
		return r.err
	}
	first, n := r.first, 0
	for i := range recs {
		rec := &recs[i]
		if _, bad := rec.Event.(*model.Unreadable); bad {
			continue
		}
		n++
		if !first {
			buf.WriteString(",\n")
		}
		if err := r.appendEvent(&buf, rec); err != nil {
			return err
		}
		first = false
	}
	if buf.Len() == 0 {
		return nil
	}
	if _, err := r.f.Write(buf.Bytes()); err != nil {
		r.err = r.failed(err)
		return r.err
	}
	r.size += int64(buf.Len())
	r.events += n
	r.first = first
	if !r.dirty {
		r.dirty = true
		r.timer = time.AfterFunc(SyncInterval, r.syncLater)
	}
	return nil
}

// appendEvent writes rec's event to buf, with a timestamp inserted when it
// has none.
func (r *Recorder) appendEvent(buf *bytes.Buffer, rec *model.Record) error {
	raw := rec.Raw
	has, open, err := recTimestamp(raw)
	if err != nil {
		return fmt.Errorf("record: event %d is not a JSON object: %w", rec.Seq, err)
	}
	if has {
		buf.Write(raw)
		return nil
	}
	at := rec.At
	if at.IsZero() {
		at = r.now()
	}
	rest := raw[open+1:]
	buf.Write(raw[:open])
	buf.WriteString(`{"timestamp":`)
	buf.WriteString(strconv.FormatInt(at.UnixMilli(), 10))
	if t := bytes.TrimLeft(rest, " \t\r\n"); len(t) == 0 || t[0] != '}' {
		buf.WriteByte(',')
	}
	buf.Write(rest)
	return nil
}

// recTimestamp reports whether the JSON object raw has a top-level
// "timestamp" member, and the offset of its opening brace.
func recTimestamp(raw []byte) (has bool, open int, err error) {
	open = len(raw) - len(bytes.TrimLeft(raw, " \t\r\n"))
	if open == len(raw) || raw[open] != '{' {
		return false, 0, errors.New("no object")
	}
	dec := jsontext.NewDecoder(bytes.NewReader(raw), lenient...)
	if _, err := dec.ReadToken(); err != nil {
		return false, 0, err
	}
	for dec.PeekKind() != '}' {
		name, err := dec.ReadToken()
		if err != nil {
			return false, 0, err
		}
		if name.String() == "timestamp" {
			has = true
		}
		if err := dec.SkipValue(); err != nil {
			return false, 0, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return false, 0, err
	}
	if _, err := dec.ReadToken(); err != io.EOF {
		return false, 0, errors.New("data after the object")
	}
	return has, open, nil
}

// failed is the error for a write the operating system refused, after
// cutting the file back to its last whole event.
func (r *Recorder) failed(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err // the path is named below, once
	}
	kept := fmt.Sprintf("the %d events recorded before", r.events)
	switch {
	case r.events == 0 && r.appended:
		kept = "what it held, and no event of this stream"
	case r.events == 0:
		kept = "no event"
	case r.appended:
		kept += ", after what it held"
	}
	if terr := r.f.Truncate(r.size); terr != nil {
		return fmt.Errorf("record: cannot write %s: %w (and cannot cut back a half-written event: %v)", r.path, err, terr)
	}
	if _, serr := r.f.Seek(r.size, io.SeekStart); serr != nil {
		return fmt.Errorf("record: cannot write %s: %w (and cannot cut back a half-written event: %v)", r.path, err, serr)
	}
	return fmt.Errorf("record: cannot write %s: %w; it keeps %s", r.path, err, kept)
}

// syncLater is the timer's fsync.
func (r *Recorder) syncLater() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed || !r.dirty {
		return
	}
	r.dirty = false
	if err := r.f.Sync(); err != nil && r.err == nil {
		r.err = fmt.Errorf("record: %s: %w", r.path, err)
	}
}

// Close writes the closing "]", syncs and closes the file. It returns the
// first error the Recorder met; calling it again returns nil. After a
// write error it still tries to close the array, so that what was kept
// is a whole log; if that fails too the file ends after its last event.
func (r *Recorder) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if r.timer != nil {
		r.timer.Stop()
	}
	err := r.err
	if _, werr := r.f.Write([]byte("]\n")); werr != nil {
		_ = r.f.Truncate(r.size) // an unclosed array is still read whole
		if err == nil {
			err = fmt.Errorf("record: %s: %w", r.path, werr)
		}
	} else if serr := r.f.Sync(); serr != nil && err == nil {
		err = fmt.Errorf("record: %s: %w", r.path, serr)
	}
	if cerr := r.f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("record: %s: %w", r.path, cerr)
	}
	return err
}

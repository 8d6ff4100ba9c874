package otlp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/agentwatch/agentwatch/internal/words"
)

// Recorder keeps export requests as they arrived, as an OTLP/JSON lines
// file (the Collector's file exporter format, readable by agentwatch and
// by other OpenTelemetry tools), one request per line. The file is the
// user's only (0600): telemetry holds prompts, commands and file contents.
//
// The file is always whole requests: each line goes to the file in one
// write, so a process killed mid-write leaves at most the start of the
// line it was writing after them, and a write that fails (a full disk) is
// taken back, so the file ends after the last request it kept. Write
// returns only once its line is in the file.
type Recorder struct {
	path string
	f    RecordFile
	// kept counts the requests in the file, size its bytes; failed is the
	// error that stopped the recording.
	kept   int
	size   int64
	failed error
}

// RecordFile is what a Recorder writes to: an *os.File, or anything that
// can take back what it was written, as one can (a test's full disk).
type RecordFile interface {
	io.WriteCloser
	Truncate(size int64) error
}

// CreateRecorder creates the file at path; one already there is refused,
// not overwritten.
func CreateRecorder(path string) (*Recorder, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("--record %s: the file exists; remove it or name another", path)
	}
	if err != nil {
		return nil, fmt.Errorf("--record %s: %w", path, err)
	}
	return NewRecorder(path, f), nil
}

// NewRecorder records into f, an empty file that errors name as path.
func NewRecorder(path string, f RecordFile) *Recorder {
	return &Recorder{path: path, f: f}
}

// Write appends one request as a line. When the line cannot be written
// whole, what was written of it is taken back, the recording stops (every
// later Write fails too), and the error says what the file keeps.
func (r *Recorder) Write(req Request) error {
	if r.failed != nil {
		return r.failed
	}
	b, err := req.MarshalJSON()
	if err != nil {
		return fmt.Errorf("--record %s: encode a %s request: %w", r.path, req.Signal, err)
	}
	line := append(b, '\n')
	n, err := r.f.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		r.failed = fmt.Errorf("--record %s: %w; %s", r.path, err, r.keeps())
		if n > 0 {
			if terr := r.f.Truncate(r.size); terr != nil {
				r.failed = fmt.Errorf("--record %s: %w; its last line is cut off (%w), after the %s before it", r.path, err, terr, words.Count(r.kept, "request", "requests"))
			}
		}
		return r.failed
	}
	r.kept++
	r.size += int64(n)
	return nil
}

// keeps says what the file holds.
func (r *Recorder) keeps() string {
	return fmt.Sprintf("the file keeps the %s written before, whole (%s bytes)", words.Count(r.kept, "request", "requests"), words.Thousands(int(r.size)))
}

// Kept is how many requests the file holds.
func (r *Recorder) Kept() int { return r.kept }

// Close closes the file.
func (r *Recorder) Close() error {
	if err := r.f.Close(); err != nil {
		return fmt.Errorf("--record %s: %w; %s", r.path, err, r.keeps())
	}
	return nil
}

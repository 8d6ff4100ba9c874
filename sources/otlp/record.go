package otlp

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Recorder keeps export requests as they arrived, as an OTLP/JSON lines
// file (the Collector's file exporter format, readable by agentwatch and
// by other OpenTelemetry tools), one request per line, flushed per
// request. The file is the user's only (0600): telemetry holds prompts,
// commands and file contents.
type Recorder struct {
	path string
	f    *os.File
	w    *bufio.Writer
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
	return &Recorder{path: path, f: f, w: bufio.NewWriterSize(f, 64<<10)}, nil
}

// Write appends one request as a line and flushes it.
func (r *Recorder) Write(req Request) error {
	b, err := req.MarshalJSON()
	if err != nil {
		return fmt.Errorf("--record %s: encode a %s request: %w", r.path, req.Signal, err)
	}
	r.w.Write(b)
	r.w.WriteByte('\n')
	if err := r.w.Flush(); err != nil {
		return fmt.Errorf("--record %s: %w", r.path, err)
	}
	return nil
}

// Close flushes and closes the file.
func (r *Recorder) Close() error {
	ferr := r.w.Flush()
	if err := r.f.Close(); ferr == nil {
		ferr = err
	}
	if ferr != nil {
		return fmt.Errorf("--record %s: %w", r.path, ferr)
	}
	return nil
}

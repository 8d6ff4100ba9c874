package sources

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Open opens a log for reading: a file path, or "-" for standard input,
// which the returned ReadCloser does not close. Errors name the path.
func Open(path string) (io.ReadCloser, error) {
	if path == "-" {
		return io.NopCloser(os.Stdin), nil
	}
	f, err := os.Open(path)
	if err != nil {
		// os.Open already says "open PATH"; keep only its cause.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	if st, err := f.Stat(); err == nil && st.IsDir() {
		f.Close()
		return nil, fmt.Errorf("open %s: is a folder, not a log file", path)
	}
	return f, nil
}

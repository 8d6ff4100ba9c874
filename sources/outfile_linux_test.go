package sources

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// allOutputCases are outputCases with named pipes and devices: a device
// is made in the test's folder (a copy of /dev/null's numbers), never the
// real one, so a wrong rename cannot replace /dev/null.
func allOutputCases() []outputCase {
	fifo := func(t *testing.T, dir string) string {
		p := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(p, 0o600); err != nil {
			t.Skipf("no named pipes: %v", err)
		}
		return p
	}
	device := func(t *testing.T, dir string) string {
		p := filepath.Join(dir, "null")
		if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, 1<<8|3); err != nil {
			t.Skipf("cannot make a device here (needs root): %v", err)
		}
		return p
	}
	return append(outputCases[:len(outputCases):len(outputCases)],
		outputCase{"named pipe", fifo, false},
		outputCase{"link to a named pipe", func(t *testing.T, dir string) string {
			fifo(t, dir)
			return symlink(t, "fifo", dir, "link")
		}, false},
		outputCase{"device", device, false},
		outputCase{"link to a device", func(t *testing.T, dir string) string {
			device(t, dir)
			return symlink(t, "null", dir, "link")
		}, false},
	)
}

// The real /dev/null, directly or through a link, is refused by the
// checks that never write (ReplaceOutput is tried on a copy above).
func TestOutputRefusesDevNull(t *testing.T) {
	link := symlink(t, os.DevNull, t.TempDir(), "link")
	for _, p := range []string{os.DevNull, link} {
		if err := CheckOutput(p); err == nil {
			t.Errorf("CheckOutput(%s) allows it", p)
		}
		if f, err := OpenOutput(p, os.O_WRONLY|os.O_APPEND); err == nil {
			f.Close()
			t.Errorf("OpenOutput(%s) opened it", p)
		}
	}
}

package app

import (
	"os"
	"testing"
)

// TestDevNullIsNotATerminal: output sent to /dev/null (a character device)
// gets lines, not the screen.
func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if IsTerminal(f) {
		t.Error("/dev/null was taken for a terminal")
	}
	if (&Options{Stdout: f}).screen() {
		t.Error("output to /dev/null would start the screen")
	}
}

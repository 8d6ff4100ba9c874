package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/tui"
)

// A crash is kept in a file of its own under the cache folder, readable by
// the user alone, saying what panicked while doing what, with the stack;
// only the newest crashesKept files stay.
func TestCrashReporter(t *testing.T) {
	dir := t.TempDir()
	report := CrashReporter(dir)
	path := report(tui.Crash{Value: "index out of range [3] with length 0", Stack: []byte("goroutine 1 [running]:\nmain.main()"), During: "update tea.MouseReleaseMsg"})
	if path == "" || filepath.Dir(path) != filepath.Join(dir, "crashes") {
		t.Fatalf("kept in %q", path)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"while: update tea.MouseReleaseMsg", "panic: index out of range [3] with length 0", "goroutine 1 [running]"} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the crash file lacks %q:\n%s", want, b)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, %v", fi.Mode(), err)
	}
	for i := range crashesKept + 5 {
		if report(tui.Crash{Value: fmt.Sprint(i)}) == "" {
			t.Fatal("a crash was not kept")
		}
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "crashes", "crash-*.txt")); len(names) != crashesKept {
		t.Fatalf("%d crash files kept, want %d", len(names), crashesKept)
	}
	// A folder that cannot be made keeps nothing, and says so with "".
	blocked := filepath.Join(dir, "file")
	os.WriteFile(blocked, nil, 0o600)
	if got := CrashReporter(blocked)(tui.Crash{Value: "x"}); got != "" {
		t.Fatalf("kept in %q under a file", got)
	}
}

package tui

import (
	"os"
	"path/filepath"
	"testing"
)

// checkGolden compares got with testdata/<dir>/<name>, or writes it there
// with -update; run names the test to rerun with -update.
func checkGolden(t *testing.T, dir, name, got, run string) {
	t.Helper()
	path := filepath.Join("testdata", dir, name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./tui/ -run %s -update)", err, run)
	}
	if got != string(want) {
		t.Errorf("%s differs; if the change is intended, run go test ./tui/ -run %s -update and look at it", path, run)
	}
}

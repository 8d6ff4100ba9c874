// Package golden compares what a view test drew with the file it was
// reviewed in, testdata/<dir>/<name> next to the test, and rewrites that
// file instead when the test runs with -update: a change to a view is
// made on purpose, regenerated, and read as a diff.
package golden

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// Check compares got with testdata/dir/name, or writes it there with
// -update; run names the test to rerun with -update in the message.
func Check(t testing.TB, dir, name, got, run string) {
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
		t.Fatalf("%v (run go test . -run %s -update in the test's folder)", err, run)
	}
	if got != string(want) {
		t.Errorf("%s differs; if the change is intended, run go test . -run %s -update in the test's folder and look at the diff", path, run)
	}
}

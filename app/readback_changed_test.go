package app

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/agentwatch/agentwatch/fold"
)

// rewriteInPlace rewrites the file at path as an editor that keeps its
// length would: the text of every delta between its first and its last
// 8 KiB becomes as many Zs (ZZZZ is in no generated log), so the file's
// head, its end and its length are what they were.
func rewriteInPlace(t *testing.T, path string) {
	t.Helper()
	log, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(log, []byte("ZZZZ")) {
		t.Fatal("the log says ZZZZ already: the test cannot tell its text from the rewrite's")
	}
	const keep = 8 << 10
	delta := regexp.MustCompile(`"delta":"[a-zA-Z ,.]{4,}"`)
	middle := log[keep : len(log)-keep]
	n := 0
	middle = delta.ReplaceAllFunc(middle, func(m []byte) []byte {
		n++
		text := len(m) - len(`"delta":""`)
		return []byte(`"delta":"` + strings.Repeat("Z", text) + `"`)
	})
	if n == 0 {
		t.Fatal("the rewrite changed no delta")
	}
	rewritten := append(append(append([]byte(nil), log[:keep]...), middle...), log[len(log)-keep:]...)
	if len(rewritten) != len(log) {
		t.Fatalf("the rewrite made %d bytes of %d", len(rewritten), len(log))
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(rewritten, 0); err != nil {
		t.Fatal(err)
	}
}

// A file rewritten in place under what the screen let go, keeping its
// head, its end and its length, is said to have changed when its items or
// a step are read back, and its new text is never shown: whether its index
// was made before the rewrite (the file looks the same at the places an
// index compares) or after it.
func TestReadBackRewrittenInPlace(t *testing.T) {
	for _, indexed := range []string{"before", "after"} {
		t.Run("indexed "+indexed, func(t *testing.T) {
			a, _, screen, path, app := shedScreenApp(t)
			if indexed == "before" {
				x, err := app.indexes.use(path, fold.Options{})
				if err != nil {
					t.Fatal(err)
				}
				x.mu.Unlock()
			}
			rewriteInPlace(t, path)

			// Up to the log's start, a window read back at a time, as
			// TestShedThenScrollBack goes.
			s := screen()
			for reads := 0; reads < 10 && !strings.Contains(s, "reading them back failed"); reads++ {
				_, cmd := a.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
				drive(a, cmd)
				if s = screen(); strings.Contains(s, "ZZZZ") {
					t.Fatalf("the rewritten text is on screen under the rows the screen read:\n%s", s)
				}
			}
			if !strings.Contains(s, "reading them back failed") || !strings.Contains(s, "rewritten") {
				t.Fatalf("reading back from the file rewritten in place does not say it changed:\n%s", s)
			}

			_, cmd := a.Update(tea.KeyPressMsg{Code: tea.KeyHome})
			drive(a, cmd)
			_, cmd = a.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
			drive(a, cmd)
			if s := screen(); strings.Contains(s, "ZZZZ") || !strings.Contains(s, "rewritten") {
				t.Fatalf("the first step of the file rewritten in place, read back:\n%s", s)
			}
		})
	}
}

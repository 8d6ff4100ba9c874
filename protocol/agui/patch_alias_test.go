package agui

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// The patch library took "/" (the empty key) as the container itself, so
// a move there put the document inside itself and the copy after it
// recursed until the stack overflowed: a fatal error, no recover. These
// patches are refused; no other patch reaches such a loop (a random walk
// over documents with empty keys, arrays and the whole-document path).
func TestApplyPatchNeverNestsItself(t *testing.T) {
	crash := `[{"op":"move","from":"/","path":"//-"},{"op":"copy","from":"/","path":"/"}]`
	if _, err := ApplyPatch(jsontext.Value(`{"":0}`), jsontext.Value(crash)); err == nil || !strings.Contains(err.Error(), "empty key") {
		t.Fatalf("the patch that looped: err %v, want it refused", err)
	}
	if out, err := ApplyPatch(jsontext.Value(`{"a":{"x":1}}`), jsontext.Value(`[{"op":"copy","from":"/a","path":"/a/b"}]`)); err != nil || string(out) != `{"a":{"x":1,"b":{"x":1}}}` {
		t.Fatalf("a copy into a member's own child: %s %v", out, err)
	}
	docs := []string{`{"":0}`, `{"":{"":[1]}}`, `{"a":{"":{"b":1}},"l":[{"":2}]}`, `[{"":0},[]]`}
	refs := []string{"", "/", "//", "//-", "///", "/a", "/a/", "/a//b", "/l/0", "/l/0/", "/l/-", "/0", "/0/", "/-", "/b"}
	kinds := []string{"add", "remove", "replace", "move", "copy", "test"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 30_000 {
		var ops []string
		for range 1 + rng.IntN(3) {
			kind := kinds[rng.IntN(len(kinds))]
			op := fmt.Sprintf(`{"op":%q,"path":%q`, kind, refs[rng.IntN(len(refs))])
			if kind == "move" || kind == "copy" {
				op += fmt.Sprintf(`,"from":%q`, refs[rng.IntN(len(refs))])
			} else {
				op += `,"value":{"":[0]}`
			}
			ops = append(ops, op+"}")
		}
		// A loop the library made would overflow the stack here, or when
		// its result is encoded again.
		out, err := ApplyPatch(jsontext.Value(docs[rng.IntN(len(docs))]), jsontext.Value("["+strings.Join(ops, ",")+"]"))
		if err == nil && !out.IsValid() {
			t.Fatalf("invalid result %s", out)
		}
	}
}

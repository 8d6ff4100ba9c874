package statedoc_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold/statedoc"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

func apply(t *testing.T, d *statedoc.Doc, patch string) {
	t.Helper()
	if err := d.Apply(jsontext.Value(patch)); err != nil {
		t.Fatalf("%s: %v", patch, err)
	}
}

func TestZeroDocIsTheEmptyObject(t *testing.T) {
	var d statedoc.Doc
	if got := string(d.JSON()); got != "{}" {
		t.Errorf("zero Doc is %s", got)
	}
	apply(t, &d, `[{"op":"add","path":"/a","value":1}]`)
	if got := string(d.JSON()); got != `{"a":1}` {
		t.Errorf("after add: %s", got)
	}
}

// TestMembersKeepTheirOrder: members stay where they were added, a
// replaced one keeps its place, a removed and added again one goes last,
// as in the reference client's objects (and the library's).
func TestMembersKeepTheirOrder(t *testing.T) {
	d := statedoc.New(jsontext.Value(`{"z":1,"a":2,"m":3}`))
	apply(t, &d, `[{"op":"add","path":"/b","value":4},{"op":"replace","path":"/z","value":5},{"op":"remove","path":"/a"},{"op":"add","path":"/a","value":6},{"op":"add","path":"/m","value":7}]`)
	if got, want := string(d.JSON()), `{"z":5,"m":7,"b":4,"a":6}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	// Enough removals to compact the object on the way, and an index.
	var ops []string
	for i := range 40 {
		ops = append(ops, fmt.Sprintf(`{"op":"add","path":"/k%d","value":%d}`, i, i))
	}
	for i := range 35 {
		ops = append(ops, fmt.Sprintf(`{"op":"remove","path":"/k%d"}`, i))
	}
	apply(t, &d, "["+strings.Join(ops, ",")+"]")
	apply(t, &d, `[{"op":"remove","path":"/k36"},{"op":"add","path":"/k0","value":"again"}]`)
	if got, want := string(d.JSON()), `{"z":5,"m":7,"b":4,"a":6,"k35":35,"k37":37,"k38":38,"k39":39,"k0":"again"}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestAllOrNothing: a patch whose last operation fails changes nothing.
func TestAllOrNothing(t *testing.T) {
	const doc = `{"a":[1,2,3],"o":{"k":"v"},"n":null}`
	d := statedoc.New(jsontext.Value(doc))
	before := string(d.JSON())
	err := d.Apply(jsontext.Value(`[
		{"op":"add","path":"/a/0","value":0},{"op":"remove","path":"/a/3"},{"op":"replace","path":"/a/1","value":"r"},
		{"op":"add","path":"/o/new","value":{"x":[1]}},{"op":"remove","path":"/o/k"},{"op":"add","path":"/o/k","value":"again"},
		{"op":"move","from":"/a","path":"/o/a"},{"op":"copy","from":"/o","path":"/c"},{"op":"remove","path":"/n"},
		{"op":"test","path":"/o/k","value":"not this"}]`))
	if err == nil || err.Error() != "testing value /o/k failed: test failed" {
		t.Fatalf("error %v", err)
	}
	if got := string(d.JSON()); got != before {
		t.Errorf("after a failed patch the document is %s, was %s", got, before)
	}
	apply(t, &d, `[{"op":"add","path":"/a/-","value":4}]`)
	if got, want := string(d.JSON()), `{"a":[1,2,3,4],"o":{"k":"v"},"n":null}`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestShareCopiesOnWrite: a copy made before Share keeps what it held,
// whatever either Doc does after; each copy goes on on its own.
func TestShareCopiesOnWrite(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	g := &gen{rng: rng}
	for range 100 {
		d := statedoc.New(jsontext.Value(g.object(4)))
		apply(t, &d, `[{"op":"add","path":"/__x","value":{"y":[1,{"z":2}]}}]`) // decoded
		type kept struct {
			doc  statedoc.Doc
			json string
		}
		var copies []kept
		for range 30 {
			if rng.IntN(4) == 0 {
				c := d // as a checkpoint keeps it
				d.Share()
				copies = append(copies, kept{c, string(c.JSON())})
			}
			if rng.IntN(5) == 0 && len(copies) > 0 {
				// A fold restored from a checkpoint goes on from it.
				k := copies[rng.IntN(len(copies))]
				r := k.doc
				r.Share()
				checkPatch(t, &r, g.patch(string(r.JSON())))
			}
			checkPatch(t, &d, g.patch(string(d.JSON())))
			for _, k := range copies {
				if got := string(k.doc.JSON()); got != k.json {
					t.Fatalf("a copy changed after Share: was %s, is %s", k.json, got)
				}
			}
		}
	}
}

func TestDepthLimit(t *testing.T) {
	deep := func(levels int) string {
		return strings.Repeat(`{"a":`, levels) + "0" + strings.Repeat("}", levels)
	}
	// A document at the limit can be patched at its bottom.
	d := statedoc.New(jsontext.Value(deep(agui.MaxDepth)))
	path := strings.Repeat("/a", agui.MaxDepth)
	apply(t, &d, `[{"op":"replace","path":"`+path+`","value":1}]`)
	apply(t, &d, `[{"op":"test","path":"`+path+`","value":1}]`)

	// A patch that would go one level deeper is refused, and changes nothing.
	before := string(d.JSON())
	for _, p := range []string{
		`[{"op":"replace","path":"` + path + `","value":{}}]`,
		`[{"op":"add","path":"` + path[:len(path)-2] + `/b","value":` + deep(2) + `}]`,
		`[{"op":"add","path":"/b","value":{}},{"op":"copy","from":"/a","path":"/b/a"}]`,
		`[{"op":"add","path":"/b","value":{}},{"op":"move","from":"/a","path":"/b/a"}]`,
	} {
		err := d.Apply(jsontext.Value(p))
		var de *statedoc.DepthError
		if !errors.As(err, &de) || de.Depth <= agui.MaxDepth {
			t.Errorf("%.80s…: error %v, want a DepthError", p, err)
			continue
		}
		if want := fmt.Sprintf("the state would be nested %d levels deep; agentwatch keeps state up to 1000 levels", de.Depth); err.Error() != want {
			t.Errorf("message %q", err)
		}
		if got := string(d.JSON()); got != before {
			t.Errorf("a refused patch changed the document")
		}
	}
}

// TestDeepPatchIsLinear: a path 1,000 levels deep costs its length, not
// its length squared (the library's cost, through its lazy decoding):
// the bytes one patch at the bottom allocates, per level, stay the same
// from a document 100 levels deep to one 1,000 levels deep.
func TestDeepPatchIsLinear(t *testing.T) {
	perLevel := func(levels int) float64 {
		d := statedoc.New(jsontext.Value(strings.Repeat(`{"a":`, levels) + "0" + strings.Repeat("}", levels)))
		patch := jsontext.Value(`[{"op":"replace","path":"` + strings.Repeat("/a", levels) + `","value":1}]`)
		apply(t, &d, string(patch)) // decoded once, before measuring
		const runs = 20
		return float64(allocated(func() {
			for range runs {
				if err := d.Apply(patch); err != nil {
					t.Fatal(err)
				}
			}
		})) / runs / float64(levels)
	}
	small, big := perLevel(100), perLevel(1000)
	if big > 2*small {
		t.Errorf("bytes allocated per level of a patch: %.1f at 100 levels, %.1f at 1,000", small, big)
	}
}

// allocated is how many bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestExportAndRestore(t *testing.T) {
	d := statedoc.New(jsontext.Value(`{ "b" : "\u00e9<" , "n": 1.50E+2, "z":[1, 2 ,{"y":null}]}`))
	apply(t, &d, `[{"op":"add","path":"/z/-","value":"x"}]`)
	type holder struct {
		State statedoc.Doc `json:"state"`
	}
	b, err := json.Marshal(&holder{d}, json.Deterministic(true))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"state":{"b":"é<","n":1.50E+2,"z":[1,2,{"y":null},"x"]}}`; string(b) != want {
		t.Errorf("exported %s, want %s", b, want)
	}
	var back holder
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if got := string(back.State.JSON()); got != string(d.JSON()) {
		t.Errorf("restored %s, exported %s", got, d.JSON())
	}
}

// FuzzLikeTheLibrary applies any patch to any document, with this package
// and with the library, and fails when they differ.
func FuzzLikeTheLibrary(f *testing.F) {
	f.Add(`{"a":[1,null,{"b":"x"}],"n":null}`, `[{"op":"add","path":"/a/-","value":null},{"op":"test","path":"/a/3","value":null}]`)
	f.Add(`{"a":{"b":[]}}`, `[{"op":"move","from":"/a/b","path":"/c"},{"op":"copy","from":"/c","path":"/a/b"},{"op":"test","path":"/a","value":{"b":[]}}]`)
	f.Add(`[1,2,3]`, `[{"op":"remove","path":"/-1"},{"op":"add","path":"/01","value":[null]},{"op":"replace","path":"/0","value":{}}]`)
	f.Add(`{"~/":{"":1}}`, `[{"op":"add","path":"/~0~1/","value":2},{"op":"remove","path":"//x"}]`)
	// Hostile, small: many adds to one array, a deep path.
	var adds []string
	for i := range 300 {
		adds = append(adds, fmt.Sprintf(`{"op":"add","path":"/items/-","value":%d}`, i))
	}
	f.Add(`{"items":[]}`, "["+strings.Join(adds, ",")+"]")
	f.Add(strings.Repeat(`{"a":`, 200)+"0"+strings.Repeat("}", 200), `[{"op":"replace","path":"`+strings.Repeat("/a", 200)+`","value":{"b":[null]}}]`)
	f.Fuzz(func(t *testing.T, doc, patch string) {
		if !jsontext.Value(doc).IsValid() || !jsontext.Value(patch).IsValid() || agui.Depth([]byte(doc)) > 100 || agui.Depth([]byte(patch)) > 100 {
			return
		}
		d := statedoc.New(jsontext.Value(doc))
		checkPatch(t, &d, patch)
		checkPatch(t, &d, patch) // again, on the document decoded
	})
}

// TestDecodedSize: a decoded state stays within ten times the size of its
// JSON (a list of small objects, the common shape of a big state).
func TestDecodedSize(t *testing.T) {
	var parts []string
	for i := range 100_000 {
		parts = append(parts, fmt.Sprintf(`{"id":%d,"name":"item %d","done":false}`, i, i))
	}
	src := `{"items":[` + strings.Join(parts, ",") + `]}`
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	d := statedoc.New(jsontext.Value(src))
	apply(t, &d, `[{"op":"add","path":"/items/-","value":{"id":-1}}]`) // decodes it
	size := float64(heap()-before) / float64(len(src))
	runtime.KeepAlive(&d)
	t.Logf("decoded: %.1f times the JSON", size)
	if size > 10 {
		t.Errorf("a decoded state takes %.1f times its JSON", size)
	}
}

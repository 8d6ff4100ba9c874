package statedoc_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/fold/statedoc"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// The package's promise is the patch library's results and messages: these
// tests apply the same patches with both and compare, on documents and
// patches made to reach every case (paths that exist and do not, escaped
// names, indices of every spelling, nulls read and given, tests that pass,
// fail and panic, moves, copies, patches failing half way).

// libraryResult is what the library makes of patch on doc: the document
// after it (canonical) and the error's text. ok is false when the library
// answers differently from one call to the next (it walks a Go map where
// a test compares objects).
func libraryResult(doc, patch string) (after, errText string, ok bool) {
	runs := 1
	if strings.Contains(patch, `"test"`) {
		runs = 24 // enough to see the map orders that answer otherwise
	}
	for i := range runs {
		out, err := agui.ApplyPatch(jsontext.Value(doc), jsontext.Value(patch))
		a, e := doc, ""
		if err != nil {
			e = err.Error()
		} else {
			a = canonical(string(out))
		}
		if i > 0 && (a != after || e != errText) {
			return "", "", false
		}
		after, errText = a, e
	}
	return after, errText, true
}

// canonical is JSON as a Doc writes it.
func canonical(s string) string {
	d := statedoc.New(jsontext.Value(s))
	return string(d.JSON())
}

// checkPatch applies patch to d and to its JSON with the library, and
// fails when they differ.
func checkPatch(t *testing.T, d *statedoc.Doc, patch string) {
	t.Helper()
	before := string(d.JSON())
	wantDoc, wantErr, ok := libraryResult(before, patch)
	err := d.Apply(jsontext.Value(patch))
	gotErr := ""
	if err != nil {
		gotErr = err.Error()
	}
	if !ok {
		return // the library has no one answer to compare with
	}
	got := string(d.JSON())
	if gotErr != wantErr || got != wantDoc {
		t.Fatalf("patch %s\non %s\n got error %q, document %s\nwant error %q, document %s", patch, before, gotErr, got, wantErr, wantDoc)
	}
}

// TestLikeTheLibrary applies hand-picked patches, each to a fresh copy of
// one document.
func TestLikeTheLibrary(t *testing.T) {
	const doc = `{"a":[1,null,{"b":"x"},[null]],"n":null,"s":"str","~/":{"":1,"-":2,"0":3},"o":{"p":{"q":[1.0,"\u00e9"]}},"e":{},"l":[]}`
	patches := []string{
		// add
		`[{"op":"add","path":"/z","value":1}]`,
		`[{"op":"add","path":"/a/-","value":{"c":null}}]`,
		`[{"op":"add","path":"/a/0","value":0}]`,
		`[{"op":"add","path":"/a/4","value":4}]`,
		`[{"op":"add","path":"/a/5","value":5}]`,
		`[{"op":"add","path":"/a/-1","value":-1}]`,
		`[{"op":"add","path":"/a/-5","value":-5}]`,
		`[{"op":"add","path":"/a/-6","value":-6}]`,
		`[{"op":"add","path":"/a/01","value":"lead"}]`,
		`[{"op":"add","path":"/a/+1","value":"plus"}]`,
		`[{"op":"add","path":"/a/x","value":1}]`,
		`[{"op":"add","path":"/a/99999999999999999999","value":1}]`,
		`[{"op":"add","path":"/s/x","value":1}]`,
		`[{"op":"add","path":"/n/x","value":1}]`,
		`[{"op":"add","path":"/missing/x","value":1}]`,
		`[{"op":"add","path":"/~0~1/-","value":1}]`,
		`[{"op":"add","path":"/~0~1/~01","value":1}]`,
		`[{"op":"add","path":"/o/p/q/1","value":[]}]`,
		`[{"op":"add","path":"/a/2/b","value":"replaced in place"}]`,
		`[{"op":"add","path":"/s","value":null}]`,
		`[{"op":"add","path":"/a/1/x","value":1}]`,
		`[{"op":"add","path":"/e/","value":1}]`,
		`[{"op":"add","path":"//x","value":1}]`,
		`[{"op":"add","path":"/a//x","value":1}]`,
		`[{"op":"add","path":"","value":[]}]`,
		`[{"op":"add","path":"a/b","value":1}]`,
		// remove
		`[{"op":"remove","path":"/s"}]`,
		`[{"op":"remove","path":"/n"}]`,
		`[{"op":"remove","path":"/nope"}]`,
		`[{"op":"remove","path":"/a/1"}]`,
		`[{"op":"remove","path":"/a/4"}]`,
		`[{"op":"remove","path":"/a/-1"}]`,
		`[{"op":"remove","path":"/a/-5"}]`,
		`[{"op":"remove","path":"/a/-"}]`,
		`[{"op":"remove","path":"/a/3/0"}]`,
		`[{"op":"remove","path":"/x/y"}]`,
		`[{"op":"remove","path":""}]`,
		// replace
		`[{"op":"replace","path":"/s","value":{"deep":[1]}}]`,
		`[{"op":"replace","path":"/n","value":1}]`,
		`[{"op":"replace","path":"/nope","value":1}]`,
		`[{"op":"replace","path":"/a/3","value":1}]`,
		`[{"op":"replace","path":"/a/4","value":1}]`,
		`[{"op":"replace","path":"/a/-2","value":1}]`,
		`[{"op":"replace","path":"/a/-","value":1}]`,
		`[{"op":"replace","path":"/q/r","value":1}]`,
		`[{"op":"replace","path":"","value":{"whole":true}}]`,
		`[{"op":"replace","path":"","value":1}]`,
		// move and copy
		`[{"op":"move","from":"/s","path":"/t"}]`,
		`[{"op":"move","from":"/a/0","path":"/a/-"}]`,
		`[{"op":"move","from":"/a","path":"/a/0"}]`,
		`[{"op":"move","from":"/o/p","path":"/e/p"}]`,
		`[{"op":"move","from":"/nope","path":"/x"}]`,
		`[{"op":"move","from":"/x/y","path":"/x"}]`,
		`[{"op":"move","from":"/s","path":"/x/y"}]`,
		`[{"op":"move","from":"/s","path":"/a/9"}]`,
		`[{"op":"move","from":"/a/9","path":"/s"}]`,
		`[{"op":"move","from":"","path":"/s"}]`,
		`[{"op":"move","from":"/n","path":"/m"},{"op":"test","path":"/m","value":null}]`,
		`[{"op":"copy","from":"/o","path":"/o2"}]`,
		`[{"op":"copy","from":"/a","path":"/a/1"}]`,
		`[{"op":"copy","from":"/nope","path":"/x"}]`,
		`[{"op":"copy","from":"/a/7","path":"/x"}]`,
		`[{"op":"copy","from":"/s","path":"/x/y"}]`,
		`[{"op":"copy","from":"/s","path":"/a/x"}]`,
		`[{"op":"copy","from":"","path":"/x"}]`,
		`[{"op":"copy","from":"/n","path":"/m"},{"op":"test","path":"/m","value":null}]`,
		`[{"op":"add","path":"/f","value":null},{"op":"copy","from":"/f","path":"/g"},{"op":"test","path":"/g","value":null}]`,
		`[{"op":"add","path":"/f","value":[null]},{"op":"copy","from":"/f","path":"/g"},{"op":"test","path":"/g","value":[1]}]`,
		// test
		`[{"op":"test","path":"/s","value":"str"}]`,
		`[{"op":"test","path":"/s","value":"st\u0072"}]`,
		`[{"op":"test","path":"/s","value":"other"}]`,
		`[{"op":"test","path":"/n","value":null}]`,
		`[{"op":"test","path":"/n"}]`,
		`[{"op":"test","path":"/nope","value":null}]`,
		`[{"op":"test","path":"/nope","value":1}]`,
		`[{"op":"test","path":"/s","value":null}]`,
		`[{"op":"test","path":"/a/1","value":null}]`,
		`[{"op":"test","path":"/a/0","value":1}]`,
		`[{"op":"test","path":"/a/0","value":1.0}]`,
		`[{"op":"test","path":"/a/9","value":1}]`,
		`[{"op":"test","path":"/a/x","value":1}]`,
		`[{"op":"test","path":"/a/2","value":{"b":"x"}}]`,
		`[{"op":"test","path":"/a/2","value":{"b":"y"}}]`,
		`[{"op":"test","path":"/a/3","value":[null]}]`,
		`[{"op":"test","path":"/a","value":[1]}]`,
		`[{"op":"test","path":"/o","value":{"p":{"q":[1.0,"é"]}}}]`,
		`[{"op":"test","path":"/o","value":{"p":{"q":[1,"é"]}}}]`,
		`[{"op":"test","path":"/o","value":{"p":null}}]`,
		`[{"op":"test","path":"/o/p/q","value":"[1.0]"}]`,
		`[{"op":"test","path":"/s","value":["str"]}]`,
		`[{"op":"test","path":"/e","value":{}}]`,
		`[{"op":"test","path":"/l","value":[]}]`,
		`[{"op":"test","path":"/l","value":{}}]`,
		`[{"op":"test","path":"","value":{}}]`,
		`[{"op":"test","path":"/x/y","value":1}]`,
		`[{"op":"add","path":"/f","value":null},{"op":"test","path":"/f","value":null}]`,
		`[{"op":"add","path":"/f","value":null},{"op":"test","path":"/f","value":[1]}]`,
		`[{"op":"add","path":"/f","value":null},{"op":"test","path":"/f","value":{}}]`,
		`[{"op":"add","path":"/f","value":[null]},{"op":"test","path":"/f","value":[null]}]`,
		`[{"op":"add","path":"/f","value":{"g":null}},{"op":"test","path":"/f","value":{"g":null}}]`,
		`[{"op":"add","path":"/a/-","value":null},{"op":"test","path":"/a/4","value":null}]`,
		// patches that fail half way, and ones that are not patches
		`[{"op":"add","path":"/z","value":1},{"op":"remove","path":"/s"},{"op":"test","path":"/z","value":2}]`,
		`[{"op":"remove","path":"/a/0"},{"op":"add","path":"/a/0","value":9},{"op":"remove","path":"/nope"}]`,
		`[{"op":"remove","path":"/s"},{"op":"add","path":"/s","value":1},{"op":"test","path":"/s","value":1}]`,
		`[{"op":"frob","path":"/s"}]`,
		`[{"op":"add","path":"/s"}]`,
		`[{"op":"move","path":"/s"}]`,
		`[{"op":"add","path":1,"value":1}]`,
		`[{"path":"/s"}]`,
		`[{"op":null,"path":"/s"}]`,
		`[{"op":"remove","path":null}]`,
		`[{"op":"add","path":"/s","value":1,"from":7}]`,
		`[null]`, `[1]`, `{"op":"add"}`, `null`, `[]`,
	}
	for _, p := range patches {
		d := statedoc.New(jsontext.Value(doc))
		checkPatch(t, &d, p)
	}
}

// TestLikeTheLibraryRandom applies random patches in turn to one document
// and compares after each.
func TestLikeTheLibraryRandom(t *testing.T) {
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 7))
		g := &gen{rng: rng}
		root := g.object(3)
		switch rng.IntN(6) {
		case 0:
			root = "[" + g.value(3) + "," + g.value(3) + "]"
		case 1:
			root = g.value(3) // now and then a scalar, which the library refuses
		}
		d := statedoc.New(jsontext.Value(root))
		for range 60 {
			checkPatch(t, &d, g.patch(string(d.JSON())))
		}
	}
}

// gen makes documents and patches that reach the library's corners.
type gen struct{ rng *rand.Rand }

var names = []string{"a", "b", "~", "/", "~0", "-", "0", "1"}

// name is a member name; now and then the empty one, which the library
// reads its own way.
func (g *gen) name() string {
	if g.rng.IntN(40) == 0 {
		return ""
	}
	return names[g.rng.IntN(len(names))]
}

func (g *gen) scalar() string {
	return []string{`0`, `1`, `1.0`, `-0`, `"x"`, `"\u0078"`, `""`, `true`, `false`, `null`, `null`}[g.rng.IntN(11)]
}

func (g *gen) value(depth int) string {
	if depth == 0 || g.rng.IntN(3) == 0 {
		return g.scalar()
	}
	if g.rng.IntN(2) == 0 {
		return g.object(depth)
	}
	var b strings.Builder
	b.WriteByte('[')
	for i := range g.rng.IntN(4) {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(g.value(depth - 1))
	}
	b.WriteByte(']')
	return b.String()
}

func (g *gen) object(depth int) string {
	var b strings.Builder
	b.WriteByte('{')
	used := map[string]bool{}
	for range g.rng.IntN(4) {
		n := g.name()
		if used[n] {
			continue
		}
		if len(used) > 0 {
			b.WriteByte(',')
		}
		used[n] = true
		fmt.Fprintf(&b, "%q:%s", n, g.value(depth-1))
	}
	b.WriteByte('}')
	return b.String()
}

// path is a path into doc, existing or nearly so.
func (g *gen) path(doc string) string {
	var v any = nil
	_ = jsonUnmarshal(doc, &v)
	var b strings.Builder
	for {
		if g.rng.IntN(4) == 0 {
			break
		}
		var tok string
		switch x := v.(type) {
		case map[string]any:
			if len(x) == 0 || g.rng.IntN(5) == 0 {
				tok = g.name()
				v = nil
				break
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			tok = keys[g.rng.IntN(len(keys))]
			v = x[tok]
		case []any:
			i := g.rng.IntN(len(x)+2) - 1
			tok = fmt.Sprint(i)
			switch g.rng.IntN(8) {
			case 0:
				tok = "-"
			case 1:
				tok = "0" + tok
			case 2:
				tok = fmt.Sprint(-1 - g.rng.IntN(len(x)+1))
			}
			if i >= 0 && i < len(x) {
				v = x[i]
			} else {
				v = nil
			}
		default:
			tok = g.name()
			v = nil
		}
		tok = strings.NewReplacer("~", "~0", "/", "~1").Replace(tok)
		b.WriteString("/" + tok)
		if v == nil && g.rng.IntN(2) == 0 {
			break
		}
	}
	if b.Len() == 0 && g.rng.IntN(3) > 0 {
		return "/" + g.name()
	}
	return b.String()
}

func (g *gen) patch(doc string) string {
	var ops []string
	for range 1 + g.rng.IntN(3) {
		p := g.path(doc)
		switch g.rng.IntN(7) {
		case 0, 1:
			ops = append(ops, fmt.Sprintf(`{"op":"add","path":%q,"value":%s}`, p, g.value(2)))
		case 2:
			ops = append(ops, fmt.Sprintf(`{"op":"remove","path":%q}`, p))
		case 3:
			ops = append(ops, fmt.Sprintf(`{"op":"replace","path":%q,"value":%s}`, p, g.value(2)))
		case 4:
			ops = append(ops, fmt.Sprintf(`{"op":"move","from":%q,"path":%q}`, g.path(doc), p))
		case 5:
			ops = append(ops, fmt.Sprintf(`{"op":"copy","from":%q,"path":%q}`, g.path(doc), p))
		default:
			v := g.value(2)
			if g.rng.IntN(2) == 0 {
				v = g.pick(doc, p)
			}
			ops = append(ops, fmt.Sprintf(`{"op":"test","path":%q,"value":%s}`, p, v))
		}
	}
	return "[" + strings.Join(ops, ",") + "]"
}

// pick is the JSON at path p of doc when there is one (so that a test
// passes), else a random value.
func (g *gen) pick(doc, p string) string {
	after, errText, ok := libraryResult(doc, fmt.Sprintf(`[{"op":"copy","from":%q,"path":"/__pick"}]`, p))
	if !ok || errText != "" {
		return g.value(2)
	}
	var m map[string]jsontext.Value
	if jsonUnmarshal(after, &m) != nil || m["__pick"] == nil {
		return g.value(2)
	}
	return string(m["__pick"])
}

func jsonUnmarshal(s string, v any) error { return json.Unmarshal([]byte(s), v) }

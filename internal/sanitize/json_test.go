package sanitize

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// naiveJSONEscape is what JSONWriter must write for p, worked out one
// byte at a time without any search: the reference its fast scan is held to.
func naiveJSONEscape(p []byte) []byte {
	var out []byte
	var esc [6]byte
	for i := 0; i < len(p); i++ {
		if p[i] == 0xC2 && i+1 < len(p) && p[i+1] >= 0x80 && p[i+1] <= 0x9F {
			out = append(out, escapeOf(&esc, rune(p[i+1]))...)
			i++
			continue
		}
		if p[i] == 0xE2 && i+2 < len(p) && (p[i+1] == 0x80 || p[i+1] == 0x81) {
			r := 0x2000 | rune(p[i+1]&0x3F)<<6 | rune(p[i+2]&0x3F)
			if unsafeFormat(r) {
				out = append(out, escapeOf(&esc, r)...)
				i += 2
				continue
			}
		}
		out = append(out, p[i])
	}
	return out
}

// writeSplit writes p through a JSONWriter in pieces cut at cuts.
func writeSplit(t testing.TB, p []byte, cuts ...int) []byte {
	t.Helper()
	var out bytes.Buffer
	j := NewJSONWriter(&out, 16)
	at := 0
	for _, c := range append(cuts, len(p)) {
		c = max(at, min(c, len(p)))
		if _, err := j.Write(p[at:c]); err != nil {
			t.Fatal(err)
		}
		at = c
	}
	if err := j.Flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// Every character a terminal or a reader must not meet raw leaves as a \u
// escape, however the writes cut the text, and the JSON decodes to the same
// string; neighbours that share its lead bytes pass as they are.
func TestJSONWriterEscapes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // an escape the output must hold ("" for none)
	}{
		{"csi \u009b31m", `\u009b`},
		{"osc \u009d52;c;aGk=\u009c", `\u009d`},
		{"dcs \u0090q\u009c", `\u0090`},
		{"nel \u0085 and pad \u0080", `\u0080`},
		{"evil \u202egnp.exe", `\u202e`},
		{"lre \u202a lri \u2066 pdi \u2069", `\u2066`},
		{"marks \u200e\u200f", `\u200f`},
		{"line\u2028sep", `\u2028`},
		{"é — ’ © ‰ \u2064 \u206a nbsp\u00a0 «»", ""},
		{"\u009b\u009b\u202e\u202e", `\u009b\u009b\u202e\u202e`},
	} {
		enc, err := json.Marshal(map[string]string{"text": tc.in})
		if err != nil {
			t.Fatal(err)
		}
		for cut := 0; cut <= len(enc); cut++ {
			for _, cuts := range [][]int{{cut}, {cut, cut + 1}, {cut, cut + 1, cut + 2}} {
				got := writeSplit(t, enc, cuts...)
				if !bytes.Equal(got, naiveJSONEscape(enc)) {
					t.Fatalf("%q cut at %v: got %s, want %s", tc.in, cuts, got, naiveJSONEscape(enc))
				}
				var back map[string]string
				if err := json.Unmarshal(got, &back); err != nil || back["text"] != tc.in {
					t.Fatalf("%q cut at %v: %s decodes to %q (%v)", tc.in, cuts, got, back["text"], err)
				}
				if tc.want != "" && !strings.Contains(string(got), tc.want) {
					t.Fatalf("%q: output %s lacks %s", tc.in, got, tc.want)
				}
				if tc.want == "" && !bytes.Equal(got, enc) {
					t.Fatalf("%q: harmless text changed: %s", tc.in, got)
				}
				if raw := rawUnsafe(got); raw != "" {
					t.Fatalf("%q: %U left raw in %s", tc.in, []rune(raw)[0], got)
				}
			}
		}
	}
}

// rawUnsafe returns the first character of s that JSONWriter escapes, ""
// when there is none.
func rawUnsafe(s []byte) string {
	for _, r := range string(s) {
		if (r >= 0x80 && r <= 0x9F) || unsafeFormat(r) {
			return string(r)
		}
	}
	return ""
}

// A last byte that might start a sequence is written by Flush, not lost.
func TestJSONWriterFlushesHeldBytes(t *testing.T) {
	for _, tail := range []string{"\xc2", "\xe2", "\xe2\x80", "\xe2\x81"} {
		in := []byte("x" + tail)
		if got := writeSplit(t, in); !bytes.Equal(got, in) {
			t.Errorf("%q: got %q", in, got)
		}
	}
}

// Any bytes, cut anywhere, come out as the byte-at-a-time reference says:
// the fast scan and the held sequences never change anything else.
func FuzzJSONWriter(f *testing.F) {
	for _, s := range []string{"\u009b[2J", `{"a":"\u202e"}`, "\xe2\x80", "\xc2\xc2\x9b", "\xe2\xe2\x80\xae", "‰\u2069\u0085"} {
		f.Add([]byte(s), 1, 2)
	}
	f.Fuzz(func(t *testing.T, p []byte, a, b int) {
		if a < 0 || b < 0 {
			return
		}
		if got, want := writeSplit(t, p, a, a+b), naiveJSONEscape(p); !bytes.Equal(got, want) {
			t.Fatalf("cut at %d, %d: got %q, want %q", a, a+b, got, want)
		}
	})
}

// BenchmarkJSONWriter is the cost of the scan over fold output: mostly
// ASCII, with the punctuation agents write (—, ’, …) sharing 0xE2.
func BenchmarkJSONWriter(b *testing.B) {
	line := `{"type":"TEXT_MESSAGE_CONTENT","delta":"It’s done — the tests pass… see ` + "`make test`" + `"},` + "\n"
	p := []byte(strings.Repeat(line, 1<<14))
	j := NewJSONWriter(discard{}, 256<<10)
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		j.Write(p)
	}
	j.Flush()
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

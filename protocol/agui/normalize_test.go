package agui

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func TestNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"a":1,"b":2,"a":3}`, `{"a":3,"b":2}`},
		{"{\"a\":\"x\xffy\"}", `{"a":"x` + "\uFFFD" + `y"}`},
		{`{"n":12345678901234567890,"f":1.50}`, `{"n":12345678901234567890,"f":1.50}`},
		{`[{"a":1,"a":{"b":1,"b":2}}]`, `[{"a":{"b":2}}]`},
	}
	for _, tt := range tests {
		got, ok := Normalize([]byte(tt.in))
		if !ok || string(got) != tt.want {
			t.Errorf("Normalize(%q) = %q, %v; want %q", tt.in, got, ok, tt.want)
		}
	}
	for _, bad := range []string{`{"a":1},`, `{"a":`, `nope`, `{} {}`} {
		if _, ok := Normalize([]byte(bad)); ok {
			t.Errorf("Normalize(%q) accepted it", bad)
		}
	}
}

func FuzzNormalize(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, "{\"a\":\"\xff\"}", `[1,{"x":[]}]`, `"s"`, `{"type":"\ud800"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out, ok := Normalize(data)
		if !ok {
			if jsontext.Value(data).IsValid() {
				t.Fatalf("strict JSON %q refused", data)
			}
			return
		}
		if !jsontext.Value(out).IsValid() {
			t.Fatalf("Normalize(%q) = %q is not strict JSON", data, out)
		}
		again, ok := Normalize(out)
		if !ok || string(again) != string(out) {
			t.Fatalf("not idempotent: %q then %q", out, again)
		}
	})
}

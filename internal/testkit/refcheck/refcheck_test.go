package refcheck

import (
	"reflect"
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
)

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// Diff tells absent, null, "", [], {}, 0 and false apart, at the top and
// deep inside, and finds equal values equal.
func TestDiff(t *testing.T) {
	empties := []string{`null`, `""`, `[]`, `{}`, `0`, `false`}
	for _, a := range empties {
		for _, b := range empties {
			want := decode(t, `[{"id":"m","toolCalls":`+a+`}]`)
			got := decode(t, `[{"id":"m","toolCalls":`+b+`}]`)
			if d := Diff(want, got, "messages"); (len(d) == 0) != (a == b) {
				t.Errorf("%s against %s: %q", a, b, d)
			}
		}
		present := decode(t, `[{"id":"m","content":[{"type":"text","text":`+a+`}]}]`)
		absent := decode(t, `[{"id":"m","content":[{"type":"text"}]}]`)
		if d := Diff(present, absent, "messages"); len(d) != 1 || !strings.Contains(d[0], "messages[0].content[0].text") {
			t.Errorf("text %s against absent: %q", a, d)
		}
		if d := Diff(absent, present, "messages"); len(d) != 1 {
			t.Errorf("absent against text %s: %q", a, d)
		}
	}
	if d := Diff(decode(t, `[1,[]]`), decode(t, `[1]`), "x"); len(d) != 1 {
		t.Errorf("a missing element: %q", d)
	}
	same := `{"a":[1,"",null,{},[]],"b":{"c":true}}`
	if d := Diff(decode(t, same), decode(t, same), "x"); len(d) != 0 {
		t.Errorf("equal values: %q", d)
	}
}

// The renaming accepts a consistent one-to-one mapping and rejects one
// that is not.
func TestRenaming(t *testing.T) {
	const u1, u2 = "8acf582d-b4d1-4d72-8109-23c9653c4e82", "04206385-6bd1-4473-9ad2-ebe7396d6fe2"
	msgs := func(ids ...string) any {
		var out []any
		for _, id := range ids {
			out = append(out, map[string]any{"id": id, "role": "reasoning"})
		}
		return out
	}
	tests := []struct {
		name      string
		want, got any
		ok        bool
	}{
		{"one to one", msgs(u1, u2, u1), msgs("thinking-2", "thinking-5", "thinking-2"), true},
		{"no legacy ids", msgs("a", "b"), msgs("a", "b"), true},
		{"one reference id, two of ours", msgs(u1, u1), msgs("thinking-2", "thinking-5"), false},
		{"two reference ids, one of ours", msgs(u1, u2), msgs("thinking-2", "thinking-2"), false},
		{"reference id against a plain id", msgs(u1), msgs("r1"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := NewRenaming()
			want := m.Unify(tt.want, tt.got, "messages")
			ok := len(m.Errs) == 0 && reflect.DeepEqual(want, tt.got)
			if ok != tt.ok {
				t.Errorf("equal up to renaming = %v, want %v (errors %q, renamed %v)", ok, tt.ok, m.Errs, want)
			}
		})
	}
	if !HasLegacyThinking([]byte(`{"type": "THINKING_START"}`)) || HasLegacyThinking([]byte(`{"type":"REASONING_START"}`)) {
		t.Error("HasLegacyThinking")
	}
}

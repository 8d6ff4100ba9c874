package compact

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

// TestMergeMetadata: the reference mergeMetadata on JSON as JavaScript
// parses it: absent (nil) incoming keeps existing as it is, otherwise
// `{...existing, ...incoming}`, with spread's rules for non-objects.
func TestMergeMetadata(t *testing.T) {
	tests := []struct {
		existing, incoming, want string // "" is undefined
	}{
		{"", "", ""},
		{`{"a":1}`, "", `{"a":1}`},
		{`"raw"`, "", `"raw"`}, // kept as it is, not spread
		{"", `{"a":1}`, `{"a":1}`},
		{`{"a":1,"b":1}`, `{"b":2,"c":3}`, `{"a":1,"b":2,"c":3}`},
		{`{"a":1,"a":2}`, `{"b":1}`, `{"a":2,"b":1}`}, // a name twice: first place, last value
		{"", `null`, `{}`},
		{`{"a":1}`, `[7,8]`, `{"a":1,"0":7,"1":8}`},
		{"", `"hé"`, `{"0":"h","1":"é"}`},
		{"", `"😀"`, `{"0":"\ud83d","1":"\ude00"}`},
		{`{"a":1}`, `5`, `{"a":1}`},
	}
	val := func(s string) jsontext.Value {
		if s == "" {
			return nil
		}
		return jsontext.Value(s)
	}
	for _, tt := range tests {
		got := string(mergeMetadata(val(tt.existing), val(tt.incoming)))
		if got != tt.want {
			t.Errorf("mergeMetadata(%s, %s) = %s, want %s", tt.existing, tt.incoming, got, tt.want)
		}
	}
}

// TestJSString: a delta as Array.prototype.join turns it into text.
func TestJSString(t *testing.T) {
	tests := map[string]string{
		``: "", `null`: "", `"a\nb"`: "a\nb", `true`: "true", `5`: "5", `1.50`: "1.5", `1e21`: "1e+21",
		`[1,null,"x",[2,3]]`: "1,,x,2,3", `{"a":1}`: "[object Object]",
	}
	for in, want := range tests {
		var v jsontext.Value
		if in != "" {
			v = jsontext.Value(in)
		}
		if got := jsString(v); got != want {
			t.Errorf("jsString(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestIDKey: ids are told apart as a JavaScript Map tells them apart.
func TestIDKey(t *testing.T) {
	same := [][2]string{{`"a"`, `"\u0061"`}, {`1`, ` 1 `}}
	for _, p := range same {
		if idKey(jsontext.Value(p[0])) != idKey(jsontext.Value(p[1])) {
			t.Errorf("%s and %s are one id", p[0], p[1])
		}
	}
	differ := [][2]string{{`"1"`, `1`}, {`"null"`, `null`}, {`""`, ``}}
	for _, p := range differ {
		if idKey(jsontext.Value(p[0])) == idKey(jsontext.Value(p[1])) {
			t.Errorf("%s and %s are two ids", p[0], p[1])
		}
	}
}

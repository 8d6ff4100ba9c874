package jsonwords

import (
	"strings"
	"testing"

	"github.com/go-json-experiment/json"
)

func TestDescribeSaysNoGoType(t *testing.T) {
	type event struct {
		Type      string         `json:"type"`
		MessageID string         `json:"messageId"`
		Count     int            `json:"count"`
		Tags      []string       `json:"tags"`
		Meta      map[string]any `json:"meta"`
		On        bool           `json:"on"`
		Inner     struct {
			Name string `json:"name"`
		} `json:"inner"`
	}
	for _, tc := range []struct{ in, want string }{
		{`{"messageId":5}`, "messageId is a number, want a string"},
		{`{"count":"x"}`, "count is a string, want a whole number"},
		{`{"tags":{}}`, "tags is an object, want an array"},
		{`{"meta":[1]}`, "meta is an array, want an object"},
		{`{"on":"yes"}`, "on is a string, want true or false"},
		{`{"inner":{"name":[]}}`, "inner/name is an array, want a string"},
		{`[1]`, "the value is an array, want an object"},
		{`{"type":`, "unexpected EOF"},
	} {
		var e event
		err := json.Unmarshal([]byte(tc.in), &e)
		if err == nil {
			t.Fatalf("%s: no error", tc.in)
		}
		got := Describe(err)
		if !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.in, got, tc.want)
		}
		for _, bad := range []string{"Go ", "struct", "json:", "jsontext:", "unmarshal"} {
			if strings.Contains(got, bad) {
				t.Errorf("%s: %q names the decoder (%q)", tc.in, got, bad)
			}
		}
	}
}

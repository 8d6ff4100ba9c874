package agui_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

func TestDepth(t *testing.T) {
	for _, c := range []struct {
		json string
		want int
	}{
		{`1`, 0},
		{`"{[{["`, 0},
		{`{}`, 1},
		{`[[],[[]]]`, 3},
		{`{"a":"]]]}}}","b":[{"c":"\"[["}]}`, 3},
		{`{"a":"\\","b":[[1]]}`, 3},       // an escaped backslash ends before the quote
		{`{"a":"\\\"[[[[","b":1}`, 1},     // an escaped quote does not end the string
		{`["unterminated [[[[`, 1},        // a string that does not end hides the rest
		{strings.Repeat("[", 5000), 5000}, // not JSON: counted all the same
	} {
		if got := agui.Depth([]byte(c.json)); got != c.want {
			t.Errorf("Depth(%.40s) = %d, want %d", c.json, got, c.want)
		}
	}
}

// TestDecodeRefusesDeepEvents: an event nested deeper than MaxDepth is not
// decoded; it becomes a problem that says how deep it is and what the
// limit is, in words.
func TestDecodeRefusesDeepEvents(t *testing.T) {
	deep := func(levels int) string { // an event levels deep in all
		return strings.Repeat(`{"a":`, levels-1) + "1" + strings.Repeat("}", levels-1)
	}
	atCap := `{"type":"STATE_SNAPSHOT","snapshot":` + deep(agui.MaxDepth) + `}`
	if ev := agui.Decode([]byte(atCap)); reflect.TypeOf(ev) != reflect.TypeFor[*agui.StateSnapshot]() {
		t.Fatalf("an event %d levels deep decodes as %T, want *agui.StateSnapshot", agui.MaxDepth, ev)
	}

	over := `{"type":"STATE_SNAPSHOT","timestamp":1760000000000,"snapshot":` + deep(agui.MaxDepth+1) + `}`
	m, ok := agui.Decode([]byte(over)).(*agui.Malformed)
	if !ok {
		t.Fatalf("an event %d levels deep decodes as %T, want *agui.Malformed", agui.MaxDepth+1, agui.Decode([]byte(over)))
	}
	if !errors.Is(m.Err, agui.ErrTooDeep) || m.EventType() != agui.TypeStateSnapshot {
		t.Errorf("got %s %v, want STATE_SNAPSHOT with ErrTooDeep", m.EventType(), m.Err)
	}
	want := "nested too deeply: its JSON is 1001 levels deep, and agentwatch reads at most 1000"
	if m.Err.Error() != want {
		t.Errorf("message %q, want %q", m.Err, want)
	}
	if _, timed := agui.Time(m); !timed {
		t.Error("the refused event lost its timestamp")
	}

	// Far past what the JSON decoder itself reads (10,000), the message is
	// the same, not the decoder's.
	far := `{"type":"CUSTOM","name":"x","value":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`
	if m, ok := agui.Decode([]byte(far)).(*agui.Malformed); !ok || !strings.Contains(m.Err.Error(), "20001 levels deep") {
		t.Errorf("an event 20,001 levels deep: %#v", agui.Decode([]byte(far)))
	}

	unknown := `{"type":"SOMETHING_NEW","value":` + strings.Repeat("[", 1500) + strings.Repeat("]", 1500) + `}`
	u, ok := agui.Decode([]byte(unknown)).(*model.Unreadable)
	if !ok || u.Reason != "event nested too deeply: its JSON is 1501 levels deep, and agentwatch reads at most 1000" {
		t.Errorf("a deep event of an unknown type: %#v", agui.Decode([]byte(unknown)))
	}
}

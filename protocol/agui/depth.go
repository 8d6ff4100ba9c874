package agui

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/agentwatch/agentwatch/model"
)

// MaxDepth is how deeply JSON may nest in an event, and the agent state in
// a fold: 1,000 levels of objects and arrays, far more than any agent
// sends. Work on a value grows with its depth, and with the square of it
// where a state patch walks a path into it (a patch 9,000 levels deep once
// took 2.4 s and 794 MB); deeper input is refused with a message that says
// so, and the fold goes on.
const MaxDepth = 1000

// ErrTooDeep is what an event nested deeper than MaxDepth is malformed with.
var ErrTooDeep = errors.New("nested too deeply")

// Depth returns how many levels of objects and arrays the JSON text b
// nests (0 for a scalar). It only counts brackets outside strings: it does
// not check that b is JSON.
func Depth(b []byte) int {
	depth, deepest := 0, 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
		case '{', '[':
			depth++
			deepest = max(deepest, depth)
		case '}', ']':
			depth--
		}
	}
	return deepest
}

// stringEnd returns the index of the quote that ends the string starting
// at b[start] (len(b) when it does not end): the next quote after an even
// number of backslashes. It jumps from quote to quote, so a long text
// costs little more than a search.
func stringEnd(b []byte, start int) int {
	i := start
	for {
		j := bytes.IndexByte(b[i+1:], '"')
		if j < 0 {
			return len(b)
		}
		i += 1 + j
		k := i - 1
		for b[k] == '\\' {
			k--
		}
		if (i-1-k)%2 == 0 {
			return i
		}
	}
}

// refuseDeep is the event raw, nested depth levels deep, refused: Malformed
// when it is of a type agentwatch knows (with its common fields, as any
// malformed event, so that its timestamp still paces a replay), else
// Unreadable.
func refuseDeep(raw []byte, depth int) model.Event {
	err := fmt.Errorf("%w: its JSON is %d levels deep, and agentwatch reads at most %d", ErrTooDeep, depth, MaxDepth)
	if tb, ok := peekType(raw); ok {
		if ctor, known := constructors[string(tb)]; known {
			m := &Malformed{Err: err}
			_ = unmarshal(raw, &struct{ *Base }{&m.Base})
			m.Type = ctor.name
			return m
		}
	}
	return &model.Unreadable{Reason: "event " + err.Error(), Offset: -1}
}

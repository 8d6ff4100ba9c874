package fold

import (
	"slices"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// What a checkpoint keeps of the fold's long lists (messages, items, steps,
// runs): the lists cut into chunks, each chunk shared with the fold's
// previous checkpoint when it holds the same objects. A fold changes little
// between two checkpoints (it appends, and copies the few objects it
// changes), so a checkpoint costs the chunks that changed and a pointer per
// chunk, not a copy of every list: a replay's checkpoints of a long log
// stay a small share of the log instead of growing with its square.

// listChunk is how many pointers a chunk holds.
const listChunk = 256

// chunks is a list kept in chunks of listChunk pointers (the last may be
// shorter); chunks are never written once made, so any number of
// checkpoints may share them.
type chunks[T any] struct {
	n     int
	parts [][]*T
}

// chunksOf cuts list into chunks, reusing the chunks of prev that hold the
// same pointers at the same places.
func chunksOf[T any](list []*T, prev chunks[T]) chunks[T] {
	out := chunks[T]{n: len(list), parts: make([][]*T, 0, (len(list)+listChunk-1)/listChunk)}
	for c := 0; c*listChunk < len(list); c++ {
		seg := list[c*listChunk : min(len(list), (c+1)*listChunk)]
		if c < len(prev.parts) && slices.Equal(prev.parts[c], seg) {
			out.parts = append(out.parts, prev.parts[c])
			continue
		}
		out.parts = append(out.parts, slices.Clone(seg))
	}
	return out
}

// list is the chunks put together again: a new list the caller owns.
func (c chunks[T]) list() []*T {
	if c.n == 0 {
		return nil
	}
	out := make([]*T, 0, c.n)
	for _, p := range c.parts {
		out = append(out, p...)
	}
	return out
}

// cpLists are a checkpoint's long lists.
type cpLists struct {
	msgs  chunks[agui.Message]
	items chunks[model.Item]
	steps chunks[model.Step]
	runs  chunks[model.Run]
}

// takeLists cuts st's long lists into chunks, sharing those of prev (the
// fold's previous checkpoint's lists; nil for none).
func takeLists(st *state, prev *cpLists) *cpLists {
	var p cpLists
	if prev != nil {
		p = *prev
	}
	return &cpLists{
		msgs:  chunksOf(st.Reduce.Messages, p.msgs),
		items: chunksOf(st.Display.Items, p.items),
		steps: chunksOf(st.Display.Steps, p.steps),
		runs:  chunksOf(st.Display.Runs, p.runs),
	}
}

// put gives st new lists made of l's chunks.
func (l *cpLists) put(st *state) {
	st.Reduce.Messages = l.msgs.list()
	st.Display.Items = l.items.list()
	st.Display.Steps = l.steps.list()
	st.Display.Runs = l.runs.list()
}

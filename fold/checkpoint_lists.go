package fold

import (
	"github.com/agentwatch/agentwatch/fold/persist"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// What a checkpoint keeps of the fold's long lists (messages, items, steps,
// runs): the lists in blocks, each block shared with the fold's previous
// checkpoint when it holds the same objects (persist.ListOf). A fold
// changes little between two checkpoints (it appends, and copies the few
// objects it changes), so a checkpoint costs the blocks that changed and a
// pointer per block, not a copy of every list: a replay's checkpoints of a
// long log stay a small share of the log instead of growing with its
// square.

// listBlock is how many pointers a block of a checkpoint's list holds.
const listBlock = 256

// cpLists are a checkpoint's long lists.
type cpLists struct {
	msgs  persist.List[*agui.Message]
	items persist.List[*model.Item]
	steps persist.List[*model.Step]
	runs  persist.List[*model.Run]
}

// takeLists keeps st's long lists, sharing the blocks of prev (the fold's
// previous checkpoint's lists; nil for none).
func takeLists(st *state, prev *cpLists) *cpLists {
	var p cpLists
	if prev != nil {
		p = *prev
	}
	return &cpLists{
		msgs:  persist.ListOf(st.Reduce.Messages, p.msgs, listBlock),
		items: persist.ListOf(st.Display.Items, p.items, listBlock),
		steps: persist.ListOf(st.Display.Steps, p.steps, listBlock),
		runs:  persist.ListOf(st.Display.Runs, p.runs, listBlock),
	}
}

// put gives st new lists made of l's blocks.
func (l *cpLists) put(st *state) {
	st.Reduce.Messages = l.msgs.Slice()
	st.Display.Items = l.items.Slice()
	st.Display.Steps = l.steps.Slice()
	st.Display.Runs = l.runs.Slice()
}

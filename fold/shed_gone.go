package fold

import (
	"fmt"
	"slices"

	"github.com/agentwatch/agentwatch/fold/persist"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// What shedding leaves of what it drops: a tombstone per dropped item key,
// message and tool call, so that an event naming one goes as it would have
// without shedding (shed.go).

// gone reports whether the newest item of key was dropped: an event that
// would update it must not add a new one.
func (d *displayState) gone(key itemKey) bool {
	_, ok := d.Gone[key]
	return ok || key.ns == 'm' && d.Forgotten.has(key.id)
}

// tombs hold tombstones by id, in one map per generation: how many Trims
// had forgotten tombstones when each was made (persist.Generations).
// Forgetting drops whole generations at a time and shedding writes only
// the newest, so a checkpoint taken after a Trim (as a replay's are)
// shares every map and copies none. In the exported state they are one
// JSON object by id.
type tombs[V persist.Aged] = persist.Generations[string, V]

// Generation is the generation the message was dropped in.
func (g goneMessage) Generation() uint64 { return g.Gen }

// Generation is the generation the call was dropped in.
func (g goneCall) Generation() uint64 { return g.Gen }

// goneMessage is a message Trim shed: the role of the first message with
// its id, and Next, the first message after it that stayed ("" when none
// did). The reference still has the message, just before Next, or before
// what Next's own tombstone says when Next went too.
type goneMessage struct {
	Role agui.Role `json:"role"`
	Next string    `json:"next,omitempty"`
	// Gen is how many Trims had forgotten tombstones when the message was
	// dropped: TombstonesRecent drops them once they are a call old
	// (forget.go).
	Gen uint64 `json:"gen,omitzero"`
}

// goneCall is a tool call of a message Trim shed: its name, and where
// the reference puts a result for it: when After, before Next (the first
// message that stayed after the results following the call's assistant
// message), else at the end.
type goneCall struct {
	Name  string `json:"name"`
	After bool   `json:"after,omitzero"`
	Next  string `json:"next,omitempty"`
	// Gen is as goneMessage's.
	Gen uint64 `json:"gen,omitzero"`
}

// after sets where a result for call goes, ms[i] being the first message
// holding it, as toolResult finds its owner: that message when it is the
// assistant's, else the first assistant message holding the call.
func (g goneCall) after(ms []*agui.Message, i int, call string, from []string) goneCall {
	for ; i < len(ms); i++ {
		if ms[i].Role == agui.RoleAssistant && slices.ContainsFunc(ms[i].ToolCalls, func(tc agui.ToolCall) bool { return tc.ID == call }) {
			break
		}
	}
	if i == len(ms) {
		return g
	}
	i++
	for i < len(ms) && ms[i].Role == agui.RoleTool {
		i++
	}
	g.After, g.Next = true, from[i]
	return g
}

// before returns where a message goes that the reference has just before
// the message next: next's index, or where next's tombstone places it when
// next was dropped too; the end when nothing places it.
func (r *reduceState) before(next string) int {
	for range r.Gone.Len() + 1 {
		if next == "" {
			break
		}
		if m := r.find(next); m != nil {
			return r.index(m)
		}
		g, ok := r.Gone.Get(next)
		if !ok {
			break
		}
		next = g.Next
	}
	return len(r.Messages)
}

// insert puts a new message at index at.
func (r *reduceState) insert(at int, m *agui.Message) {
	r.createdMessage(m)
	r.Messages = slices.Insert(r.Messages, at, m)
	r.reindex() // rare: only for messages Trim shed
	if at == len(r.Messages)-1 && len(r.Tail)+len(r.TailCalls) > 0 {
		r.follow(m.ID)
	}
}

// follow makes id, a message just added at the end, the Next of the
// tombstones of messages that were last when dropped.
func (r *reduceState) follow(id string) {
	for _, t := range r.Tail {
		if g, ok := r.Gone.Get(t); ok && g.Next == "" {
			g.Next = id
			r.Gone.Set(t, g)
		}
	}
	for _, t := range r.TailCalls {
		if g, ok := r.GoneCalls.Get(t); ok && g.Next == "" {
			g.Next = id
			r.GoneCalls.Set(t, g)
		}
	}
	r.Tail, r.TailCalls = nil, nil
}

// MarshalText writes a key as its kind, a colon and its id, for the
// tombstones of the exported state.
func (k itemKey) MarshalText() ([]byte, error) {
	return append([]byte{k.ns, ':'}, k.id...), nil
}

// UnmarshalText reads a key MarshalText wrote.
func (k *itemKey) UnmarshalText(b []byte) error {
	if len(b) < 2 || b[1] != ':' {
		return fmt.Errorf("item key %q: want <kind>:<id>", b)
	}
	k.ns, k.id = b[0], string(b[2:])
	return nil
}

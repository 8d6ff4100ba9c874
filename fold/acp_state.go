package fold

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/model"
)

// The rules only an ACP fold checks (see Rule).
const (
	// RuleACPSession: a message for another session than the one the fold shows.
	RuleACPSession Rule = "acp-session"
	// RuleACPResponse: a response whose id names no request in flight.
	RuleACPResponse Rule = "acp-response"
)

// MaxTerminalBytes caps the output kept of one terminal; what a command
// prints beyond it is dropped: huge output must not sink the
// viewer.
const MaxTerminalBytes = 16 << 20

// acpState is what the fold knows of an ACP session beyond its items,
// steps and runs. Its maps hold values whose slices and pointers are
// replaced, never changed in place, so a shallow copy of each map is an
// independent copy (see clone).
type acpState struct {
	Session model.Session `json:"session,omitzero"`
	// Msg is the message chunks are appended to, until something else is
	// shown or a chunk of another role or message id arrives.
	Msg acpMessage `json:"msg,omitzero"`
	// Pending are the requests not answered yet, by pendingKey.
	Pending map[string]acpRequest `json:"pending,omitempty"`
	// Terminals are the terminals seen, by terminal id.
	Terminals map[string]acpTerminal `json:"terminals,omitempty"`
	// Tools are the tool calls that show a terminal, by tool call id: what
	// their Result is made of.
	Tools map[string]acpTool `json:"tools,omitempty"`
	// Runs counts the session's prompt runs: the next is numbered Runs+1.
	Runs int `json:"runs,omitempty"`
	// PlanSeq is the plan item (0 before the first plan).
	PlanSeq uint64 `json:"planSeq,omitempty"`
	// TurnSeq is the record that began the turn now going on: a prompt,
	// or a user's message replayed by session/load. Agents number tool
	// calls per turn, so an id seen in an earlier turn names a new call.
	TurnSeq uint64 `json:"turnSeq,omitempty"`
	// Echo is the prompt an agent may send back as user message chunks,
	// and how much of its text they have repeated so far.
	Echo acpEcho `json:"echo,omitzero"`

	// out holds the output of terminals being streamed, so a chunk costs
	// its own length: a terminal's Output is the builder's String, which
	// appending never changes. Derived and private to one fold: a copy
	// starts without it (see clone), and builds it from Output again.
	out map[string]*strings.Builder
	// shows finds, by terminal id, the tool calls in Tools that show it
	// (acp_terminal_calls.go); a copy starts without it too.
	shows map[string][]string
}

// acpMessage is the message chunks go to: the update kind that opened it,
// its messageId, and its item.
type acpMessage struct {
	Kind string `json:"kind,omitempty"`
	ID   string `json:"id,omitempty"`
	Seq  uint64 `json:"seq,omitempty"`
}

// acpEcho is the prompt item of the turn (Seq) and how many bytes of its
// text user message chunks have repeated (Off); a chunk that does not
// continue it ends the echo (Seq 0).
type acpEcho struct {
	Seq uint64 `json:"seq,omitempty"`
	Off int    `json:"off,omitempty"`
}

// acpRequest is a request in flight, with what its answer will need.
type acpRequest struct {
	Method string `json:"method"`
	// RunID is a prompt's run; Mode the mode a set_mode asks for.
	RunID string `json:"runId,omitempty"`
	Mode  string `json:"mode,omitempty"`
	// ItemSeq is a permission request's item.
	ItemSeq uint64 `json:"itemSeq,omitempty"`
	// TerminalID is the terminal of a terminal/* request.
	TerminalID string `json:"terminalId,omitempty"`
}

// acpTerminal is a terminal's output so far and how it ended.
type acpTerminal struct {
	Output   string `json:"output,omitempty"`
	ExitCode *int   `json:"exitCode,omitempty"`
	Signal   string `json:"signal,omitempty"`
	// Cut is set once output was dropped at MaxTerminalBytes.
	Cut bool `json:"cut,omitempty"`
}

// acpTool is what a tool call's Result is made of when it shows a
// terminal: the text of its content blocks, then each terminal's output.
type acpTool struct {
	Text      string   `json:"text,omitempty"`
	Terminals []string `json:"terminals,omitempty"`
}

// clone returns an independent copy, without the private output builders.
func (a *acpState) clone() acpState {
	n := *a
	n.Pending = maps.Clone(a.Pending)
	n.Terminals = maps.Clone(a.Terminals)
	n.Tools = maps.Clone(a.Tools)
	n.out, n.shows = nil, nil
	return n
}

// Session returns what the agent has said about the session (ACP): its
// id, title, mode, commands, options and usage. Its slices are the fold's
// own: read them, do not change them.
func (f *Fold) Session() model.Session { return f.st.ACP.Session }

// itemSeq finds the item numbered seq (nil when there is none, as after
// eviction), ready to be changed.
func (d *displayState) itemSeq(seq uint64) *model.Item {
	if seq == 0 {
		return nil
	}
	i, ok := slices.BinarySearchFunc(d.Items, seq, func(x *model.Item, seq uint64) int { return cmp.Compare(x.Seq, seq) })
	if !ok {
		return nil
	}
	return d.ownItem(d.Items[i])
}

package model

// AgentState is what an agent's own bookkeeping says of one of its
// sessions now: Claude Code's registry of running sessions, Codex's
// thread locks. It is learnt beside the session's file, not from it, and
// changes while the file stays as it was.
type AgentState uint8

const (
	// AgentUnknown: not an agent's session, or nothing known of it yet.
	AgentUnknown AgentState = iota
	// AgentEnded: no running agent has the session open.
	AgentEnded
	// AgentIdle: the agent has the session open and waits for a prompt.
	AgentIdle
	// AgentWorking: the agent is at work on a turn.
	AgentWorking
	// AgentWaiting: the agent asked the person something (a permission,
	// a question) and waits for the answer.
	AgentWaiting
	// AgentOpen: the agent has the session open without saying what it
	// does; whether its last turn is still open decides (Resolve).
	AgentOpen
)

// Resolve is the state with AgentOpen decided by whether the session's
// last turn is still open (a run of its fold has not finished): working
// when it is, idle when not. Other states are returned as they are.
func (s AgentState) Resolve(turnOpen bool) AgentState {
	if s != AgentOpen {
		return s
	}
	if turnOpen {
		return AgentWorking
	}
	return AgentIdle
}

// Known reports whether the state says anything (it is not AgentUnknown).
func (s AgentState) Known() bool { return s != AgentUnknown }

// Busy reports whether the agent is at the session now: working or
// waiting for the person, never merely holding it open.
func (s AgentState) Busy() bool { return s == AgentWorking || s == AgentWaiting }

// String is the state in the words the screen shows: "working", "waiting
// for you", "idle", "ended", "open", "" for AgentUnknown.
func (s AgentState) String() string {
	switch s {
	case AgentEnded:
		return "ended"
	case AgentIdle:
		return "idle"
	case AgentWorking:
		return "working"
	case AgentWaiting:
		return "waiting for you"
	case AgentOpen:
		return "open"
	}
	return ""
}

// AgentStates are the states of agents' sessions by their file's path.
type AgentStates map[string]AgentState

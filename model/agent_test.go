package model

import "testing"

func TestAgentState(t *testing.T) {
	for _, c := range []struct {
		s          AgentState
		word       string
		open, shut AgentState
		busy       bool
	}{
		{AgentUnknown, "", AgentUnknown, AgentUnknown, false},
		{AgentEnded, "ended", AgentEnded, AgentEnded, false},
		{AgentIdle, "idle", AgentIdle, AgentIdle, false},
		{AgentWorking, "working", AgentWorking, AgentWorking, true},
		{AgentWaiting, "waiting for you", AgentWaiting, AgentWaiting, true},
		{AgentOpen, "open", AgentWorking, AgentIdle, false},
	} {
		if c.s.String() != c.word || c.s.Resolve(true) != c.open || c.s.Resolve(false) != c.shut || c.s.Busy() != c.busy || c.s.Known() != (c.s != AgentUnknown) {
			t.Errorf("%d: %q, resolved %v/%v, busy %v", c.s, c.s.String(), c.s.Resolve(true), c.s.Resolve(false), c.s.Busy())
		}
	}
}

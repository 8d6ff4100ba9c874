package agent

import (
	"encoding/json"
	"sync"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// The session modes the agent offers.
const (
	// ModeCode is the mode a new session starts in.
	ModeCode acp.SessionModeId = "code"
	// ModePlan is the other mode; the `all` script's switch_mode tool
	// toggles between the two.
	ModePlan acp.SessionModeId = "plan"
)

// modeState is the mode block of session/new and session/load responses.
func modeState(current acp.SessionModeId) *acp.SessionModeState {
	return &acp.SessionModeState{
		CurrentModeId: current,
		AvailableModes: []acp.SessionMode{
			{Id: ModeCode, Name: "Code", Description: acp.Ptr("Edit files and run commands")},
			{Id: ModePlan, Name: "Plan", Description: acp.Ptr("Read and plan, change nothing")},
		},
	}
}

// session is one conversation: its metadata and every update sent in it,
// kept as the raw JSON of each `update` object so a replay sends the same
// bytes, unknown kinds included.
type session struct {
	mu        sync.Mutex
	id        acp.SessionId
	cwd       string
	title     string
	updatedAt time.Time
	mode      acp.SessionModeId
	history   []json.RawMessage
}

func (s *session) record(update json.RawMessage, now time.Time) {
	s.mu.Lock()
	s.history = append(s.history, update)
	s.updatedAt = now
	s.mu.Unlock()
}

func (s *session) setMode(m acp.SessionModeId) {
	s.mu.Lock()
	s.mode = m
	s.mu.Unlock()
}

func (s *session) currentMode() acp.SessionModeId {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.mode
}

func (s *session) setTitle(t string) {
	s.mu.Lock()
	s.title = t
	s.mu.Unlock()
}

// historyCopy returns the history as of now; later updates do not change it.
func (s *session) historyCopy() []json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]json.RawMessage(nil), s.history...)
}

// info is the session's entry in a session/list answer.
func (s *session) info() acp.SessionInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := acp.SessionInfo{SessionId: s.id, Cwd: s.cwd, UpdatedAt: acp.Ptr(s.updatedAt.UTC().Format(time.RFC3339))}
	if s.title != "" {
		in.Title = acp.Ptr(s.title)
	}
	return in
}

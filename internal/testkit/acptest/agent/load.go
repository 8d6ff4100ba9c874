package agent

import (
	"context"
	"encoding/json"

	acp "github.com/coder/acp-go-sdk"
)

// LoadSession replays the session's stored history as session/update
// notifications, split around the response by Options.LoadSplit:
//
//   - the first `before` updates of the history are written before the
//     response (so an SDK client has handled them when LoadSession returns);
//   - the response follows, with `_meta.acptest.updatesBeforeResponse` and
//     `updatesAfterResponse` giving the two counts;
//   - then, strictly after the response line, the rest of the history and a
//     closing available_commands_update (counted in updatesAfterResponse).
//
// With the default LoadSplitHalf, `before` is half the history rounded up.
// Replayed lines are the stored bytes of each original update, unknown
// kinds included.
func (f *fixture) LoadSession(ctx context.Context, p acp.LoadSessionRequest) (acp.LoadSessionResponse, error) {
	if err := f.checkAuth(); err != nil {
		return acp.LoadSessionResponse{}, err
	}
	s, err := f.session(p.SessionId)
	if err != nil {
		return acp.LoadSessionResponse{}, err
	}
	history := s.historyCopy()
	before := splitPoint(f.opts.LoadSplit, len(history))
	f.opts.Logger.Info("session/load", "sessionId", p.SessionId, "history", len(history), "before", before)

	for _, u := range history[:before] {
		if err := f.replay(s.id, u); err != nil {
			return acp.LoadSessionResponse{}, err
		}
	}
	rest := history[before:]
	token := f.nextToken("load")
	f.wire.afterResponse(token, func() {
		for _, u := range rest {
			if err := f.replay(s.id, u); err != nil {
				f.opts.Logger.Error("replay after response", "err", err)
				return
			}
		}
		if err := f.notify(context.Background(), s.id, commandsUpdate()); err != nil {
			f.opts.Logger.Error("available_commands_update", "err", err)
		}
	})
	return acp.LoadSessionResponse{
		Modes: modeState(s.currentMode()),
		Meta:  splitMeta(token, before, len(rest)+1),
	}, nil
}

// splitPoint is how many of n history updates go before the response.
func splitPoint(split LoadSplit, n int) int {
	switch split {
	case LoadSplitBefore:
		return n
	case LoadSplitAfter:
		return 0
	default:
		return (n + 1) / 2
	}
}

// replay sends one stored update as it was first sent.
func (f *fixture) replay(id acp.SessionId, update json.RawMessage) error {
	return f.wire.notifyRaw(acp.ClientMethodSessionUpdate, rawNotification{SessionID: id, Update: update})
}

// rawNotification is session/update params built outside the SDK's types.
type rawNotification struct {
	SessionID acp.SessionId   `json:"sessionId"`
	Update    json.RawMessage `json:"update"`
}

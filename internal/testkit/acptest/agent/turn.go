package agent

import (
	"context"
	"errors"
	"path/filepath"
	"time"

	acp "github.com/coder/acp-go-sdk"
)

// errCancelled ends a turn that the client cancelled; Prompt answers it
// with stopReason `cancelled`, not an error.
var errCancelled = errors.New("turn cancelled")

// turn is one session/prompt being answered.
type turn struct {
	f     *fixture
	s     *session
	ctx   context.Context // cancelled by session/cancel
	delay time.Duration   // paused after each update (Options.Delay)
}

// send sends a typed update unless the turn was cancelled.
func (t *turn) send(u acp.SessionUpdate) error {
	if t.ctx.Err() != nil {
		return errCancelled
	}
	if err := t.f.sendUpdate(t.ctx, t.s, u); err != nil {
		return err
	}
	return t.pause(t.delay)
}

// sendRaw sends an update the SDK cannot express unless the turn was
// cancelled.
func (t *turn) sendRaw(update map[string]any) error {
	if t.ctx.Err() != nil {
		return errCancelled
	}
	if err := t.f.sendRaw(t.s, update); err != nil {
		return err
	}
	return t.pause(t.delay)
}

// sendAll sends updates in order, stopping at the first failure.
func (t *turn) sendAll(us ...acp.SessionUpdate) error {
	for _, u := range us {
		if err := t.send(u); err != nil {
			return err
		}
	}
	return nil
}

// pause waits d, or less if the turn is cancelled.
func (t *turn) pause(d time.Duration) error {
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.ctx.Done():
		return errCancelled
	case <-timer.C:
		return nil
	}
}

// clientErr turns a failed agent→client request into errCancelled when the
// turn was cancelled meanwhile (the SDK then aborts the request and sends
// `$/cancel_request`), and returns nil otherwise so the caller can report
// the failure in the transcript.
func (t *turn) clientErr(err error) error {
	if err != nil && t.ctx.Err() != nil {
		return errCancelled
	}
	return nil
}

// path names a file under the session's working directory.
func (t *turn) path(rel string) string { return filepath.Join(t.s.cwd, rel) }

// caps returns what the client advertised in initialize.
func (t *turn) caps() acp.ClientCapabilities { return t.f.clientCaps() }

// message streams text as agent_message_chunks of one message.
func (t *turn) message(chunks ...string) error {
	id := newUUID()
	for _, c := range chunks {
		err := t.send(acp.SessionUpdate{AgentMessageChunk: &acp.SessionUpdateAgentMessageChunk{
			Content: acp.TextBlock(c), MessageId: acp.Ptr(id),
		}})
		if err != nil {
			return err
		}
	}
	return nil
}

// thought streams text as agent_thought_chunks of one thought.
func (t *turn) thought(chunks ...string) error {
	id := newUUID()
	for _, c := range chunks {
		err := t.send(acp.SessionUpdate{AgentThoughtChunk: &acp.SessionUpdateAgentThoughtChunk{
			Content: acp.TextBlock(c), MessageId: acp.Ptr(id),
		}})
		if err != nil {
			return err
		}
	}
	return nil
}

package agent

import (
	"context"
	"encoding/json"
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// sendUpdate sends a typed update through the SDK and appends it to the
// session's history.
//
// The SDK refuses to send on a cancelled context, yet a cancelled turn may
// still report (ACP lets the agent send updates until it answers the
// prompt), so the send itself never inherits cancellation.
func (f *fixture) sendUpdate(ctx context.Context, s *session, u acp.SessionUpdate) error {
	b, err := json.Marshal(u)
	if err != nil {
		return fmt.Errorf("marshal update: %w", err)
	}
	if err := f.notify(ctx, s.id, u); err != nil {
		return err
	}
	s.record(b, f.opts.Now())
	return nil
}

// notify sends a typed update through the SDK without recording it, for
// connection state such as the slash-command list.
func (f *fixture) notify(ctx context.Context, id acp.SessionId, u acp.SessionUpdate) error {
	err := f.peer().SessionUpdate(context.WithoutCancel(ctx), acp.SessionNotification{SessionId: id, Update: u})
	if err != nil {
		return fmt.Errorf("session/update: %w", err)
	}
	return nil
}

// sendRaw sends an update the SDK cannot express (an unknown kind, an
// explicit null) straight onto the wire and records it.
func (f *fixture) sendRaw(s *session, update map[string]any) error {
	b, err := json.Marshal(update)
	if err != nil {
		return fmt.Errorf("marshal raw update: %w", err)
	}
	if err := f.replay(s.id, b); err != nil {
		return fmt.Errorf("raw session/update: %w", err)
	}
	s.record(b, f.opts.Now())
	return nil
}

// Commands advertised in available_commands_update. Each is also a prompt
// command: a prompt of "/burst 100" runs `burst 100`.
var commands = []acp.AvailableCommand{
	{Name: "all", Description: "Stream every update kind, ask one permission, touch files"},
	{Name: "permission", Description: "Only the permission flow"},
	{Name: "fs", Description: "Read a file through the client", Input: &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: "path"}}},
	{Name: "burst", Description: "Send N updates as fast as possible", Input: &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: "count (default 20000)"}}},
	{Name: "calls", Description: "Make N tool calls, each with a message", Input: &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: "count (default 5000)"}}},
	{Name: "slow", Description: "An update every 200 ms for about 10 s"},
	{Name: "crash", Description: "Exit the agent process mid-turn"},
	{Name: "refuse", Description: "End the turn with stopReason refusal"},
	{Name: "huge", Description: "One message of N bytes, on one line", Input: &acp.AvailableCommandInput{Unstructured: &acp.UnstructuredCommandInput{Hint: "bytes"}}},
}

func commandsUpdate() acp.SessionUpdate {
	return acp.SessionUpdate{AvailableCommandsUpdate: &acp.SessionAvailableCommandsUpdate{AvailableCommands: commands}}
}

package fold

import (
	"fmt"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// This file folds ACP records into the same display model
// as AG-UI: message and thought chunks into message and reasoning items, a
// prompt and its answer into a run, tool calls into steps, the plan into a
// plan item, and what the agent says about the session into Session. The
// rest of the JSON-RPC traffic (initialize, fs/*, terminal/*) shows nothing
// itself but feeds terminals and answers.

// applyACP folds one record read as ACP.
func (f *Fold) applyACP(c *ctx, rec *model.Record) error {
	switch ev := rec.Event.(type) {
	case nil:
		f.diagnose(c, "", RuleUnreadable, "record has no event")
	case *model.Unreadable:
		f.diagnose(c, "", RuleUnreadable, ev.Reason)
	case *acp.Malformed:
		typ := ev.Type
		if typ == "" {
			typ = "message"
		}
		f.diagnose(c, ev.Type, RuleMalformed, say("%s: %v", typ, ev.Err))
	case acp.Update:
		if err := f.acpSession(c, ev.EventType(), ev.Session()); err != nil {
			return err
		}
		f.acpUpdate(c, ev)
	case *acp.Response:
		return f.acpResponse(c, ev)
	case acp.Request:
		return f.acpRequest(c, ev)
	case *acp.Cancel:
		// The turn ends with the prompt's answer (stopReason cancelled),
		// which settles what is unfinished; the notice itself shows nothing.
		return f.acpSession(c, ev.EventType(), ev.SessionID)
	case *acp.Notification:
		// Another notification ($/cancel_request, an extension): nothing to show.
	default:
		f.diagnose(c, rec.Event.EventType(), RuleUnreadable, say("not an ACP message (%s)", rec.Event.EventType()))
	}
	return nil
}

// acpSession holds the fold to one session: the first one a message names
// is the fold's; a message for another is reported and not applied.
func (f *Fold) acpSession(c *ctx, typ, id string) error {
	a := &f.st.ACP
	switch {
	case id == "" || id == a.Session.ID:
		return nil
	case a.Session.ID == "":
		a.Session.ID = id
		if f.st.ThreadID == "" {
			f.st.ThreadID = id
		}
		return nil
	}
	msg := say("message is for session '%s' but this fold shows session '%s'; it was not applied", id, a.Session.ID)
	f.diagnose(c, typ, RuleACPSession, msg)
	return fmt.Errorf("record #%d: %w: %s", c.seq, ErrCorrelation, msg)
}

// acpUpdate folds one session/update of the fold's session.
func (f *Fold) acpUpdate(c *ctx, u acp.Update) {
	switch e := u.(type) {
	case *acp.UserMessageChunk:
		f.acpChunk(c, e.EventType(), &e.Chunk)
	case *acp.AgentMessageChunk:
		f.acpChunk(c, e.EventType(), &e.Chunk)
	case *acp.AgentThoughtChunk:
		f.acpChunk(c, e.EventType(), &e.Chunk)
	case *acp.ToolCall:
		f.acpToolCall(c, &e.ToolCallFields, true)
	case *acp.ToolCallUpdate:
		f.acpToolCall(c, &e.ToolCallFields, false)
	case *acp.Plan:
		f.acpPlan(c, e.Entries)
	case *acp.AvailableCommandsUpdate:
		f.acpCommands(e.Commands)
	case *acp.CurrentModeUpdate:
		f.st.ACP.Session.Mode = e.ModeID
	case *acp.ConfigOptionUpdate:
		f.acpOptions(e.Options)
	case *acp.SessionInfoUpdate:
		if e.TitleSet {
			f.st.ACP.Session.Title = e.Title
		}
		if !e.UpdatedAt.IsZero() {
			f.st.ACP.Session.UpdatedAt = e.UpdatedAt
		}
	case *acp.UsageUpdate:
		f.acpUsage(e)
	case *acp.UnknownUpdate:
		f.warn(c, e.Kind, say("unknown session update '%s' kept as is", e.Kind))
		f.acpEndMessage(c)
		f.st.Display.add(c, &f.st, &model.Item{ID: e.Kind, Kind: model.ItemUnknown, Status: model.StatusCompleted, Name: e.Kind, Data: limitData(e.Raw)})
	}
}

// pendingKey names a request in flight: the direction it went and its id.
func pendingKey(dir acp.Direction, id acp.ID) string { return string(dir) + " " + id.Key() }

// acpRequest folds a request either way: it is remembered until answered,
// and a prompt, a permission request or a load shows at once.
func (f *Fold) acpRequest(c *ctx, r acp.Request) error {
	b := r.Req()
	var session string
	switch e := r.(type) {
	case *acp.LoadSession:
		session = e.SessionID
	case *acp.Prompt:
		session = e.SessionID
	case *acp.SetMode:
		session = e.SessionID
	case *acp.RequestPermission:
		session = e.SessionID
	case *acp.FSRequest:
		session = e.SessionID
	case *acp.TerminalRequest:
		session = e.SessionID
	}
	if err := f.acpSession(c, b.Method, session); err != nil {
		return err
	}
	dir := b.Dir
	if dir == "" {
		dir = acp.MethodDirection(b.Method)
	}
	key := pendingKey(dir, b.ID)
	a := &f.st.ACP
	if _, dup := a.Pending[key]; dup {
		f.warn(c, b.Method, say("request id %s is already in flight; the earlier request will get no answer", b.ID.Raw()))
	}
	req := acpRequest{Method: b.Method}
	switch e := r.(type) {
	case *acp.Prompt:
		req.RunID = f.acpPrompt(c, e)
	case *acp.LoadSession:
		f.acpEndMessage(c)
	case *acp.SetMode:
		req.Mode = e.ModeID
	case *acp.RequestPermission:
		req.ItemSeq = f.acpPermission(c, e)
	case *acp.TerminalRequest:
		req.TerminalID = e.TerminalID
	}
	if a.Pending == nil {
		a.Pending = map[string]acpRequest{}
	}
	a.Pending[key] = req
	return nil
}

// acpResponse folds the answer to a request in flight.
func (f *Fold) acpResponse(c *ctx, r *acp.Response) error {
	a := &f.st.ACP
	var keys []string
	if r.Dir != "" {
		keys = []string{pendingKey(r.Dir.Opposite(), r.ID), pendingKey("", r.ID)}
	} else {
		keys = []string{pendingKey(acp.Send, r.ID), pendingKey(acp.Recv, r.ID), pendingKey("", r.ID)}
	}
	key := ""
	for _, k := range keys {
		if _, ok := a.Pending[k]; ok {
			key = k
			break
		}
	}
	if key == "" {
		f.diagnose(c, acp.TypeResponse, RuleACPResponse, say("response to request id %s, which is not in flight; it was not applied", r.ID.Raw()))
		return nil
	}
	req := a.Pending[key]
	if req.Method == acp.MethodSessionNew && r.Error == nil {
		var res acp.NewSessionResult
		if r.Decode(&res) == nil {
			if err := f.acpSession(c, req.Method, res.SessionID); err != nil {
				return err
			}
		}
	}
	delete(a.Pending, key)
	if len(a.Pending) == 0 {
		a.Pending = nil // an export must not tell an emptied map from none (law 1)
	}
	switch req.Method {
	case acp.MethodSessionPrompt:
		f.acpPromptEnd(c, req.RunID, r)
	case acp.MethodSessionNew, acp.MethodSessionLoad, acp.MethodSessionResume:
		f.acpSessionResult(c, r)
	case acp.MethodSessionSetMode:
		if r.Error == nil && req.Mode != "" {
			a.Session.Mode = req.Mode
		}
	case acp.MethodRequestPermission:
		f.acpPermissionAnswer(c, req.ItemSeq, r)
	case acp.MethodTerminalOutput, acp.MethodTerminalWait:
		f.acpTerminalAnswer(c, req, r)
	}
	return nil
}

package acpconn

import (
	"context"
	"slices"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/agentwatch/agentwatch/model"
)

// handler answers the agent's requests; it is the SDK's Client. Session
// updates are not decoded here: the fold reads them from the journal's raw
// lines (dispatching on each update's own kind), so this returns at once
// and the SDK's notification queue never fills.
type handler Conn

var _ sdk.Client = (*handler)(nil)

// SessionUpdate only counts the update for the gate: see handler.
func (h *handler) SessionUpdate(context.Context, sdk.SessionNotification) error {
	if h.opts.handlerDelay > 0 {
		time.Sleep(h.opts.handlerDelay)
	}
	h.gate.done()
	return nil
}

// RequestPermission asks the user (or applies --permissions).
func (h *handler) RequestPermission(ctx context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	req := model.PermissionRequest{ToolCallID: string(p.ToolCall.ToolCallId)}
	if p.ToolCall.Title != nil {
		req.Title = *p.ToolCall.Title
	}
	for _, o := range p.Options {
		req.Options = append(req.Options, model.PermissionOption{ID: string(o.OptionId), Name: o.Name, Kind: string(o.Kind)})
	}
	id, ok := (*Conn)(h).perms.decide(ctx, req)
	if !ok {
		return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeCancelled()}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.NewRequestPermissionOutcomeSelected(sdk.PermissionOptionId(id))}, nil
}

// ReadTextFile serves a file inside the session folder.
func (h *handler) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	line, limit := 0, 0
	if p.Line != nil {
		line = *p.Line
	}
	if p.Limit != nil {
		limit = *p.Limit
	}
	text, err := h.folder.Read(p.Path, line, limit)
	if err != nil {
		return sdk.ReadTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"path": p.Path, "error": err.Error()})
	}
	return sdk.ReadTextFileResponse{Content: text}, nil
}

// WriteTextFile writes a file inside the session folder, when allowed.
func (h *handler) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	if !h.opts.AllowWrite {
		return sdk.WriteTextFileResponse{}, sdk.NewMethodNotFound("fs/write_text_file (agentwatch runs without --allow-write)")
	}
	if err := h.folder.Write(p.Path, p.Content); err != nil {
		return sdk.WriteTextFileResponse{}, sdk.NewInvalidParams(map[string]any{"path": p.Path, "error": err.Error()})
	}
	return sdk.WriteTextFileResponse{}, nil
}

var errNoTerminal = sdk.NewMethodNotFound("terminal (agentwatch runs without --allow-terminal)")

// CreateTerminal runs a command in the session folder, when allowed.
func (h *handler) CreateTerminal(_ context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	if !h.opts.AllowTerminal {
		return sdk.CreateTerminalResponse{}, errNoTerminal
	}
	env := map[string]string{}
	for _, e := range p.Env {
		env[e.Name] = e.Value
	}
	cwd, limit := "", 0
	if p.Cwd != nil {
		cwd = *p.Cwd
	}
	if p.OutputByteLimit != nil {
		limit = *p.OutputByteLimit
	}
	id, err := h.terms.Create(p.Command, slices.Clone(p.Args), env, cwd, limit)
	if err != nil {
		return sdk.CreateTerminalResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return sdk.CreateTerminalResponse{TerminalId: id}, nil
}

// TerminalOutput reports a terminal's output so far.
func (h *handler) TerminalOutput(_ context.Context, p sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	if !h.opts.AllowTerminal {
		return sdk.TerminalOutputResponse{}, errNoTerminal
	}
	out, trunc, st, err := h.terms.Output(p.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	resp := sdk.TerminalOutputResponse{Output: out, Truncated: trunc}
	if st != nil {
		resp.ExitStatus = &sdk.TerminalExitStatus{ExitCode: st.Code, Signal: st.Signal}
	}
	return resp, nil
}

// WaitForTerminalExit waits for a terminal's command to end.
func (h *handler) WaitForTerminalExit(ctx context.Context, p sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	if !h.opts.AllowTerminal {
		return sdk.WaitForTerminalExitResponse{}, errNoTerminal
	}
	st, err := h.terms.WaitForExit(ctx, p.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return sdk.WaitForTerminalExitResponse{ExitCode: st.Code, Signal: st.Signal}, nil
}

// KillTerminal stops a terminal's command.
func (h *handler) KillTerminal(_ context.Context, p sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	if !h.opts.AllowTerminal {
		return sdk.KillTerminalResponse{}, errNoTerminal
	}
	if err := h.terms.Kill(p.TerminalId); err != nil {
		return sdk.KillTerminalResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return sdk.KillTerminalResponse{}, nil
}

// ReleaseTerminal frees a terminal.
func (h *handler) ReleaseTerminal(_ context.Context, p sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	if !h.opts.AllowTerminal {
		return sdk.ReleaseTerminalResponse{}, errNoTerminal
	}
	if err := h.terms.Release(p.TerminalId); err != nil {
		return sdk.ReleaseTerminalResponse{}, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return sdk.ReleaseTerminalResponse{}, nil
}

package agent

import (
	"context"
	"path/filepath"

	acp "github.com/coder/acp-go-sdk"
)

// Initialize records the client's capabilities and advertises loadSession,
// session/list and image prompts, plus AuthMethodID when auth is required.
func (f *fixture) Initialize(_ context.Context, p acp.InitializeRequest) (acp.InitializeResponse, error) {
	<-f.ready
	f.mu.Lock()
	f.caps = p.ClientCapabilities
	f.mu.Unlock()
	f.opts.Logger.Info("initialize", "protocolVersion", p.ProtocolVersion,
		"fs.read", p.ClientCapabilities.Fs.ReadTextFile, "fs.write", p.ClientCapabilities.Fs.WriteTextFile,
		"terminal_output", f.terminalMeta())
	if f.opts.InitError != "" {
		f.opts.Logger.Error("cannot start", "reason", f.opts.InitError)
		return acp.InitializeResponse{}, &acp.RequestError{Code: -32603, Message: f.opts.InitError}
	}
	resp := acp.InitializeResponse{
		ProtocolVersion: acp.ProtocolVersionNumber,
		AgentCapabilities: acp.AgentCapabilities{
			LoadSession:         !f.opts.NoLoad,
			PromptCapabilities:  acp.PromptCapabilities{Image: true},
			SessionCapabilities: acp.SessionCapabilities{List: &acp.SessionListCapabilities{}},
		},
		AgentInfo:   &acp.Implementation{Name: "acptest-fixture", Title: acp.Ptr("ACP fixture agent"), Version: "1.0.0"},
		AuthMethods: []acp.AuthMethod{},
	}
	if f.opts.RequireAuth {
		resp.AuthMethods = []acp.AuthMethod{{Agent: &acp.AuthMethodAgent{
			Id: AuthMethodID, Name: "Fixture token",
			Description: acp.Ptr("Accepts any client; exists to exercise the auth-required flow"),
		}}}
	}
	return resp, nil
}

// Authenticate accepts AuthMethodID and rejects any other method.
func (f *fixture) Authenticate(_ context.Context, p acp.AuthenticateRequest) (acp.AuthenticateResponse, error) {
	if p.MethodId != AuthMethodID {
		return acp.AuthenticateResponse{}, acp.NewInvalidParams(map[string]any{"methodId": p.MethodId, "want": AuthMethodID})
	}
	f.mu.Lock()
	f.authenticated = true
	f.mu.Unlock()
	f.opts.Logger.Info("authenticated", "methodId", p.MethodId)
	return acp.AuthenticateResponse{}, nil
}

// NewSession creates a session in mode code and, right after the response,
// sends available_commands_update (as Claude's adapter does).
func (f *fixture) NewSession(_ context.Context, p acp.NewSessionRequest) (acp.NewSessionResponse, error) {
	if err := f.checkAuth(); err != nil {
		return acp.NewSessionResponse{}, err
	}
	if !filepath.IsAbs(p.Cwd) {
		return acp.NewSessionResponse{}, acp.NewInvalidParams(map[string]any{"cwd": p.Cwd, "error": "cwd must be absolute"})
	}
	s := &session{id: acp.SessionId("fx-" + newUUID()), cwd: p.Cwd, mode: ModeCode, updatedAt: f.opts.Now()}
	f.opts.Store.add(s)
	if err := f.opts.Store.save(s); err != nil {
		f.opts.Logger.Error("save session", "err", err)
	}
	f.opts.Logger.Info("session/new", "sessionId", s.id, "cwd", p.Cwd)

	token := f.nextToken("new")
	f.wire.afterResponse(token, func() {
		if err := f.notify(context.Background(), s.id, commandsUpdate()); err != nil {
			f.opts.Logger.Error("available_commands_update", "err", err)
		}
	})
	return acp.NewSessionResponse{
		SessionId: s.id,
		Modes:     modeState(ModeCode),
		Meta:      splitMeta(token, 0, 1),
	}, nil
}

// SetSessionMode switches the mode and confirms with current_mode_update.
func (f *fixture) SetSessionMode(ctx context.Context, p acp.SetSessionModeRequest) (acp.SetSessionModeResponse, error) {
	if err := f.checkAuth(); err != nil {
		return acp.SetSessionModeResponse{}, err
	}
	s, err := f.session(p.SessionId)
	if err != nil {
		return acp.SetSessionModeResponse{}, err
	}
	if p.ModeId != ModeCode && p.ModeId != ModePlan {
		return acp.SetSessionModeResponse{}, acp.NewInvalidParams(map[string]any{"modeId": p.ModeId})
	}
	s.setMode(p.ModeId)
	f.opts.Logger.Info("session/set_mode", "sessionId", p.SessionId, "modeId", p.ModeId)
	err = f.sendUpdate(ctx, s, acp.SessionUpdate{CurrentModeUpdate: &acp.SessionCurrentModeUpdate{CurrentModeId: p.ModeId}})
	if err := f.opts.Store.save(s); err != nil {
		f.opts.Logger.Error("save session", "err", err)
	}
	return acp.SetSessionModeResponse{}, err
}

// ListSessions lists the store's sessions in the requested cwd, newest
// first, in pages of ListPageSize.
func (f *fixture) ListSessions(_ context.Context, p acp.ListSessionsRequest) (acp.ListSessionsResponse, error) {
	if err := f.checkAuth(); err != nil {
		return acp.ListSessionsResponse{}, err
	}
	cwd := ""
	if p.Cwd != nil {
		cwd = *p.Cwd
	}
	infos, err := f.opts.Store.list(cwd)
	if err != nil {
		return acp.ListSessionsResponse{}, err
	}
	page, next, err := paginate(infos, p.Cursor)
	if err != nil {
		return acp.ListSessionsResponse{}, err
	}
	return acp.ListSessionsResponse{Sessions: page, NextCursor: next}, nil
}

// Cancel only logs: the SDK has already cancelled the context of the
// session's running `session/prompt`, which ends the turn with `cancelled`
// and aborts its pending permission request (the SDK sends
// `$/cancel_request` for it).
func (f *fixture) Cancel(_ context.Context, p acp.CancelNotification) error {
	f.opts.Logger.Info("session/cancel", "sessionId", p.SessionId)
	return nil
}

// CloseSession is not offered (no sessionCapabilities.close).
func (f *fixture) CloseSession(context.Context, acp.CloseSessionRequest) (acp.CloseSessionResponse, error) {
	return acp.CloseSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionClose)
}

// ResumeSession is not offered (no sessionCapabilities.resume).
func (f *fixture) ResumeSession(context.Context, acp.ResumeSessionRequest) (acp.ResumeSessionResponse, error) {
	return acp.ResumeSessionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionResume)
}

// SetSessionConfigOption is not offered (no configOptions).
func (f *fixture) SetSessionConfigOption(context.Context, acp.SetSessionConfigOptionRequest) (acp.SetSessionConfigOptionResponse, error) {
	return acp.SetSessionConfigOptionResponse{}, acp.NewMethodNotFound(acp.AgentMethodSessionSetConfigOption)
}

// session looks a session up, answering -32002 for an unknown id.
func (f *fixture) session(id acp.SessionId) (*session, error) {
	s, err := f.opts.Store.get(id)
	if err == errNoSession {
		return nil, &acp.RequestError{Code: -32002, Message: "Resource not found", Data: map[string]any{"sessionId": id}}
	}
	return s, err
}

// splitMeta is the `_meta` of session/new and session/load responses: how
// many updates for this session the agent sends before and after the
// response, and the token the wire hook matches.
func splitMeta(token string, before, after int) map[string]any {
	return map[string]any{"acptest": map[string]any{
		"token":                 token,
		"updatesBeforeResponse": before,
		"updatesAfterResponse":  after,
	}}
}

package acp

import (
	"errors"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
)

// decodeRequest reads a request's params by its method.
func decodeRequest(b RequestBase, params jsontext.Value) model.Event {
	bad := func(err error) model.Event {
		return &Malformed{Type: b.Method, ID: b.ID, Dir: b.Dir, Err: errors.New(cleanErr(err))}
	}
	switch b.Method {
	case MethodInitialize:
		var p struct {
			ProtocolVersion    jsontext.Value `json:"protocolVersion"`
			ClientCapabilities jsontext.Value `json:"clientCapabilities"`
			ClientInfo         jsontext.Value `json:"clientInfo"`
		}
		if err := unmarshal(params, &p); err != nil {
			return bad(err)
		}
		return &Initialize{RequestBase: b, ProtocolVersion: p.ProtocolVersion, ClientCapabilities: p.ClientCapabilities, ClientInfo: p.ClientInfo}
	case MethodSessionNew:
		var p struct {
			Cwd                   string   `json:"cwd"`
			AdditionalDirectories []string `json:"additionalDirectories"`
		}
		if err := unmarshal(params, &p); err != nil {
			return bad(err)
		}
		return &NewSession{RequestBase: b, Cwd: p.Cwd, AdditionalDirectories: p.AdditionalDirectories}
	case MethodSessionLoad, MethodSessionResume:
		var p struct {
			SessionID string `json:"sessionId"`
			Cwd       string `json:"cwd"`
		}
		if err := unmarshal(params, &p); err != nil {
			return bad(err)
		}
		return &LoadSession{RequestBase: b, SessionID: p.SessionID, Cwd: p.Cwd}
	case MethodSessionPrompt:
		var p struct {
			SessionID string         `json:"sessionId"`
			Prompt    []ContentBlock `json:"prompt"`
		}
		if err := unmarshal(params, &p); err != nil {
			return bad(err)
		}
		return &Prompt{RequestBase: b, SessionID: p.SessionID, Prompt: p.Prompt}
	case MethodSessionSetMode:
		var p struct {
			SessionID string `json:"sessionId"`
			ModeID    string `json:"modeId"`
		}
		if err := unmarshal(params, &p); err != nil {
			return bad(err)
		}
		return &SetMode{RequestBase: b, SessionID: p.SessionID, ModeID: p.ModeID}
	case MethodRequestPermission:
		var p struct {
			SessionID string             `json:"sessionId"`
			ToolCall  jsontext.Value     `json:"toolCall"`
			Options   []PermissionOption `json:"options"`
		}
		if err := unmarshal(params, &p); err != nil {
			return bad(err)
		}
		r := &RequestPermission{RequestBase: b, SessionID: p.SessionID, Options: p.Options}
		if present(p.ToolCall) {
			tc, err := decodeToolCall(p.ToolCall)
			if err != nil {
				return bad(err)
			}
			r.ToolCall = tc
		}
		return r
	case MethodReadTextFile, MethodWriteTextFile:
		var p struct {
			SessionID string `json:"sessionId"`
			Path      string `json:"path"`
			Line      int    `json:"line"`
			Limit     int    `json:"limit"`
			Content   string `json:"content"`
		}
		if err := unmarshal(params, &p); err != nil {
			return bad(err)
		}
		return &FSRequest{RequestBase: b, SessionID: p.SessionID, Path: p.Path, Line: p.Line, Limit: p.Limit, Content: p.Content}
	case MethodTerminalCreate, MethodTerminalOutput, MethodTerminalWait, MethodTerminalKill, MethodTerminalRelease:
		var p struct {
			SessionID  string   `json:"sessionId"`
			TerminalID string   `json:"terminalId"`
			Command    string   `json:"command"`
			Args       []string `json:"args"`
			Cwd        string   `json:"cwd"`
		}
		if err := unmarshal(params, &p); err != nil {
			return bad(err)
		}
		return &TerminalRequest{RequestBase: b, SessionID: p.SessionID, TerminalID: p.TerminalID, Command: p.Command, Args: p.Args, Cwd: p.Cwd}
	}
	return &OtherRequest{RequestBase: b, Params: params}
}

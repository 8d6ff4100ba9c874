package acp

import (
	"errors"
	"strconv"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
)

// decodeUpdate reads a session/update notification's params, dispatching
// on the update's own sessionUpdate string.
func decodeUpdate(params jsontext.Value) model.Event {
	var p struct {
		SessionID string         `json:"sessionId"`
		Update    jsontext.Value `json:"update"`
	}
	if err := unmarshal(params, &p); err != nil {
		return &Malformed{Type: MethodSessionUpdate, Dir: Recv, Err: errors.New(cleanErr(err))}
	}
	if !present(p.Update) || p.Update.Kind() != '{' {
		return &Malformed{Type: MethodSessionUpdate, Dir: Recv, Err: errors.New("\"update\" is not an object")}
	}
	var head struct {
		Kind jsontext.Value `json:"sessionUpdate"`
		Meta jsontext.Value `json:"_meta"`
	}
	var kind string
	if err := unmarshal(p.Update, &head); err != nil || head.Kind.Kind() != '"' || unmarshal(head.Kind, &kind) != nil || kind == "" {
		return &Malformed{Type: MethodSessionUpdate, Dir: Recv, Err: errors.New("the update has no \"sessionUpdate\" string")}
	}
	base := UpdateBase{SessionID: p.SessionID}
	if present(head.Meta) {
		base.Meta = head.Meta
	}
	ev, err := decodeKind(kind, base, p.Update)
	if err != nil {
		return &Malformed{Type: kind, Dir: Recv, Err: errors.New(cleanErr(err))}
	}
	return ev
}

func decodeKind(kind string, base UpdateBase, u jsontext.Value) (model.Event, error) {
	switch kind {
	case UpdateUserMessageChunk, UpdateAgentMessageChunk, UpdateAgentThoughtChunk:
		var w struct {
			Content   *ContentBlock `json:"content"`
			MessageID string        `json:"messageId"`
		}
		if err := unmarshal(u, &w); err != nil {
			return nil, err
		}
		if w.Content == nil {
			return nil, errors.New("\"content\" is missing")
		}
		c := Chunk{UpdateBase: base, Content: *w.Content, MessageID: w.MessageID}
		switch kind {
		case UpdateUserMessageChunk:
			return &UserMessageChunk{c}, nil
		case UpdateAgentMessageChunk:
			return &AgentMessageChunk{c}, nil
		}
		return &AgentThoughtChunk{c}, nil
	case UpdateToolCall, UpdateToolCallUpdate:
		tc, err := decodeToolCall(u)
		if err != nil {
			return nil, err
		}
		if tc.ToolCallID == "" {
			return nil, errors.New("\"toolCallId\" is missing")
		}
		if kind == UpdateToolCall {
			return &ToolCall{UpdateBase: base, ToolCallFields: tc}, nil
		}
		return &ToolCallUpdate{UpdateBase: base, ToolCallFields: tc}, nil
	case UpdatePlan:
		var w struct {
			Entries []PlanEntry `json:"entries"`
		}
		if err := unmarshal(u, &w); err != nil {
			return nil, err
		}
		return &Plan{UpdateBase: base, Entries: w.Entries}, nil
	case UpdateAvailableCommandsUpdate:
		var w struct {
			Commands []struct {
				Name        string `json:"name"`
				Description string `json:"description"`
				Input       *struct {
					Hint string `json:"hint"`
				} `json:"input"`
			} `json:"availableCommands"`
		}
		if err := unmarshal(u, &w); err != nil {
			return nil, err
		}
		ev := &AvailableCommandsUpdate{UpdateBase: base, Commands: make([]Command, 0, len(w.Commands))}
		for _, c := range w.Commands {
			cmd := Command{Name: c.Name, Description: c.Description}
			if c.Input != nil {
				cmd.Hint = c.Input.Hint
			}
			ev.Commands = append(ev.Commands, cmd)
		}
		return ev, nil
	case UpdateCurrentModeUpdate:
		var w struct {
			ModeID *string `json:"currentModeId"`
		}
		if err := unmarshal(u, &w); err != nil {
			return nil, err
		}
		if w.ModeID == nil {
			return nil, errors.New("\"currentModeId\" is missing")
		}
		return &CurrentModeUpdate{UpdateBase: base, ModeID: *w.ModeID}, nil
	case UpdateConfigOptionUpdate:
		var w struct {
			Options []ConfigOption `json:"configOptions"`
		}
		if err := unmarshal(u, &w); err != nil {
			return nil, err
		}
		return &ConfigOptionUpdate{UpdateBase: base, Options: w.Options}, nil
	case UpdateSessionInfoUpdate:
		var w struct {
			Title     jsontext.Value `json:"title"`
			UpdatedAt *string        `json:"updatedAt"`
		}
		if err := unmarshal(u, &w); err != nil {
			return nil, err
		}
		ev := &SessionInfoUpdate{UpdateBase: base}
		if len(w.Title) > 0 {
			if w.Title.Kind() != 'n' && (w.Title.Kind() != '"' || unmarshal(w.Title, &ev.Title) != nil) {
				return nil, errors.New("\"title\" is not a string")
			}
			ev.TitleSet = true
		}
		if w.UpdatedAt != nil {
			if t, err := time.Parse(time.RFC3339Nano, *w.UpdatedAt); err == nil {
				ev.UpdatedAt = t.UTC()
			}
		}
		return ev, nil
	case UpdateUsageUpdate:
		var w struct {
			Used int64 `json:"used"`
			Size int64 `json:"size"`
			Cost *Cost `json:"cost"`
		}
		if err := unmarshal(u, &w); err != nil {
			return nil, err
		}
		return &UsageUpdate{UpdateBase: base, Used: w.Used, Size: w.Size, Cost: w.Cost}, nil
	}
	return &UnknownUpdate{UpdateBase: base, Kind: kind, Raw: u}, nil
}

// decodeToolCall reads the fields of a tool call, an update of one, or a
// permission request's toolCall.
func decodeToolCall(u jsontext.Value) (ToolCallFields, error) {
	var w struct {
		ToolCallID string            `json:"toolCallId"`
		Title      *string           `json:"title"`
		Kind       *string           `json:"kind"`
		Status     *string           `json:"status"`
		Name       *string           `json:"name"`
		Content    *[]jsontext.Value `json:"content"`
		Locations  *[]Location       `json:"locations"`
		RawInput   jsontext.Value    `json:"rawInput"`
		RawOutput  jsontext.Value    `json:"rawOutput"`
		Meta       jsontext.Value    `json:"_meta"`
	}
	if err := unmarshal(u, &w); err != nil {
		return ToolCallFields{}, err
	}
	tc := ToolCallFields{ToolCallID: w.ToolCallID, Title: w.Title, Kind: w.Kind, Status: w.Status, Name: w.Name}
	if w.Content != nil {
		tc.ContentSet = true
		tc.Content = make([]ToolCallContent, 0, len(*w.Content))
		for i, raw := range *w.Content {
			c, err := decodeToolContent(raw)
			if err != nil {
				return ToolCallFields{}, errors.New("content[" + strconv.Itoa(i) + "]: " + cleanErr(err))
			}
			tc.Content = append(tc.Content, c)
		}
	}
	if w.Locations != nil {
		tc.LocationsSet = true
		tc.Locations = *w.Locations
		if tc.Locations == nil {
			tc.Locations = []Location{}
		}
	}
	if present(w.RawInput) {
		tc.RawInput = w.RawInput
	}
	if present(w.RawOutput) {
		tc.RawOutput = w.RawOutput
	}
	if present(w.Meta) {
		tc.Meta = w.Meta
		tc.Terminal, tc.ToolName = readMeta(w.Meta, w.ToolCallID)
	}
	return tc, nil
}

// decodeToolContent reads one entry of a tool call's content by its type.
func decodeToolContent(raw jsontext.Value) (ToolCallContent, error) {
	var c ToolCallContent
	if err := unmarshal(raw, &c); err != nil {
		return ToolCallContent{}, err
	}
	switch c.Type {
	case ToolContentContent:
		if c.Content == nil {
			return ToolCallContent{}, errors.New("\"content\" is missing")
		}
	case ToolContentDiff, ToolContentTerminal:
	default:
		c = ToolCallContent{Type: c.Type, Raw: raw}
	}
	return c, nil
}

// readMeta reads the Zed terminal extension and Claude's tool name from a
// tool call's _meta. _meta is free-form: a member of an unexpected shape
// is ignored, never an error.
func readMeta(meta jsontext.Value, toolCallID string) (TerminalMeta, string) {
	var m map[string]jsontext.Value
	if unmarshal(meta, &m) != nil {
		return TerminalMeta{}, ""
	}
	var t TerminalMeta
	pick := func(id string) {
		if t.TerminalID == "" {
			t.TerminalID = id
		}
	}
	if v, ok := m["terminal_info"]; ok {
		var info struct {
			TerminalID string `json:"terminal_id"`
		}
		if unmarshal(v, &info) == nil {
			t.Info = true
			pick(info.TerminalID)
		}
	}
	if v, ok := m["terminal_output"]; ok {
		var out struct {
			TerminalID string `json:"terminal_id"`
			Data       string `json:"data"`
		}
		if unmarshal(v, &out) == nil {
			t.Output, t.HasOutput = out.Data, true
			pick(out.TerminalID)
		}
	}
	if v, ok := m["terminal_exit"]; ok {
		var exit struct {
			TerminalID string `json:"terminal_id"`
			ExitCode   *int   `json:"exit_code"`
			Signal     string `json:"signal"`
		}
		if unmarshal(v, &exit) == nil {
			t.Exit, t.ExitCode, t.Signal = true, exit.ExitCode, exit.Signal
			pick(exit.TerminalID)
		}
	}
	if (t.Info || t.HasOutput || t.Exit) && t.TerminalID == "" {
		t.TerminalID = toolCallID
	}
	var name string
	if v, ok := m["claudeCode"]; ok {
		var cc struct {
			ToolName string `json:"toolName"`
		}
		if unmarshal(v, &cc) == nil {
			name = cc.ToolName
		}
	}
	return t, name
}

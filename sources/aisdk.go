package sources

// The AI SDK UIMessage[] decoder: Vercel AI SDK v5+ chat messages, as
// useChat keeps them and apps save them, turned into AG-UI messages.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/protocol/agui"
)

// uiMessage is one AI SDK UIMessage as a file holds it.
type uiMessage struct {
	ID       string         `json:"id"`
	Role     string         `json:"role"`
	Parts    jsontext.Value `json:"parts"`
	Metadata jsontext.Value `json:"metadata"`
}

// uiPart is any UIMessage part: the members of every part type, each read
// only by the types that have it (text, reasoning, file, source-url,
// source-document, step-start, data-*, tool-<name>, dynamic-tool).
type uiPart struct {
	Type      string `json:"type"`
	Text      string `json:"text"`
	MediaType string `json:"mediaType"`
	Filename  string `json:"filename"`
	URL       string `json:"url"`
	Title     string `json:"title"`

	Data jsontext.Value `json:"data"`

	ToolCallID   string         `json:"toolCallId"`
	ToolName     string         `json:"toolName"`
	State        string         `json:"state"`
	Input        jsontext.Value `json:"input"`
	Output       jsontext.Value `json:"output"`
	ErrorText    string         `json:"errorText"`
	ToolMetadata jsontext.Value `json:"toolMetadata"`
	Approval     *struct {
		Reason string `json:"reason"`
	} `json:"approval"`
	// ToolInvocation marks an AI SDK v4 "tool-invocation" part.
	ToolInvocation jsontext.Value `json:"toolInvocation"`
}

// convertUIMessages turns a UIMessage array into AG-UI messages, in order,
// and lists the tool calls that never got an output. See uiConverter.
func convertUIMessages(list jsontext.Value) ([]agui.Message, []string, error) {
	if !list.IsValid() {
		clean, ok := agui.Normalize(list)
		if !ok {
			err := valueError(list)
			if err == nil {
				err = errors.New("more than one value") // valid JSON, but not one value
			}
			return nil, nil, fmt.Errorf("not valid JSON: %s", strings.TrimPrefix(err.Error(), "jsontext: "))
		}
		list = clean // strict from here on: every value can be written back
	}
	var elems []jsontext.Value
	if err := agui.UnmarshalValue(list, &elems); err != nil {
		return nil, nil, fmt.Errorf("not a JSON array of messages: %v", err)
	}
	c := &uiConverter{ids: map[string]bool{}, calls: map[string]string{}}
	for i, raw := range elems {
		if err := c.message(i, raw); err != nil {
			return nil, nil, err
		}
	}
	return c.out, c.pending, nil
}

// uiConverter turns UIMessages into AG-UI messages. A user or system
// message becomes one message. An assistant message becomes one message
// per model step, in part order: its text and tool calls (AG-UI's
// assistant message), then a tool message per call that has an output or
// an error; a reasoning part becomes a reasoning message, a data-* part an
// activity message. A step ends at a step-start part, a reasoning or data
// part, or text that follows tool calls.
type uiConverter struct {
	out     []agui.Message
	pending []string          // tool calls without an output
	ids     map[string]bool   // message ids used
	calls   map[string]string // tool call id → where it was seen

	// The message being read.
	where   string // "messages[3]"
	base    string // its id
	role    agui.Role
	meta    agui.Metadata
	emitted int

	seg segment
}

// segment is the AG-UI message being built from a run of parts.
type segment struct {
	first   int // index of its first part
	text    []string
	parts   []agui.ContentPart // set once a file part makes the content a list
	calls   []agui.ToolCall
	results []agui.Message
}

func (s *segment) empty() bool { return len(s.text) == 0 && s.parts == nil && len(s.calls) == 0 }

// message converts the UIMessage at index i.
func (c *uiConverter) message(i int, raw jsontext.Value) error {
	c.where = "messages[" + strconv.Itoa(i) + "]"
	if raw.Kind() != '{' {
		return fmt.Errorf("%s: not an object", c.where)
	}
	var m uiMessage
	if err := agui.UnmarshalValue(raw, &m); err != nil {
		return fmt.Errorf("%s: %v", c.where, err)
	}
	switch m.Role {
	case "user", "assistant", "system":
	default:
		return fmt.Errorf("%s: role %q is not user, assistant or system", c.where, m.Role)
	}
	if m.Parts.Kind() != '[' {
		return fmt.Errorf("%s: no \"parts\" array", c.where)
	}
	var parts []jsontext.Value
	if err := agui.UnmarshalValue(m.Parts, &parts); err != nil {
		return fmt.Errorf("%s.parts: %v", c.where, err)
	}
	c.base, c.role, c.emitted, c.seg = m.ID, agui.Role(m.Role), 0, segment{}
	if c.base == "" {
		c.base = c.where
	}
	c.meta = nil
	if m.Metadata.Kind() == '{' {
		_ = agui.UnmarshalValue(m.Metadata, &c.meta)
	}
	for j, raw := range parts {
		if err := c.part(j, raw); err != nil {
			return err
		}
	}
	c.flush()
	return nil
}

// part converts part j of the current message.
func (c *uiConverter) part(j int, raw jsontext.Value) error {
	where := c.where + ".parts[" + strconv.Itoa(j) + "]"
	if raw.Kind() != '{' {
		return fmt.Errorf("%s: not an object", where)
	}
	var p uiPart
	if err := agui.UnmarshalValue(raw, &p); err != nil {
		return fmt.Errorf("%s: %v", where, err)
	}
	switch {
	case p.Type == "":
		return fmt.Errorf("%s: no \"type\"", where)
	case p.Type == "text":
		c.addText(j, p.Text)
	case p.Type == "reasoning":
		c.flush()
		if strings.TrimSpace(p.Text) != "" { // redacted reasoning has no text to show
			c.emit(j, agui.Message{Role: agui.RoleReasoning, Content: agui.TextContent(p.Text)})
		}
	case p.Type == "step-start":
		c.flush()
	case p.Type == "file":
		c.addPart(j, filePart(p))
	case p.Type == "source-url":
		c.addText(j, sourceLine(p.Title, p.URL))
	case p.Type == "source-document":
		c.addText(j, sourceLine(p.Title, strings.TrimSpace(p.Filename+" "+p.MediaType)))
	case strings.HasPrefix(p.Type, "data-"):
		c.flush()
		c.emit(j, agui.Message{Role: agui.RoleActivity, ActivityType: strings.TrimPrefix(p.Type, "data-"), Content: activityContent(p.Data)})
	case p.Type == "tool-invocation" && p.ToolInvocation != nil:
		return fmt.Errorf("%s: an AI SDK v4 tool-invocation part; only v5+ UIMessage tool parts (tool-<name>, dynamic-tool) are read", where)
	case p.Type == "dynamic-tool" || strings.HasPrefix(p.Type, "tool-"):
		return c.tool(j, where, p)
	}
	// Other part types (newer SDKs) carry nothing a step shows.
	return nil
}

// tool converts a tool part: a call on the step's assistant message, and
// a tool message when the call has an output, an error or a denial.
func (c *uiConverter) tool(j int, where string, p uiPart) error {
	if c.role != agui.RoleAssistant {
		return fmt.Errorf("%s: a %s part in a %s message (tool calls belong to assistant messages)", where, p.Type, c.role)
	}
	name := strings.TrimPrefix(p.Type, "tool-")
	if p.Type == "dynamic-tool" {
		name = p.ToolName
	}
	if name == "" {
		return fmt.Errorf("%s: %s part has no tool name", where, p.Type)
	}
	if p.ToolCallID == "" {
		return fmt.Errorf("%s: %s part has no \"toolCallId\"", where, p.Type)
	}
	if seen, dup := c.calls[p.ToolCallID]; dup {
		return fmt.Errorf("%s: toolCallId %q was already used at %s", where, p.ToolCallID, seen)
	}
	c.calls[p.ToolCallID] = where
	call := agui.ToolCall{ID: p.ToolCallID, Type: "function", Function: agui.FunctionCall{Name: name, Arguments: argumentsText(p.Input)}}
	if p.ToolMetadata.Kind() == '{' {
		// Where a producer says what the tool does (category, location),
		// in the AG-UI convention the fold reads.
		_ = agui.UnmarshalValue(p.ToolMetadata, &call.Metadata)
	}
	if c.seg.empty() {
		c.seg.first = j
	}
	c.seg.calls = append(c.seg.calls, call)

	result := agui.Message{Role: agui.RoleTool, ToolCallID: p.ToolCallID}
	state := p.State
	if state == "" { // older files leave it out: say what the members say
		switch {
		case p.ErrorText != "":
			state = "output-error"
		case p.Output != nil:
			state = "output-available"
		}
	}
	switch state {
	case "output-available":
		result.Content, result.Error = outputContent(p.Output)
	case "output-error":
		result.Content = agui.TextContent(p.ErrorText)
		result.Error = p.ErrorText
		if result.Error == "" {
			result.Error = "the tool failed"
		}
	case "output-denied":
		text := "denied"
		if p.Approval != nil && p.Approval.Reason != "" {
			text += ": " + p.Approval.Reason
		}
		result.Content = agui.TextContent(text)
		result.Metadata = agui.Metadata{"status": jsontext.Value(`"cancelled"`)}
	default:
		// input-streaming, input-available, approval-*: no output yet.
		c.pending = append(c.pending, p.ToolCallID)
		return nil
	}
	result.ID = c.id(c.base + "/" + strconv.Itoa(j) + "/result")
	c.seg.results = append(c.seg.results, result)
	return nil
}

// addText adds text to the current step's message; text after tool calls
// starts the next step's.
func (c *uiConverter) addText(j int, text string) {
	if text == "" {
		return
	}
	if len(c.seg.calls) > 0 {
		c.flush()
	}
	if c.seg.empty() {
		c.seg.first = j
	}
	if len(c.seg.parts) > 0 {
		// Text parts are shown joined: keep paragraphs apart.
		c.seg.parts = append(c.seg.parts, agui.ContentPart{Type: "text", Text: "\n\n" + text})
	}
	c.seg.text = append(c.seg.text, text)
}

// addPart adds a file's content part to the current step's message, which
// makes its content a list of parts.
func (c *uiConverter) addPart(j int, p agui.ContentPart) {
	if len(c.seg.calls) > 0 {
		c.flush()
	}
	if c.seg.empty() {
		c.seg.first = j
	}
	if c.seg.parts == nil && len(c.seg.text) > 0 {
		c.seg.parts = []agui.ContentPart{{Type: "text", Text: strings.Join(c.seg.text, "\n\n")}}
	}
	if p.Type == "text" && len(c.seg.parts) > 0 {
		p.Text = "\n" + p.Text
	}
	c.seg.parts = append(c.seg.parts, p)
}

// flush emits the current step's message and then its tool results.
func (c *uiConverter) flush() {
	s := c.seg
	c.seg = segment{}
	if s.empty() {
		return
	}
	m := agui.Message{Role: c.role, ToolCalls: s.calls}
	switch {
	case s.parts != nil:
		m.Content = agui.Content{Parts: s.parts, IsParts: true, Present: true}
	case len(s.text) > 0:
		m.Content = agui.TextContent(strings.Join(s.text, "\n\n"))
	case c.role != agui.RoleAssistant:
		m.Content = agui.TextContent("") // only an assistant may leave it out
	}
	c.emit(s.first, m)
	c.out = append(c.out, s.results...)
}

// emit appends m, made from part j, with a unique id: the UIMessage's id
// for the first message made from it, "<id>/<part>" for the later ones.
// The UIMessage's metadata goes on the first.
func (c *uiConverter) emit(j int, m agui.Message) {
	if c.emitted == 0 {
		m.ID = c.id(c.base)
		m.Metadata = c.meta
	} else {
		m.ID = c.id(c.base + "/" + strconv.Itoa(j))
	}
	c.emitted++
	c.out = append(c.out, m)
}

// id returns want, or want with a "~n" suffix when a message already has it.
func (c *uiConverter) id(want string) string {
	id := want
	for n := 2; c.ids[id]; n++ {
		id = want + "~" + strconv.Itoa(n)
	}
	c.ids[id] = true
	return id
}

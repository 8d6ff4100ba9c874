package codex

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/internal/todos"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// responseItem translates an item of the conversation.
func (t *Translator) responseItem(at time.Time, it *ResponseItem) {
	switch it.Type {
	case "message":
		t.messageItem(at, it)
	case "reasoning":
		t.reasoning(at, it)
	case "function_call":
		t.functionCall(at, it)
	case "custom_tool_call":
		t.customToolCall(at, it)
	case "local_shell_call":
		t.localShellCall(at, it)
	case "function_call_output", "custom_tool_call_output":
		t.output(at, it)
	case "web_search_call":
		t.webSearch(at, it)
	}
}

// messageItem shows what the user and the agent said. Developer messages
// and the context Codex adds as user messages are instructions for the
// model, not the conversation. A user message before any turn waits for
// the turn it starts.
func (t *Translator) messageItem(at time.Time, it *ResponseItem) {
	text := joinText(it.Content)
	switch it.Role {
	case "assistant":
		t.ensureRun(at)
		t.message(at, "assistant", text)
	case "user":
		if isContext(text) || strings.TrimSpace(text) == "" {
			return
		}
		if t.run == nil {
			if len(t.prompts) == maxPrompts {
				t.prompts = t.prompts[1:]
			}
			t.prompts = append(t.prompts, pending{at: at, text: text})
			return
		}
		t.message(at, "user", text)
	}
}

// message sends a whole text message of role.
func (t *Translator) message(at time.Time, role, text string) {
	if text == "" {
		return
	}
	id := t.nextID("msg")
	t.emit(at, map[string]any{"type": agui.TypeTextMessageStart, "messageId": id, "role": role})
	t.emit(at, map[string]any{"type": agui.TypeTextMessageContent, "messageId": id, "delta": text})
	t.emit(at, map[string]any{"type": agui.TypeTextMessageEnd, "messageId": id})
}

// reasoning shows a reasoning item's summary; its encrypted content is
// for the model alone.
func (t *Translator) reasoning(at time.Time, it *ResponseItem) {
	text := joinText(it.Summary)
	if text == "" {
		return
	}
	t.ensureRun(at)
	id := t.nextID("reasoning")
	t.emit(at, map[string]any{"type": agui.TypeReasoningStart, "messageId": id})
	t.emit(at, map[string]any{"type": agui.TypeReasoningMessageStart, "messageId": id, "role": "reasoning"})
	t.emit(at, map[string]any{"type": agui.TypeReasoningMessageContent, "messageId": id, "delta": text})
	t.emit(at, map[string]any{"type": agui.TypeReasoningMessageEnd, "messageId": id})
	t.emit(at, map[string]any{"type": agui.TypeReasoningEnd, "messageId": id})
}

// joinText is the text of a message's or a summary's parts, a paragraph each.
func joinText(parts []ContentItem) string {
	var texts []string
	for _, p := range parts {
		if p.Text != "" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n\n")
}

// functionCall starts a tool call whose arguments are a JSON string (or
// text that is not JSON, which is still a call).
func (t *Translator) functionCall(at time.Time, it *ResponseItem) {
	if it.Name == "spawn_agent" {
		t.spawnTask(it.CallID, it.Arguments)
	}
	t.startCall(at, it.CallID, it.Name, it.Arguments, location(it.Name, it.Arguments))
}

// customToolCall starts a freeform tool call: apply_patch's input is a
// patch, shown as the edit's diff.
func (t *Translator) customToolCall(at time.Time, it *ResponseItem) {
	if it.Name != "apply_patch" {
		args, _ := json.Marshal(map[string]string{"input": it.Input})
		t.startCall(at, it.CallID, it.Name, string(args), "")
		return
	}
	p := parsePatch(it.Input)
	args := map[string]string{"input": it.Input}
	if d := p.unified(); d != "" {
		args = map[string]string{"patch": d}
	}
	b, _ := json.Marshal(args)
	t.startCall(at, it.CallID, it.Name, string(b), p.first())
}

// localShellCall starts a command of an older build, its argv in the action.
func (t *Translator) localShellCall(at time.Time, it *ResponseItem) {
	var a ShellAction
	_ = json.Unmarshal(it.Action, &a)
	args := map[string]any{"command": a.Command}
	if a.WorkingDir != "" {
		args["workdir"] = a.WorkingDir
	}
	b, _ := json.Marshal(args)
	id := it.CallID
	if id == "" {
		id = it.ID
	}
	t.startCall(at, id, "local_shell", string(b), commandLine(a.Command))
}

// startCall sends a call whole (TOOL_CALL_START with its category and
// location, its arguments, TOOL_CALL_END) and waits for its output. A
// call whose id is already waiting is the same call written again.
func (t *Translator) startCall(at time.Time, id, name, args, loc string) {
	if name == "" {
		name = "tool"
	}
	if id == "" {
		id = t.nextID("call")
	}
	if _, ok := t.calls[id]; ok {
		return
	}
	t.ensureRun(at)
	ev := map[string]any{"type": agui.TypeToolCallStart, "toolCallId": id, "toolCallName": name}
	if md := metadata(name, loc); md != nil {
		ev["metadata"] = md
	}
	t.emit(at, ev)
	if args != "" {
		t.emit(at, map[string]any{"type": agui.TypeToolCallArgs, "toolCallId": id, "delta": args})
	}
	t.emit(at, map[string]any{"type": agui.TypeToolCallEnd, "toolCallId": id})
	if entries, ok := todos.Plan(name, []byte(args)); ok {
		// update_plan's plan is the plan, shown as one beside its step.
		t.emit(at, map[string]any{"type": agui.TypeActivitySnapshot, "messageId": "plan", "activityType": "plan", "content": todos.Content(entries)})
	}
	t.calls[id] = &call{name: name}
}

// output ends the call it answers with TOOL_CALL_RESULT: failed when the
// command exited non-zero or Codex said the call failed. An output whose
// call is not waiting (its turn ended, or its call was never written) is
// not shown.
func (t *Translator) output(at time.Time, it *ResponseItem) {
	t.spawnOutput(it.CallID, it.Output)
	c, ok := t.calls[it.CallID]
	if !ok || t.run == nil {
		return
	}
	delete(t.calls, it.CallID)
	o := parseOutput(outputText(it.Output))
	md := map[string]any{}
	if o.hasExit {
		md["exitCode"] = o.exit
	}
	if o.wallMS >= 0 {
		md["wallTimeMs"] = o.wallMS
	}
	if c.failed || o.failed {
		md["status"] = "failed"
	}
	ev := map[string]any{"type": agui.TypeToolCallResult, "messageId": "result-" + it.CallID, "toolCallId": it.CallID,
		"role": "tool", "content": o.body}
	if len(md) > 0 {
		ev["metadata"] = md
	}
	t.emit(at, ev)
}

// outputText is an output's text: a string, or the text parts of a list
// of content items.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []ContentItem
	if json.Unmarshal(raw, &parts) == nil {
		var texts []string
		for _, p := range parts {
			if p.Text != "" {
				texts = append(texts, p.Text)
			}
		}
		return strings.Join(texts, "\n")
	}
	var obj struct {
		Content string `json:"content"`
	}
	if json.Unmarshal(raw, &obj) == nil {
		return obj.Content
	}
	return ""
}

// webSearch shows a web search, which Codex writes once, done, as a
// search step with its query.
func (t *Translator) webSearch(at time.Time, it *ResponseItem) {
	var a SearchAction
	_ = json.Unmarshal(it.Action, &a)
	q := a.Query
	if q == "" {
		q = strings.Join(a.Queries, " · ")
	}
	if q == "" {
		q = a.URL
	}
	id := it.ID
	if id == "" || t.calls[id] != nil {
		id = t.nextID("search")
	}
	args := map[string]any{"query": q}
	if a.Type != "" && a.Type != "search" {
		args["action"] = a.Type
	}
	b, _ := json.Marshal(args)
	t.startCall(at, id, "web_search", string(b), q)
	delete(t.calls, id)
	ev := map[string]any{"type": agui.TypeToolCallResult, "messageId": "result-" + id, "toolCallId": id,
		"role": "tool", "content": ""}
	if it.Status == "failed" {
		ev["metadata"] = map[string]any{"status": "failed"}
	}
	t.emit(at, ev)
}

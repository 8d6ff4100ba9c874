package copilot

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Categories is the step category of each of Copilot CLI's own tools, so
// a session is read without a --tool-kinds file. A shell tool is bash on
// Unix and powershell on Windows, each with its tools for a shell left
// running; task starts a subagent; report_intent and update_todo are the
// agent saying what it does.
var Categories = map[string]model.Category{
	"bash": model.CategoryExecute, "read_bash": model.CategoryExecute, "write_bash": model.CategoryExecute,
	"stop_bash": model.CategoryExecute, "list_bash": model.CategoryExecute,
	"powershell": model.CategoryExecute, "read_powershell": model.CategoryExecute, "write_powershell": model.CategoryExecute,
	"stop_powershell": model.CategoryExecute, "list_powershell": model.CategoryExecute,
	"view": model.CategoryRead,
	"edit": model.CategoryEdit, "create": model.CategoryEdit, "str_replace_editor": model.CategoryEdit,
	"apply_patch": model.CategoryEdit,
	"grep":        model.CategorySearch, "glob": model.CategorySearch, "rg": model.CategorySearch,
	"web_search": model.CategorySearch,
	"web_fetch":  model.CategoryFetch, "fetch_copilot_cli_documentation": model.CategoryFetch,
	"task": model.CategoryThink, "read_agent": model.CategoryThink, "list_agents": model.CategoryThink,
	"write_agent": model.CategoryThink, "report_intent": model.CategoryThink, "update_todo": model.CategoryThink,
}

// locationKeys are where a tool's arguments name what it acts on, first
// found wins.
var locationKeys = map[string][]string{
	"bash": {"command"}, "powershell": {"command"},
	"read_bash": {"shellId"}, "write_bash": {"shellId"}, "stop_bash": {"shellId"},
	"read_powershell": {"shellId"}, "write_powershell": {"shellId"}, "stop_powershell": {"shellId"},
	"view": {"path"}, "edit": {"path"}, "create": {"path"}, "str_replace_editor": {"path"},
	"grep": {"pattern"}, "glob": {"pattern"}, "rg": {"pattern"}, "web_search": {"query"},
	"web_fetch": {"url"}, "task": {"description", "name"}, "read_agent": {"agent_id"}, "write_agent": {"agent_id"},
	"report_intent": {"intent"}, "skill": {"skill"}, "sql": {"description", "query"},
}

// toolStart starts a call: TOOL_CALL_START with its category and location,
// its arguments, TOOL_CALL_END. A shell command's location is the command
// Copilot shows (without a cd into the folder).
func (t *Translator) toolStart(at time.Time, ev *Event, d *ToolStartData) {
	t.ensureRun(at, "")
	sub := t.subOf(ev.AgentID, d.ParentToolCallID)
	loc := ""
	if d.ShellToolInfo != nil && Categories[d.ToolName] == model.CategoryExecute {
		loc = d.ShellToolInfo.DisplayCommand
	}
	t.startCall(at, sub, d.ToolCallID, d.ToolName, d.Arguments, loc)
}

// startCall sends a call whole and waits for its completion. A call whose
// id is already waiting is the same call written again.
func (t *Translator) startCall(at time.Time, sub, id, name string, rawArgs json.RawMessage, loc string) {
	if name == "" {
		name = "tool"
	}
	if id == "" {
		id = t.nextID("call")
	}
	if _, ok := t.calls[id]; ok {
		return
	}
	args := argsText(rawArgs)
	if loc == "" {
		loc = location(name, args)
	}
	ev := map[string]any{"type": agui.TypeToolCallStart, "toolCallId": id, "toolCallName": name}
	if cat, ok := Categories[name]; ok {
		md := map[string]any{"category": string(cat)}
		if loc != "" {
			md["location"] = loc
		}
		ev["metadata"] = md
	}
	t.emit(at, sub, ev)
	if args != "" {
		t.emit(at, sub, map[string]any{"type": agui.TypeToolCallArgs, "toolCallId": id, "delta": args})
	}
	t.emit(at, sub, map[string]any{"type": agui.TypeToolCallEnd, "toolCallId": id})
	if len(t.calls) < maxRemembered {
		t.calls[id] = &call{name: name, sub: sub}
	}
}

// argsText is a call's arguments as JSON text: an object as it is, a
// string (as older builds and tool requests write them) as what it holds.
func argsText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
		return ""
	}
	if !json.Valid(raw) {
		return ""
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return ""
	}
	return b.String()
}

// location is what a tool acts on, read from its arguments ("" when they
// do not say, or are not a JSON object).
func location(tool, args string) string {
	keys := locationKeys[tool]
	if len(keys) == 0 || args == "" {
		return ""
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// toolComplete ends the call it completes with TOOL_CALL_RESULT: failed
// when Copilot says the call did not succeed (its error's message is the
// result), with the exit code of a command. A completion whose call did
// not start is shown when the agent had asked for that call; one whose
// call is not waiting (its run ended) is not shown.
func (t *Translator) toolComplete(at time.Time, ev *Event, d *ToolCompleteData) {
	if t.run == "" {
		return
	}
	c, ok := t.calls[d.ToolCallID]
	if !ok {
		r, asked := t.asked[d.ToolCallID]
		if !asked {
			return
		}
		t.startCall(at, t.subOf(ev.AgentID, d.ParentToolCallID), r.ToolCallID, r.Name, r.Arguments, "")
		if c, ok = t.calls[d.ToolCallID]; !ok {
			return
		}
	}
	delete(t.calls, d.ToolCallID)
	delete(t.asked, d.ToolCallID)
	body, exit, hasExit := resultText(c.name, d.Result)
	md := map[string]any{}
	if hasExit {
		md["exitCode"] = exit
	}
	if !d.Success {
		md["status"] = "failed"
		if e := d.Error; e != nil {
			if e.Message != "" {
				body = e.Message
			}
			if e.Code != "" {
				md["errorCode"] = e.Code
			}
		}
	}
	out := map[string]any{"type": agui.TypeToolCallResult, "messageId": "result-" + d.ToolCallID,
		"toolCallId": d.ToolCallID, "role": "tool", "content": body}
	if len(md) > 0 {
		out["metadata"] = md
	}
	t.emit(at, c.sub, out)
}

// exitMarker is the line Copilot's shell tools end a command's output with.
var exitMarker = regexp.MustCompile(`\n?<exited with exit code (-?\d+)>\s*$`)

// resultText is what a result shows: an edit's diff when Copilot kept
// one, else the text the model got (or its text blocks), and the exit
// code of a command, from its shell_exit block or from the line that
// ends its output (taken off the text).
func resultText(tool string, r *ToolResult) (body string, exit int, hasExit bool) {
	if r == nil {
		return "", 0, false
	}
	body = r.Content
	if Categories[tool] == model.CategoryEdit && r.DetailedContent != "" {
		body = strings.TrimLeft(r.DetailedContent, "\n")
	}
	var texts []string
	for _, b := range r.Contents {
		switch b.Type {
		case "shell_exit", "terminal":
			if b.ExitCode != nil {
				exit, hasExit = *b.ExitCode, true
			}
		}
		if b.Text != "" && (b.Type == "text" || b.Type == "terminal") {
			texts = append(texts, b.Text)
		}
	}
	if body == "" {
		body = strings.Join(texts, "\n")
	}
	if Categories[tool] == model.CategoryExecute {
		if m := exitMarker.FindStringSubmatchIndex(body); m != nil {
			if n, err := strconv.Atoi(body[m[2]:m[3]]); err == nil {
				if !hasExit {
					exit, hasExit = n, true
				}
				body = body[:m[0]]
			}
		}
	}
	return body, exit, hasExit
}

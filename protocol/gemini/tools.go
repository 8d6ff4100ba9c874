package gemini

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/internal/todos"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// Categories is the step category of each of Gemini CLI's own tools
// (gemini-cli, packages/core/src/tools/definitions/base-declarations.ts),
// so a session is read without a --tool-kinds file. search_file_content
// is grep_search's name in older builds; write_todos and update_topic are
// the plan.
var Categories = map[string]model.Category{
	"run_shell_command": model.CategoryExecute,
	"read_file":         model.CategoryRead, "read_many_files": model.CategoryRead, "list_directory": model.CategoryRead,
	"get_internal_docs": model.CategoryRead, "read_mcp_resource": model.CategoryRead, "list_mcp_resources": model.CategoryRead,
	"replace": model.CategoryEdit, "write_file": model.CategoryEdit,
	"glob": model.CategorySearch, "grep_search": model.CategorySearch, "search_file_content": model.CategorySearch,
	"google_web_search": model.CategorySearch,
	"web_fetch":         model.CategoryFetch,
	"write_todos":       model.CategoryThink, "update_topic": model.CategoryThink,
	"enter_plan_mode": model.CategorySwitchMode, "exit_plan_mode": model.CategorySwitchMode,
}

// locationKeys are where a tool's arguments name what it acts on, first
// found wins (absolute_path and path are older builds' names).
var locationKeys = map[string][]string{
	"run_shell_command": {"command"},
	"read_file":         {"file_path", "absolute_path"}, "write_file": {"file_path"}, "replace": {"file_path"},
	"list_directory": {"dir_path", "path"}, "read_many_files": {"include", "paths"},
	"glob": {"pattern"}, "grep_search": {"pattern"}, "search_file_content": {"pattern"},
	"google_web_search": {"query"}, "web_fetch": {"prompt", "url"}, "get_internal_docs": {"path"},
	"read_mcp_resource": {"uri"}, "enter_plan_mode": {"reason"}, "update_topic": {"title"},
}

// terminal reports whether a call's status says it is done.
func terminal(status string) bool {
	return status == "success" || status == "error" || status == "cancelled"
}

// startCall sends a call whole (TOOL_CALL_START with its category and
// location, its arguments, TOOL_CALL_END): a record holds its arguments
// complete.
func (t *Translator) startCall(at time.Time, msg string, c *ToolCall) {
	name := c.Name
	if name == "" {
		name = "tool"
	}
	ev := map[string]any{"type": agui.TypeToolCallStart, "toolCallId": c.ID, "toolCallName": name, "parentMessageId": msg}
	if cat, ok := Categories[name]; ok {
		md := map[string]any{"category": string(cat)}
		if loc := location(name, c.Args); loc != "" {
			md["location"] = loc
		}
		ev["metadata"] = md
	}
	t.emit(at, ev)
	if args := trimSpace(c.Args); len(args) > 0 && string(args) != "null" && json.Valid(args) {
		t.emit(at, map[string]any{"type": agui.TypeToolCallArgs, "toolCallId": c.ID, "delta": string(args)})
	}
	t.emit(at, map[string]any{"type": agui.TypeToolCallEnd, "toolCallId": c.ID})
	if entries, ok := todos.Plan(name, c.Args); ok {
		// write_todos's list is the plan, shown as one beside its step.
		t.emit(at, map[string]any{"type": agui.TypeActivitySnapshot, "messageId": "plan", "activityType": "plan", "content": todos.Content(entries)})
	}
}

// location is what a tool acts on, read from its arguments ("" when they
// do not say).
func location(tool string, args json.RawMessage) string {
	keys := locationKeys[tool]
	if len(keys) == 0 {
		return ""
	}
	var m map[string]any
	if json.Unmarshal(args, &m) != nil {
		return ""
	}
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case []any:
			var words []string
			for _, w := range v {
				if s, ok := w.(string); ok && s != "" {
					words = append(words, s)
				}
			}
			if len(words) > 0 {
				return strings.Join(words, " ")
			}
		}
	}
	return ""
}

// result ends a call whose status became terminal: failed for error,
// cancelled for cancelled; a command's exit code when its output says.
func (t *Translator) result(at time.Time, c *ToolCall) {
	if ct := parseTime(c.Timestamp); !ct.IsZero() {
		at = ct
	}
	out, display := responseText(c.Result)
	text := displayText(c.ResultDisplay)
	if text == "" || c.Status == "error" && display != "" {
		text = display
	}
	if text == "" {
		text = out
	}
	md := map[string]any{}
	switch c.Status {
	case "error":
		md["status"] = "failed"
	case "cancelled":
		md["status"] = "cancelled"
	}
	if code, ok := exitCode(out); ok {
		md["exitCode"] = code
	}
	if c.AgentID != "" {
		md["agentId"] = c.AgentID
	}
	ev := map[string]any{"type": agui.TypeToolCallResult, "messageId": "result-" + c.ID, "toolCallId": c.ID,
		"role": "tool", "content": text}
	if len(md) > 0 {
		ev["metadata"] = md
	}
	t.emit(at, ev)
}

// responseText reads a call's result (the parts the model got back): the
// output text of its function response and its text parts, and the
// error it reported apart.
func responseText(raw json.RawMessage) (out, errText string) {
	var texts []string
	for _, p := range parts(raw) {
		switch {
		case p.FunctionResponse != nil:
			var r map[string]json.RawMessage
			if json.Unmarshal(p.FunctionResponse.Response, &r) != nil {
				continue
			}
			if s := stringOf(r["output"]); s != "" {
				texts = append(texts, s)
			}
			if s := stringOf(r["error"]); s != "" {
				errText = s
			}
		case p.Text != nil && *p.Text != "":
			texts = append(texts, *p.Text)
		}
	}
	return strings.Join(texts, "\n"), errText
}

// displayText is what the user was shown of a result: a string, or an
// edit's unified diff.
func displayText(raw json.RawMessage) string {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] == '"' {
		return stringOf(raw)
	}
	var d struct {
		FileDiff string `json:"fileDiff"`
	}
	if raw[0] == '{' && json.Unmarshal(raw, &d) == nil {
		return d.FileDiff
	}
	return ""
}

// exitCode reads "Exit Code: N", the line run_shell_command adds to its
// output when a command exits non-zero.
func exitCode(out string) (int, bool) {
	for line := range strings.SplitSeq(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "Exit Code: "); ok {
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
				return n, true
			}
		}
	}
	return 0, false
}

func stringOf(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

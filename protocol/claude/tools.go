package claude

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/internal/todos"
	"github.com/agentwatch/agentwatch/model"
)

// Categories is the step category of each of Claude Code's own tools, so
// a session is read without a --tool-kinds file. Task and Agent start a
// subagent; TodoWrite is the plan.
var Categories = map[string]model.Category{
	"Bash": model.CategoryExecute, "BashOutput": model.CategoryExecute, "KillShell": model.CategoryExecute,
	"Read": model.CategoryRead, "NotebookRead": model.CategoryRead, "LS": model.CategoryRead,
	"Edit": model.CategoryEdit, "MultiEdit": model.CategoryEdit, "Write": model.CategoryEdit, "NotebookEdit": model.CategoryEdit,
	"Grep": model.CategorySearch, "Glob": model.CategorySearch, "WebSearch": model.CategorySearch,
	"WebFetch":  model.CategoryFetch,
	"TodoWrite": model.CategoryThink, "Task": model.CategoryThink, "Agent": model.CategoryThink,
	"ExitPlanMode": model.CategorySwitchMode,
}

// locationKeys are where a tool's input names what it acts on, first
// found wins.
var locationKeys = map[string][]string{
	"Bash": {"command"}, "BashOutput": {"bash_id"}, "KillShell": {"shell_id"},
	"Read": {"file_path"}, "Edit": {"file_path"}, "MultiEdit": {"file_path"}, "Write": {"file_path"},
	"NotebookRead": {"notebook_path"}, "NotebookEdit": {"notebook_path"}, "LS": {"path"},
	"Grep": {"pattern"}, "Glob": {"pattern"}, "WebFetch": {"url"}, "WebSearch": {"query"},
	"Task": {"description"}, "Agent": {"description"},
}

// call starts a tool call and gives its input whole: a tool_use line
// holds it complete.
func (t *Translator) call(b *Block, msg string, at time.Time) {
	if b.ID == "" {
		return
	}
	name := b.Name
	if name == "" {
		name = "tool"
	}
	ev := map[string]any{"type": "TOOL_CALL_START", "toolCallId": b.ID, "toolCallName": name, "parentMessageId": msg}
	if cat, ok := Categories[name]; ok {
		md := map[string]any{"category": string(cat)}
		if loc := location(name, b.Input); loc != "" {
			md["location"] = loc
		}
		ev["metadata"] = md
	}
	t.emit(at, ev)
	if len(b.Input) > 0 && json.Valid(b.Input) {
		t.emit(at, map[string]any{"type": "TOOL_CALL_ARGS", "toolCallId": b.ID, "delta": string(b.Input)})
	}
	t.emit(at, map[string]any{"type": "TOOL_CALL_END", "toolCallId": b.ID})
	if entries, ok := todos.Plan(name, b.Input); ok {
		// The to-do list is the plan, shown as one beside its step.
		t.emit(at, map[string]any{"type": "ACTIVITY_SNAPSHOT", "messageId": "plan" + t.agent, "activityType": "plan", "content": todos.Content(entries)})
	}
	if len(t.calls) < maxRemembered {
		t.calls[b.ID] = name
	}
}

// location is what a tool acts on, read from its input.
func location(tool string, input json.RawMessage) string {
	var m map[string]any
	if json.Unmarshal(input, &m) != nil {
		return ""
	}
	for _, k := range locationKeys[tool] {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}

// result completes a call with its tool_result: the tool's real output
// when toolUseResult gives it (stdout and stderr, the diff an edit made,
// the file created or read), the result block's text otherwise, and its
// pictures as screenshots.
func (t *Translator) result(b *Block, out json.RawMessage, at time.Time) {
	if b.ToolUseID == "" {
		return
	}
	tool := t.calls[b.ToolUseID]
	delete(t.calls, b.ToolUseID)
	inner := blocks(b.ResultContent)
	text := textOf(inner)
	md := map[string]any{}
	var o ToolOutput
	if len(out) > 0 && out[0] == '{' && json.Unmarshal(out, &o) == nil {
		if shown, ok := output(tool, &o); ok {
			text = shown
		}
		if o.AgentID != "" {
			md["agentId"] = o.AgentID
		}
		if o.Interrupted {
			md["interrupted"] = true
		}
	}
	if b.IsError {
		md["status"] = "failed"
		md["isError"] = true
	}
	t.endSubagent(b.ToolUseID, o.AgentID, b.IsError, at)
	var parts []map[string]any
	for _, ib := range inner {
		if ib.Type == "image" {
			if p := imagePart(ib.Source); p != nil {
				parts = append(parts, p)
			}
		}
	}
	ev := map[string]any{"type": "TOOL_CALL_RESULT", "messageId": "result-" + b.ToolUseID, "toolCallId": b.ToolUseID, "role": "tool"}
	if len(parts) > 0 {
		if text != "" {
			parts = append([]map[string]any{{"type": "text", "text": text}}, parts...)
		}
		ev["content"] = parts
	} else {
		ev["content"] = text
	}
	if len(md) > 0 {
		ev["metadata"] = md
	}
	t.emit(at, ev)
}

// output is what a builtin tool's toolUseResult shows, when it says more
// than the result block.
func output(tool string, o *ToolOutput) (string, bool) {
	switch {
	case len(o.StructuredPatch) > 0:
		return unified(o.FilePath, o.StructuredPatch), true
	case o.Type == "create" && o.FilePath != "":
		return unified(o.FilePath, []Hunk{created(o.Content)}), true
	case tool == "Read" && o.File != nil && o.File.Content != "":
		return o.File.Content, true
	case o.Stdout != "" || o.Stderr != "":
		if o.Stderr == "" {
			return o.Stdout, true
		}
		if o.Stdout == "" {
			return o.Stderr, true
		}
		return o.Stdout + "\n" + o.Stderr, true
	}
	return "", false
}

// created is the one hunk that makes a new file of content.
func created(content string) Hunk {
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	h := Hunk{OldStart: 0, OldLines: 0, NewStart: 1, NewLines: len(lines)}
	for _, l := range lines {
		h.Lines = append(h.Lines, "+"+l)
	}
	return h
}

// unified writes a structuredPatch as a unified diff of one file.
func unified(path string, hunks []Hunk) string {
	var b strings.Builder
	old := "a/" + strings.TrimPrefix(path, "/")
	if len(hunks) == 1 && hunks[0].OldLines == 0 && hunks[0].OldStart == 0 {
		old = "/dev/null"
	}
	fmt.Fprintf(&b, "--- %s\n+++ b/%s\n", old, strings.TrimPrefix(path, "/"))
	for _, h := range hunks {
		fmt.Fprintf(&b, "@@ -%d,%d +%d,%d @@\n", h.OldStart, h.OldLines, h.NewStart, h.NewLines)
		for _, l := range h.Lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

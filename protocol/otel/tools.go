package otel

import (
	"encoding/json"
	"strings"

	"github.com/agentwatch/agentwatch/model"
)

// Builtin is the category of each of Claude Code's and Codex's own tools:
// those agents name their tools themselves, so their telemetry can be
// read without a --tool-kinds file. A tool that --tool-kinds names takes
// the user's category instead. docs/OTEL.md lists it.
var Builtin = map[string]model.Category{
	// Claude Code
	"Bash": model.CategoryExecute, "BashOutput": model.CategoryExecute, "KillShell": model.CategoryExecute,
	"Read": model.CategoryRead, "NotebookRead": model.CategoryRead, "LS": model.CategoryRead,
	"Edit": model.CategoryEdit, "MultiEdit": model.CategoryEdit, "Write": model.CategoryEdit, "NotebookEdit": model.CategoryEdit,
	"Grep": model.CategorySearch, "Glob": model.CategorySearch,
	"WebFetch": model.CategoryFetch, "WebSearch": model.CategoryFetch,
	"TodoWrite": model.CategoryThink, "ExitPlanMode": model.CategorySwitchMode,
	// Codex
	"shell": model.CategoryExecute, "shell_command": model.CategoryExecute, "local_shell": model.CategoryExecute,
	"exec_command": model.CategoryExecute, "write_stdin": model.CategoryExecute, "container.exec": model.CategoryExecute,
	"read_file": model.CategoryRead, "list_dir": model.CategoryRead, "view_image": model.CategoryRead,
	"apply_patch": model.CategoryEdit,
	"grep_files":  model.CategorySearch,
	"web_search":  model.CategoryFetch,
	"update_plan": model.CategoryThink,
}

// locationKeys are where a builtin tool's arguments name what it acts on,
// first found wins.
var locationKeys = map[string][]string{
	"Bash": {"command", "full_command", "bash_command"}, "BashOutput": {"bash_id"},
	"Read": {"file_path"}, "Edit": {"file_path"}, "MultiEdit": {"file_path"}, "Write": {"file_path"},
	"NotebookRead": {"notebook_path"}, "NotebookEdit": {"notebook_path"}, "LS": {"path"},
	"Grep": {"pattern"}, "Glob": {"pattern"}, "WebFetch": {"url"}, "WebSearch": {"query"},
	"shell": {"command"}, "shell_command": {"command"}, "local_shell": {"command"}, "container.exec": {"command"},
	"exec_command": {"cmd", "command"}, "read_file": {"file_path", "path"}, "list_dir": {"dir_path", "path"},
	"view_image": {"path"}, "grep_files": {"pattern"}, "web_search": {"query"},
}

// location is what a builtin tool acts on, read from its arguments: a
// command, a file, a pattern, a URL ("" when they do not say).
func location(tool, args string) string {
	if tool == "apply_patch" {
		return patchFile(args)
	}
	keys := locationKeys[tool]
	if len(keys) == 0 || args == "" {
		return ""
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return ""
	}
	for _, k := range keys {
		switch v := m[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case []any:
			return commandLine(v)
		}
	}
	return ""
}

// commandLine is an argv as one line; `bash -lc SCRIPT` is its script.
func commandLine(argv []any) string {
	words := make([]string, 0, len(argv))
	for _, w := range argv {
		s, _ := w.(string)
		words = append(words, s)
	}
	if len(words) == 3 && (words[1] == "-lc" || words[1] == "-c") {
		return words[2]
	}
	return strings.Join(words, " ")
}

// patchFile is the first file an apply_patch patch names (its arguments
// are the patch, or {"input": patch}).
func patchFile(args string) string {
	patch := args
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) == nil {
		patch, _ = m["input"].(string)
	}
	for line := range strings.SplitSeq(patch, "\n") {
		for _, p := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: "} {
			if f, ok := strings.CutPrefix(strings.TrimSpace(line), p); ok {
				return strings.TrimSpace(f)
			}
		}
	}
	return ""
}

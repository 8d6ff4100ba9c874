package codex

import (
	"encoding/json"
	"strings"

	"github.com/agentwatch/agentwatch/model"
)

// builtin is the category of each of Codex's own tools: a tool named here
// becomes a step of that category, with what it acts on as its location.
var builtin = map[string]model.Category{
	"exec_command": model.CategoryExecute, "write_stdin": model.CategoryExecute,
	"shell": model.CategoryExecute, "shell_command": model.CategoryExecute, "local_shell": model.CategoryExecute,
	"container.exec": model.CategoryExecute,
	"apply_patch":    model.CategoryEdit,
	"read_file":      model.CategoryRead, "list_dir": model.CategoryRead, "view_image": model.CategoryRead,
	"grep_files": model.CategorySearch, "web_search": model.CategorySearch,
	"update_plan": model.CategoryThink, "spawn_agent": model.CategoryThink,
}

// locationKeys are where a builtin tool's arguments name what it acts on,
// first found wins.
var locationKeys = map[string][]string{
	"exec_command": {"cmd", "command"}, "shell": {"command"}, "shell_command": {"command"},
	"container.exec": {"command"}, "read_file": {"file_path", "path"}, "list_dir": {"dir_path", "path"},
	"view_image": {"path"}, "grep_files": {"pattern"}, "update_plan": {"explanation"},
	"spawn_agent": {"message"},
}

// metadata is what TOOL_CALL_START says of a call: its category and
// location, for Codex's own tools.
func metadata(name, loc string) map[string]any {
	cat, ok := builtin[name]
	if !ok {
		return nil
	}
	md := map[string]any{"category": string(cat)}
	if loc != "" {
		md["location"] = loc
	}
	return md
}

// location is what a builtin tool acts on, read from its arguments ("" when
// they do not say, or are not JSON).
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
		switch v := m[k].(type) {
		case string:
			if v != "" {
				return v
			}
		case []any:
			words := make([]string, 0, len(v))
			for _, w := range v {
				s, _ := w.(string)
				words = append(words, s)
			}
			return commandLine(words)
		}
	}
	return ""
}

// commandLine is an argv as one line; `bash -lc SCRIPT` is its script.
func commandLine(argv []string) string {
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
		return argv[2]
	}
	return strings.Join(argv, " ")
}

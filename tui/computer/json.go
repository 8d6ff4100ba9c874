package computer

import (
	"encoding/json"
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// jsonView is a one-line summary of the step, then its arguments and its
// result under dim headings: JSON indented and coloured, other text wrapped.
func jsonView(s *model.Step, a stepArgs, width, height int) []string {
	box := render.NewLineBox(width, height)
	sgr := styles.Bold
	if s.Status == model.StatusFailed {
		sgr = styles.Failed
	}
	box.Add(render.Styled(stepSummary(s, a), sgr, width))

	hasArgs := strings.TrimSpace(s.Args) != "" || len(s.ArgsJSON) > 0
	hasResult := strings.TrimSpace(s.Result) != ""
	if hasArgs {
		raw := []byte(s.ArgsJSON)
		if len(raw) == 0 && json.Valid([]byte(s.Args)) {
			raw = []byte(s.Args)
		}
		if len(raw) > 0 {
			box.Add(render.Styled("arguments", styles.Faint, width))
			box.AddJSON(raw, jsonIndent)
		} else {
			box.Add(render.Styled("arguments (not valid JSON)", styles.Faint, width))
			box.AddText(s.Args, jsonIndent)
		}
	}
	if hasResult {
		box.Add(render.Styled("result", styles.Faint, width))
		if r := strings.TrimSpace(s.Result); (r[0] == '{' || r[0] == '[') && json.Valid([]byte(r)) {
			box.AddJSON([]byte(r), jsonIndent)
		} else {
			box.AddText(strings.TrimRight(s.Result, "\n"), jsonIndent)
		}
	}
	if !hasArgs && !hasResult {
		box.Add(render.Styled("no arguments or result", styles.Faint, width))
	}
	return box.Done()
}

// stepSummary says in one line what the step did: "Deleted internal/x.go",
// "Moved a → b", "Mode → code", "Used <tool>", or the step's label.
func stepSummary(s *model.Step, a stepArgs) string {
	verb := s.Category.Verb(s.Status)
	switch s.Category {
	case model.CategoryDelete:
		path := s.Location
		if path == "" {
			path = a.str("path", "file_path", "filePath", "file", "target")
		}
		if path != "" {
			return verb + " " + oneLine(path)
		}
		return verb
	case model.CategoryMove:
		from := a.str("from", "source", "src", "old_path", "oldPath")
		to := a.str("to", "destination", "dest", "new_path", "newPath")
		switch {
		case from != "" && to != "":
			return verb + " " + oneLine(from) + " → " + oneLine(to)
		case s.Location != "":
			return verb + " " + oneLine(s.Location)
		}
		return verb
	case model.CategorySwitchMode:
		mode := a.str("mode", "mode_id", "modeId")
		if mode == "" {
			mode = s.Location
		}
		if mode != "" {
			return "Mode → " + oneLine(mode)
		}
		return verb
	}
	return render.StepLabel(s)
}

// firstLine is the first non-blank line of agent text, flat and safe.
func firstLine(text string) string {
	for line := range strings.SplitSeq(text, "\n") {
		if l := oneLine(line); l != "" {
			return l
		}
	}
	return ""
}

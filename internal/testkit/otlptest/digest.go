package otlptest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// Digest is what a person reads off the fold of some telemetry, in an
// order that does not depend on the order it arrived in: each thread, its
// runs (id, parent, status, error, usage), its steps (run, tool, status,
// label, arguments, result), messages (run, role, text), rows (run, kind,
// content), subagents and errors. Ids that agentwatch makes up for calls
// that the telemetry names none for are left out: they say nothing to a
// reader, and are made from whichever half of a call (its decision or its
// result) came first. Problems are the folds' protocol problems, which
// the translation of telemetry must never make.
func Digest(ts *fold.Threads) (digest string, problems []string) {
	var out []string
	threads := slices.Clone(ts.List())
	slices.SortFunc(threads, func(a, b *fold.Thread) int { return strings.Compare(a.ID, b.ID) })
	for _, th := range threads {
		for _, d := range th.Fold.Diagnostics() {
			problems = append(problems, fmt.Sprintf("thread %s: problem #%d %s: %s", th.ID, d.Seq, d.Type, d.Message))
		}
		out = append(out, "thread "+th.ID)
		var lines []string
		for _, r := range th.Fold.Runs() {
			lines = append(lines, fmt.Sprintf("  run %s parent=%q %s %q usage=%s", r.RunID, r.ParentRunID, r.Status, r.Error, r.Usage))
		}
		for _, s := range th.Fold.Steps() {
			lines = append(lines, StepLine(s))
		}
		for _, it := range th.Fold.Items() {
			switch it.Kind {
			case model.ItemMessage:
				lines = append(lines, fmt.Sprintf("  message run=%s sub=%s %s %q", it.RunID, it.SubagentRunID, it.Role, it.Text))
			case model.ItemActivity:
				lines = append(lines, fmt.Sprintf("  row run=%s %s %s", it.RunID, it.Name, withoutCallID(it.Data)))
			case model.ItemSubagent:
				lines = append(lines, fmt.Sprintf("  subagent %s %s %s %q", it.ID, it.Name, it.Status, it.Text))
			case model.ItemError:
				lines = append(lines, fmt.Sprintf("  error run=%s %q", it.RunID, it.Text))
			}
		}
		slices.Sort(lines)
		out = append(out, lines...)
	}
	return strings.Join(out, "\n"), problems
}

// StepLine is a step as Digest tells it.
func StepLine(s *model.Step) string {
	return fmt.Sprintf("  step run=%s sub=%s %s %s %q args=%s result=%q", s.RunID, s.SubagentRunID, s.ToolName,
		s.Status, s.Label(), s.ArgsJSON, s.Result)
}

// withoutCallID is a row's content less the call id a permission row
// names (made up when the telemetry names none).
func withoutCallID(data []byte) string {
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return string(data)
	}
	delete(m, "toolCallId")
	b, _ := json.Marshal(m)
	return string(b)
}

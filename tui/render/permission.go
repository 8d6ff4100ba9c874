package render

// A permission request as the transcript and --plain say it: what the
// agent asks to do, and the answer, or the options while it waits.

import (
	"encoding/json"
	"strings"

	"github.com/agentwatch/agentwatch/internal/sanitize"
	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// permissionOptionsMax is how many of the options a waiting request
// names; agents offer four at most in practice.
const permissionOptionsMax = 9

// PermissionWords are a permission item (model.ItemPermission) in words,
// each made safe and one line: the question ("Run `rm -rf build`?", "" when
// the request named nothing), the answer ("allowed once", "rejected",
// "cancelled", …) or, while it waits, "waiting for you: " and the options
// offered; and the colour the answer is drawn in.
func PermissionWords(it *model.Item) (question, answer, sgr string) {
	question = sanitize.OneLine(it.Name)
	if question != "" && !strings.HasSuffix(question, "?") {
		question += "?"
	}
	switch {
	case it.Status == model.StatusOpen:
		answer, sgr = "waiting for you", styles.ParamAttention
		if opts := permissionOptions(it.Data); opts != "" {
			answer += ": " + opts
		}
		return question, answer, sgr
	case it.Text == model.AnswerAllowedOnce || it.Text == model.AnswerAllowedAlways:
		sgr = styles.ParamGreen
	case it.Text == model.AnswerRejected || it.Text == model.AnswerRejectedAlways || it.Status == model.StatusFailed:
		sgr = styles.ParamRed
	case it.Status == model.StatusCancelled:
		sgr = styles.ParamDim
	}
	answer = sanitize.OneLine(it.Text)
	if answer == "" {
		answer = string(it.Status)
	}
	return question, answer, sgr
}

// PermissionText is a permission item as one plain line: "permission · Run
// `rm -rf build`? · allowed once".
func PermissionText(it *model.Item) string {
	q, a, _ := PermissionWords(it)
	if q == "" {
		return "permission · " + a
	}
	return "permission · " + q + " · " + a
}

// PermissionRow is a permission item's transcript row, exactly width cells:
// PermissionText with the answer in its colour (green allowed, red
// rejected, bold yellow while it waits), the rest dim.
func PermissionRow(it *model.Item, width int) string {
	if width <= 0 {
		return ""
	}
	q, a, sgr := PermissionWords(it)
	w := NewLine(width)
	w.Put("permission · ", styles.ParamDim)
	if q != "" {
		// The answer matters most: the question gives up room first.
		w.Cut(q, max(w.Room()-3-min(ansi.StringWidth(a), 24), 8), "")
		w.Put(" · ", styles.ParamDim)
	}
	w.Put(a, sgr)
	return w.String()
}

// permissionOptions names the options a permission item offers (its Data,
// a JSON array of {optionId, name, kind}), "" when it names none.
func permissionOptions(data json.RawMessage) string {
	var opts []struct {
		ID   string `json:"optionId"`
		Name string `json:"name"`
	}
	if json.Unmarshal(data, &opts) != nil {
		return ""
	}
	var names []string
	for _, o := range opts {
		if len(names) == permissionOptionsMax {
			names = append(names, "…")
			break
		}
		n := sanitize.OneLine(o.Name)
		if n == "" {
			n = sanitize.OneLine(o.ID)
		}
		if n != "" {
			names = append(names, n)
		}
	}
	return strings.Join(names, ", ")
}

package tui

// This file draws the permission dialog of a live ACP agent and maps its
// keys to the agent's options.

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/tui/computer"
	"github.com/agentwatch/agentwatch/tui/styles"
)

// PermissionMsg asks the user to answer an agent's permission request. The
// chosen option's id (or "" to cancel) must be sent on Answer, which has
// room for one value.
type PermissionMsg struct {
	Request model.PermissionRequest
	Answer  chan<- string
}

// PermissionClosedMsg says a permission request is no longer waiting (its
// turn was cancelled), so its dialog goes away.
type PermissionClosedMsg struct{ ToolCallID string }

// kindKeys are the keys that pick an option of each kind, besides its number.
var kindKeys = map[string]string{
	"allow_once":    "y",
	"allow_always":  "a",
	"reject_once":   "n",
	"reject_always": "N",
}

// optionForKey returns the option key k picks: its number (1–9) or its
// kind's letter.
func optionForKey(opts []model.PermissionOption, k string) (string, bool) {
	if len(k) == 1 && k[0] >= '1' && k[0] <= '9' {
		if i := int(k[0] - '1'); i < len(opts) {
			return opts[i].ID, true
		}
		return "", false
	}
	for _, o := range opts {
		if kindKeys[o.Kind] == k {
			return o.ID, true
		}
	}
	return "", false
}

// permissionBox is the dialog's lines, at most maxW×maxH: what the agent
// wants to do, the step's view (its diff, for an edit), and the options.
func permissionBox(req model.PermissionRequest, step *model.Step, maxW, maxH int) []string {
	if maxW < 20 || maxH < 6 {
		return nil
	}
	inner := min(maxW-4, 100)
	var body []string
	title := req.Title
	if step != nil && title == "" {
		title = step.Action() // "asks to: Edit a.go", not "asks to: Editing · a.go"
	}
	if title == "" {
		title = "tool call " + req.ToolCallID
	}
	body = append(body, styles.Bold+"The agent asks to: "+styles.Reset+ansi.Truncate(Plain(title), inner-19, "…"))
	var opts []string
	for i, o := range req.Options {
		key := fmt.Sprintf("%d", i+1)
		if k := kindKeys[o.Kind]; k != "" {
			key += "/" + k
		}
		name := styles.Allow.Render(Plain(o.Name))
		if strings.HasPrefix(o.Kind, "reject") {
			name = styles.Reject.Render(Plain(o.Name))
		}
		opts = append(opts, styles.HelpKey.Render("["+key+"]")+" "+name)
	}
	opts = append(opts, styles.HelpKey.Render("[esc]")+" cancel")
	optLines := wrapParts(opts, inner)
	viewH := maxH - 2 - len(body) - 1 - len(optLines)
	if step != nil && viewH >= 3 {
		view := computer.PanelLines(step, inner, min(viewH, 20))
		body = append(body, "")
		for _, l := range view {
			if strings.TrimSpace(ansi.Strip(l)) == "" && len(body) > 1 && strings.TrimSpace(ansi.Strip(body[len(body)-1])) == "" {
				continue
			}
			body = append(body, l)
		}
	}
	body = append(body, "")
	body = append(body, optLines...)
	if len(body) > maxH-2 {
		body = body[len(body)-(maxH-2):]
	}
	return styles.Frame("Permission", "", body, inner+4, styles.DialogBorder)
}

// wrapParts lays parts out on lines of at most width cells, two spaces apart.
func wrapParts(parts []string, width int) []string {
	var lines []string
	cur, n := "", 0
	for _, p := range parts {
		w := ansi.StringWidth(p)
		if n > 0 && n+2+w > width {
			lines = append(lines, cur)
			cur, n = "", 0
		}
		if n > 0 {
			cur += "  "
			n += 2
		}
		cur += p
		n += w
	}
	if n > 0 {
		lines = append(lines, cur)
	}
	return lines
}

package fold

import (
	"strconv"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// acpSessionResult reads what the answer to session/new, load or resume
// says about the session: its modes and options. A loaded session's
// replayed history ends with the answer (or goes on after it: some agents
// stream it late), so the message it was writing ends here.
func (f *Fold) acpSessionResult(c *ctx, r *acp.Response) {
	f.acpEndMessage(c)
	if r.Error != nil {
		return
	}
	var res acp.NewSessionResult
	if r.Decode(&res) != nil {
		return
	}
	s := &f.st.ACP.Session
	if res.Modes != nil {
		s.Mode = res.Modes.CurrentModeID
		s.Modes = make([]model.Mode, 0, len(res.Modes.AvailableModes))
		for _, m := range res.Modes.AvailableModes {
			s.Modes = append(s.Modes, model.Mode{ID: m.ID, Name: m.Name, Description: m.Description})
		}
	}
	if res.ConfigOptions != nil {
		f.acpOptions(res.ConfigOptions)
	}
}

// acpCommands replaces the slash commands the agent offers.
func (f *Fold) acpCommands(cmds []acp.Command) {
	out := make([]model.Command, 0, len(cmds))
	for _, c := range cmds {
		out = append(out, model.Command{Name: c.Name, Description: c.Description, Hint: c.Hint})
	}
	f.st.ACP.Session.Commands = out
}

// acpOptions replaces the session's configuration options; the option of
// category mode also sets the mode.
func (f *Fold) acpOptions(opts []acp.ConfigOption) {
	s := &f.st.ACP.Session
	out := make([]model.ConfigOption, 0, len(opts))
	for _, o := range opts {
		v := optionValue(o.Value)
		out = append(out, model.ConfigOption{ID: o.ID, Name: o.Name, Category: o.Category, Value: v})
		if o.Category == "mode" && v != "" {
			s.Mode = v
		}
	}
	s.Options = out
}

// optionValue is an option's current value as text: a choice's id, or
// true/false.
func optionValue(v jsontext.Value) string {
	switch v.Kind() {
	case '"':
		var s string
		if agui.UnmarshalValue(v, &s) == nil {
			return s
		}
	case 't':
		return "true"
	case 'f':
		return "false"
	case 0, 'n':
		return ""
	}
	return string(strictJSON(v, 1024))
}

// acpUsage records the context window in use and the cost so far.
func (f *Fold) acpUsage(u *acp.UsageUpdate) {
	s := &f.st.ACP.Session
	s.Used, s.Size = u.Used, u.Size
	if u.Cost != nil {
		s.Cost = strconv.FormatFloat(u.Cost.Amount, 'f', -1, 64)
		if u.Cost.Currency != "" {
			s.Cost += " " + u.Cost.Currency
		}
	}
}

// acpPlan shows the agent's plan: one plan item, its entries replaced by
// every plan the agent sends. It is running while an entry is not
// completed, and Text counts what is done ("3 of 7 done").
func (f *Fold) acpPlan(c *ctx, entries []acp.PlanEntry) {
	a, d := &f.st.ACP, &f.st.Display
	out := make([]model.PlanEntry, 0, len(entries))
	done := 0
	for _, e := range entries {
		out = append(out, model.PlanEntry{Content: e.Content, Priority: e.Priority, Status: e.Status})
		if e.Status == acp.StatusCompleted {
			done++
		}
	}
	data, _ := agui.MarshalValue(out)
	status := model.StatusCompleted
	if done < len(out) {
		status = model.StatusRunning
	}
	text := strconv.Itoa(done) + " of " + strconv.Itoa(len(out)) + " done"
	if it := d.itemSeq(a.PlanSeq); it != nil {
		it.Data, it.Status, it.Text = limitData(data), status, text
		touch(c, it)
		return
	}
	f.acpEndMessage(c)
	it := d.add(c, &f.st, &model.Item{ID: "plan", Kind: model.ItemPlan, Status: status, Text: text, Data: limitData(data)})
	a.PlanSeq = it.Seq
}

// acpTerminalAnswer reads a client terminal's output or exit from the
// answer to terminal/output or terminal/wait_for_exit, and redraws the
// steps that show it.
func (f *Fold) acpTerminalAnswer(c *ctx, req acpRequest, r *acp.Response) {
	if r.Error != nil || req.TerminalID == "" {
		return
	}
	a := &f.st.ACP
	f.acpTerminal(req.TerminalID)
	term := a.Terminals[req.TerminalID]
	var exit *acp.ExitStatus
	if req.Method == acp.MethodTerminalOutput {
		var res acp.TerminalOutputResult
		if r.Decode(&res) != nil {
			return
		}
		// The answer holds all output so far: it replaces, not appends.
		term.Output, term.Cut = cutUTF8(res.Output, MaxTerminalBytes), len(res.Output) > MaxTerminalBytes
		delete(a.out, req.TerminalID)
		exit = res.ExitStatus
	} else {
		exit = new(acp.ExitStatus)
		if r.Decode(exit) != nil {
			return
		}
	}
	if exit != nil && (exit.ExitCode != nil || exit.Signal != "") {
		term.ExitCode, term.Signal = exit.ExitCode, exit.Signal
	}
	a.Terminals[req.TerminalID] = term
	d := &f.st.Display
	calls := a.showing(req.TerminalID)
	d.visited += len(calls)
	for _, call := range calls {
		if s := d.step(call); s != nil {
			f.acpResult(s)
			d.touchStep(c, s)
		}
	}
}

package fold

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// acpToolCall folds a tool_call, a tool_call_update or a permission
// request's toolCall into the call's step, creating the step when the call
// was never announced. Only the fields sent change; content and locations
// replace what was there.
func (f *Fold) acpToolCall(c *ctx, tc *acp.ToolCallFields, announce bool) *model.Step {
	d := &f.st.Display
	s := d.step(tc.ToolCallID)
	if s != nil && s.FirstSeq < f.st.ACP.TurnSeq && (announce || s.Status.Done()) {
		// An id of an earlier turn: agents number their calls per turn, so
		// it names a new call (an update of one still open goes to it).
		s = nil
	}
	if s == nil {
		f.st.ACP.Echo = acpEcho{}
		s = f.acpNewStep(c, tc.ToolCallID)
	} else if announce {
		f.warn(c, acp.UpdateToolCall, "tool call '"+tc.ToolCallID+"' announced again; read as an update")
	}
	was := s.Status
	_, terminal := f.st.ACP.Tools[s.ToolCallID]
	fromRaw := !terminal && (s.Result == "" || s.Result == rawText(s.ResultJSON))
	if tc.Title != nil && (*tc.Title != "" || announce) {
		// An update that blanks the title says nothing new: agents that
		// serialise every field send "" for one they did not change.
		s.Title = *tc.Title
	}
	if tc.Name != nil {
		s.ToolName = *tc.Name
	} else if s.ToolName == "" {
		s.ToolName = tc.ToolName
	}
	if tc.Kind != nil {
		s.Category = categoryOr(*tc.Kind)
	}
	if tc.LocationsSet {
		s.Locations, s.Location = nil, ""
		for _, l := range tc.Locations {
			s.Locations = append(s.Locations, model.Location{Path: l.Path, Line: l.Line})
		}
		if len(s.Locations) > 0 {
			s.Location = s.Locations[0].String()
		}
	}
	if tc.Status != nil {
		if st, ok := acpStepStatus(*tc.Status); ok {
			if !s.Refused || st == model.StatusFailed {
				s.Status = st
			} else if st != s.Status {
				f.warn(c, acp.UpdateToolCallUpdate, "tool call '"+tc.ToolCallID+"' reported "+*tc.Status+" after its permission was refused; it stays "+string(s.Status))
			}
		} else {
			f.warn(c, acp.UpdateToolCallUpdate, "unknown tool call status '"+*tc.Status+"' ignored")
		}
	}
	if len(tc.RawInput) > 0 {
		s.ArgsJSON = strictJSON(tc.RawInput, 0)
		s.Args = string(s.ArgsJSON)
	}
	if len(tc.RawInput) > 0 || tc.Kind != nil || tc.LocationsSet {
		acpInputWords(s)
	}
	if len(tc.RawOutput) > 0 {
		s.ResultJSON = strictJSON(tc.RawOutput, MaxDataBytes)
		s.HasResult = true
	}
	if tc.ContentSet {
		f.acpContent(s, tc.Content)
	} else if fromRaw && len(s.Diffs) == 0 {
		s.Result = rawText(s.ResultJSON)
	}
	if t := tc.Terminal; t.TerminalID != "" {
		f.acpShowTerminal(s.ToolCallID, t.TerminalID)
		term := f.st.ACP.Terminals[t.TerminalID]
		if t.HasOutput {
			f.acpAppendOutput(t.TerminalID, &term, t.Output)
		}
		if t.Exit {
			term.ExitCode, term.Signal = t.ExitCode, t.Signal
		}
		f.st.ACP.Terminals[t.TerminalID] = term
	}
	f.acpResult(s)
	if s.Status.Done() && !was.Done() {
		c.endAt(s)
	}
	if it := d.item(keyTool(s.ToolCallID)); it != nil {
		it.Name = s.ToolName
		if it.Name == "" {
			it.Name = s.Title
		}
		if !s.Status.Done() && it.Status.Done() {
			it.Status = model.StatusOpen // an agent may take a call up again
		}
	}
	d.touchStep(c, s)
	d.settleStepItem(c, s)
	return s
}

// acpNewStep makes the step of a tool call and its transcript item.
func (f *Fold) acpNewStep(c *ctx, id string) *model.Step {
	d := &f.st.Display
	f.acpEndMessage(c)
	s := &model.Step{Index: d.nextStep(), ToolCallID: id, Status: model.StatusPending, Category: model.CategoryOther,
		RunID: d.RunID, Started: c.at, FirstSeq: c.seq, LastSeq: c.seq}
	if d.cow != nil {
		d.cow.steps.Add(s)
	}
	d.Steps = append(d.Steps, s)
	if !d.stepAt.ready() {
		d.reindex()
	}
	d.stepAt.set(id, s)
	c.steps = append(c.steps, s.Index)
	d.add(c, &f.st, &model.Item{ID: id, Kind: model.ItemToolCall, Status: model.StatusOpen, Step: s.Index})
	return s
}

// acpStepStatus maps ACP's ToolCallStatus onto a step's status.
func acpStepStatus(s string) (model.Status, bool) {
	switch s {
	case acp.StatusPending:
		return model.StatusPending, true
	case acp.StatusInProgress:
		return model.StatusRunning, true
	case acp.StatusCompleted:
		return model.StatusCompleted, true
	case acp.StatusFailed:
		return model.StatusFailed, true
	}
	return "", false
}

// strictJSON is raw JSON made strict and compact for a step (normalised
// when a peer sent invalid UTF-8 or a repeated name, so checkpoints can be
// written); nil when it cannot be, or when it is over limit bytes (limit 0:
// no limit).
func strictJSON(raw []byte, limit int) []byte {
	v := jsontext.Value(raw)
	if !v.IsValid() {
		clean, ok := agui.Normalize(raw)
		if !ok {
			return nil
		}
		v = jsontext.Value(clean)
	} else {
		v = v.Clone()
	}
	if v.Compact() != nil || (limit > 0 && len(v) > limit) {
		return nil
	}
	return []byte(v)
}

// acpContent replaces a step's content: diffs, screenshots, the text of
// its content blocks and the terminals it shows.
func (f *Fold) acpContent(s *model.Step, content []acp.ToolCallContent) {
	s.Diffs, s.Screenshots = nil, nil
	var texts, terms []string
	for i := range content {
		e := &content[i]
		switch e.Type {
		case acp.ToolContentDiff:
			s.Diffs = append(s.Diffs, model.Diff{Path: e.Path, OldText: e.OldText, NewText: e.NewText})
		case acp.ToolContentTerminal:
			if e.TerminalID != "" && !slices.Contains(terms, e.TerminalID) {
				terms = append(terms, e.TerminalID)
			}
		case acp.ToolContentContent:
			b := e.Content
			switch b.Type {
			case acp.BlockImage:
				src := &agui.PartSource{Type: "data", Value: b.Data, MimeType: b.MimeType}
				if b.Data == "" {
					src.Type, src.Value = "url", b.URI
				}
				s.Screenshots = append(s.Screenshots, image(src))
			case acp.BlockResource:
				if b.Resource != nil && b.Resource.Text != "" {
					texts = append(texts, b.Resource.Text)
				} else if t := blockText(b); t != "" {
					texts = append(texts, t)
				}
			default:
				if t := blockText(b); t != "" {
					texts = append(texts, t)
				}
			}
		}
	}
	if len(s.Diffs) > 0 || len(s.Screenshots) > 0 || len(texts) > 0 || len(terms) > 0 {
		s.HasResult = true
	}
	a := &f.st.ACP
	text := strings.Join(texts, "\n")
	if len(terms) == 0 {
		delete(a.Tools, s.ToolCallID)
		if len(a.Tools) == 0 {
			a.Tools = nil // an export must not tell an emptied map from none (law 1)
		}
		s.Result = text
		if text == "" && len(s.Diffs) == 0 {
			s.Result = rawText(s.ResultJSON)
		}
		return
	}
	if a.Tools == nil {
		a.Tools = map[string]acpTool{}
	}
	a.Tools[s.ToolCallID] = acpTool{Text: text, Terminals: terms}
	a.noteShows(s.ToolCallID, terms)
	for _, id := range terms {
		if _, ok := a.Terminals[id]; !ok {
			f.acpTerminal(id)
		}
	}
}

// acpTerminal makes sure a terminal is known.
func (f *Fold) acpTerminal(id string) {
	a := &f.st.ACP
	if a.Terminals == nil {
		a.Terminals = map[string]acpTerminal{}
	}
	if _, ok := a.Terminals[id]; !ok {
		a.Terminals[id] = acpTerminal{}
	}
}

// acpShowTerminal makes a tool call show a terminal (the Zed extension
// names one without a terminal content entry).
func (f *Fold) acpShowTerminal(toolCallID, termID string) {
	a := &f.st.ACP
	f.acpTerminal(termID)
	t, ok := a.Tools[toolCallID]
	if ok && slices.Contains(t.Terminals, termID) {
		return
	}
	if !ok {
		// Text the step had before it showed a terminal stays first.
		if s := f.st.Display.stepAt.get(toolCallID); s != nil {
			t.Text = s.Result
		}
	}
	if a.Tools == nil {
		a.Tools = map[string]acpTool{}
	}
	t.Terminals = append(slices.Clip(t.Terminals), termID)
	a.Tools[toolCallID] = t
	a.noteShows(toolCallID, []string{termID})
}

// acpAppendOutput adds a chunk to a terminal's output, up to MaxTerminalBytes.
func (f *Fold) acpAppendOutput(id string, t *acpTerminal, data string) {
	if t.Cut || data == "" {
		return
	}
	if len(t.Output)+len(data) > MaxTerminalBytes {
		data, t.Cut = cutUTF8(data, MaxTerminalBytes-len(t.Output)), true
	}
	a := &f.st.ACP
	b := a.out[id]
	if b == nil || b.Len() != len(t.Output) {
		b = &strings.Builder{}
		b.Grow(2 * (len(t.Output) + len(data)))
		b.WriteString(t.Output)
		if a.out == nil {
			a.out = map[string]*strings.Builder{}
		}
		a.out[id] = b
	}
	b.WriteString(data)
	t.Output = b.String()
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// rawText is a step's rawOutput as result text: a JSON string's value, or
// the JSON itself.
func rawText(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	var text string
	if jsontext.Value(raw).Kind() == '"' && agui.UnmarshalValue(raw, &text) == nil {
		return text
	}
	return string(raw)
}

// acpResult makes the Result of a step that shows a terminal: the text of
// its content blocks, then the output of each terminal, with the first
// exit code known.
func (f *Fold) acpResult(s *model.Step) {
	a := &f.st.ACP
	t, ok := a.Tools[s.ToolCallID]
	if !ok {
		return
	}
	var parts []string
	if t.Text != "" {
		parts = append(parts, t.Text)
	}
	s.ExitCode = nil
	for _, id := range t.Terminals {
		term := a.Terminals[id]
		if term.Output != "" {
			parts = append(parts, term.Output)
		}
		if s.ExitCode == nil && term.ExitCode != nil {
			s.ExitCode = term.ExitCode
		}
	}
	if len(parts) == 1 {
		s.Result = parts[0] // no copy: a streamed output stays cheap
	} else {
		s.Result = strings.Join(parts, "\n")
	}
	if s.Result != "" || s.ExitCode != nil {
		s.HasResult = true
	}
}

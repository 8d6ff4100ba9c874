package fold

import (
	"encoding/base64"
	"fmt"
	"math"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/go-json-experiment/json/jsontext"
)

// step finds the step of a tool call.
func (d *displayState) step(toolCallID string) *model.Step {
	if !d.stepAt.ready() {
		d.reindex()
	}
	return d.ownStep(d.stepAt.get(toolCallID))
}

// endRunSteps settles the steps of a run that ended while they were unfinished.
func (d *displayState) endRunSteps(c *ctx, runID string, to func(*model.Step) model.Status) {
	from := d.runSteps(runID)
	d.visited += len(d.Steps) - from
	for i := len(d.Steps) - 1; i >= from; i-- {
		s := d.Steps[i]
		if s.RunID != runID || s.Status.Done() {
			continue
		}
		if st := to(s); st != s.Status {
			s = d.ownStep(s)
			s.Status = st
			if st.Done() {
				c.endAt(s)
			}
			d.touchStep(c, s)
			if it := d.item(keyTool(s.ToolCallID)); it != nil {
				it.Status = st // pending: the run left it for the client
			}
		}
	}
}

// startStep makes the step (and its transcript item) for a tool call, with
// the category and location upstream gave it or the user's mapping.
func (d *displayState) startStep(c *ctx, f *state, e *agui.ToolCallStart, kinds ToolKinds, sub string) *model.Step {
	if s := d.step(e.ToolCallID); s != nil {
		s.ToolName = e.ToolCallName
		// A call started again says what upstream knows now: telemetry
		// learns a command from its result, after its decision started
		// the call (docs/OTEL.md).
		if cat, ok := e.Metadata.String("category"); ok {
			s.Category = categoryOr(cat)
		}
		if loc, ok := e.Metadata.String("location"); ok && loc != "" {
			s.Location = loc
		}
		d.touchStep(c, s)
		return s
	}
	s := &model.Step{Index: d.nextStep(), ToolCallID: e.ToolCallID, ToolName: e.ToolCallName, Status: model.StatusPending,
		MessageID: e.ParentMessageID, RunID: d.RunID, SubagentRunID: sub, Started: c.at, FirstSeq: c.seq, LastSeq: c.seq,
		Category: model.CategoryOther}
	if cat, ok := e.Metadata.String("category"); ok {
		s.Category = categoryOr(cat)
	} else if kind, ok := e.Metadata.String("kind"); ok {
		s.Category = categoryOr(kind)
	} else if k, ok := kinds[e.ToolCallName]; ok {
		s.Category = k.Category
	}
	if loc, ok := e.Metadata.String("location"); ok {
		s.Location = loc
	}
	if sub != "" {
		d.nest(s, sub)
	}
	if d.cow != nil {
		d.cow.steps.Add(s)
	}
	d.Steps = append(d.Steps, s)
	if !d.stepAt.ready() {
		d.reindex()
	}
	d.stepAt.set(s.ToolCallID, s)
	c.steps = append(c.steps, s.Index)
	d.add(c, f, &model.Item{ID: e.ToolCallID, Kind: model.ItemToolCall, Status: model.StatusOpen, Name: e.ToolCallName, Step: s.Index, SubagentRunID: sub})
	return s
}

// nest places a step of subagent sub under the step whose call started
// the subagent, one deeper than it.
func (d *displayState) nest(s *model.Step, sub string) {
	s.Depth = 1
	if !d.keys.ready() || !d.stepAt.ready() {
		d.reindex()
	}
	// Read only: neither is changed, so neither is copied for a checkpoint.
	it := d.keys.get(keySub(sub))
	if it == nil || it.ParentToolCallID == "" {
		return
	}
	s.ParentToolCallID = it.ParentToolCallID
	if parent := d.stepAt.get(it.ParentToolCallID); parent != nil {
		s.Depth = parent.Depth + 1
	}
}

// subagentEnded notes on the step that started the subagent of item it
// that the subagent no longer works (a call that returned at once, as
// Codex's spawn_agent does, still reads "working" until then).
func (d *displayState) subagentEnded(c *ctx, it *model.Item) {
	if it.ParentToolCallID == "" {
		return
	}
	if ps := d.step(it.ParentToolCallID); ps != nil && ps.SubagentRunning {
		ps.SubagentRunning = false
		d.touchStep(c, ps)
	}
}

func categoryOr(s string) model.Category {
	if c, ok := model.ParseCategory(s); ok {
		return c
	}
	return model.CategoryOther
}

// argsDone parses the finished argument text and resolves a configured location.
func (d *displayState) argsDone(s *model.Step, kinds ToolKinds) {
	v := jsontext.Value(s.Args)
	if len(s.Args) > 0 && v.IsValid() {
		c := v.Clone()
		if c.Compact() == nil {
			s.ArgsJSON = []byte(c)
		}
	}
	if k, ok := kinds[s.ToolName]; ok && s.Location == "" && k.Location != "" && s.ArgsJSON != nil {
		if loc, ok := pointer(jsontext.Value(s.ArgsJSON), k.Location); ok {
			s.Location = loc
		}
	}
}

// settleStepItem gives a tool-call item its step's final status.
func (d *displayState) settleStepItem(c *ctx, s *model.Step) {
	if it := d.item(keyTool(s.ToolCallID)); it != nil && s.Status.Done() {
		it.Status = s.Status
	}
}

// endAt stamps a step that just finished with the record's time and its
// duration; a record without a time leaves both unknown. Every way a step
// finishes (a result, a run's end, an ACP update, a refused permission)
// stamps it here, so the duration is computed one way.
func (c *ctx) endAt(s *model.Step) {
	if c.at.IsZero() {
		return
	}
	s.Ended = c.at
	if !s.Started.IsZero() {
		s.DurationMS = s.Ended.Sub(s.Started).Milliseconds()
	}
}

// setResult records a tool result on its step: text, screenshots, exit code and status.
func (d *displayState) setResult(c *ctx, s *model.Step, content agui.Content, md agui.Metadata) {
	if s.ArgsJSON == nil && s.Args != "" {
		d.argsDone(s, nil)
	}
	s.HasResult = true
	s.Result = content.String()
	s.ResultJSON = nil
	s.Screenshots = nil
	if content.IsParts {
		shown := make([]agui.ContentPart, len(content.Parts))
		for i, p := range content.Parts {
			shown[i] = p
			if p.Type == "image" && p.Source != nil {
				s.Screenshots = append(s.Screenshots, image(p.Source))
			}
			if p.Source == nil || p.Source.Type != "data" {
				continue
			}
			// Inline bytes are not worth keeping twice (the image is decoded
			// in Screenshots); the JSON view says what was there.
			src := *p.Source
			src.Value = fmt.Sprintf("(%d bytes of base64 %s)", len(src.Value), src.MimeType)
			shown[i].Source = &src
		}
		s.ResultJSON, _ = agui.MarshalValue(shown)
		if len(s.ResultJSON) > MaxDataBytes {
			s.ResultJSON = nil
		}
	}
	s.Status = model.StatusCompleted
	if code, ok := exitCode(md); ok {
		s.ExitCode = &code
		if code != 0 {
			s.Status = model.StatusFailed
		}
	}
	if failed(md) {
		s.Status = model.StatusFailed
	}
	if st, ok := md.String("status"); ok && st == "cancelled" {
		s.Status = model.StatusCancelled
	}
	c.endAt(s)
	d.touchStep(c, s)
	d.settleStepItem(c, s)
}

// image keeps a screenshot: decoded inline bytes (capped) or the URL.
func image(src *agui.PartSource) model.Image {
	img := model.Image{MimeType: src.MimeType}
	switch src.Type {
	case "data":
		if base64.StdEncoding.DecodedLen(len(src.Value)) > MaxImageBytes {
			img.Truncated = true
			return img
		}
		data, err := base64.StdEncoding.DecodeString(src.Value)
		if err != nil {
			data, err = base64.RawStdEncoding.DecodeString(src.Value)
		}
		if err == nil {
			img.Data = data
		} else {
			img.Truncated = true
		}
	case "url":
		img.URL = src.Value
	}
	return img
}

// exitCode reads metadata.exitCode, our convention for commands.
func exitCode(md agui.Metadata) (int, bool) {
	v, ok := md["exitCode"]
	if !ok || v.Kind() != '0' {
		return 0, false
	}
	var f float64
	if agui.UnmarshalValue(v, &f) != nil || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return 0, false
	}
	return int(f), true
}

// failed reads the result conventions for a failed tool: metadata.status
// "failed"/"error", metadata.isError true, or a non-empty metadata.error.
func failed(md agui.Metadata) bool {
	if st, ok := md.String("status"); ok && (st == "failed" || st == "error") {
		return true
	}
	if v, ok := md["isError"]; ok && v.Kind() == 't' {
		return true
	}
	if v, ok := md["error"]; ok {
		switch v.Kind() {
		case 'n', 'f':
			return false
		case '"':
			s, _ := md.String("error")
			return s != ""
		}
		return true
	}
	return false
}

package fold

import (
	"strconv"
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
)

// acpChunk appends a message or thought chunk. Chunks continue the current
// message while they are of its kind and carry its messageId or none; a
// chunk of another kind or id, or anything else shown in between, starts
// a new one.
//
// User message chunks that repeat the turn's prompt (agents echo it) are
// dropped: the prompt shows once. A user message that is not an echo (a
// session/load replaying history) begins a turn.
func (f *Fold) acpChunk(c *ctx, kind string, ch *acp.Chunk) {
	a, d := &f.st.ACP, &f.st.Display
	text := blockText(&ch.Content)
	if kind == acp.UpdateUserMessageChunk && f.acpEchoes(text) {
		return
	}
	a.Echo = acpEcho{}
	var it *model.Item
	if a.Msg.Seq != 0 && a.Msg.Kind == kind && (ch.MessageID == "" || ch.MessageID == a.Msg.ID) {
		it = d.itemSeq(a.Msg.Seq)
	}
	if it == nil {
		f.acpEndMessage(c)
		item := &model.Item{ID: ch.MessageID, Kind: model.ItemMessage, Status: model.StatusOpen, Role: "assistant"}
		switch kind {
		case acp.UpdateUserMessageChunk:
			item.Role = "user"
			a.TurnSeq = c.seq
		case acp.UpdateAgentThoughtChunk:
			item.Kind, item.Role = model.ItemReasoning, "reasoning"
		}
		it = d.add(c, &f.st, item)
		a.Msg = acpMessage{Kind: kind, ID: ch.MessageID, Seq: it.Seq}
	}
	d.appendTo(c, it, text)
}

// acpEchoes reports whether a user message chunk of text repeats the next
// part of the turn's prompt, and notes how much of it has been repeated.
func (f *Fold) acpEchoes(text string) bool {
	e := &f.st.ACP.Echo
	if e.Seq == 0 {
		return false
	}
	it := f.st.Display.itemSeq(e.Seq)
	if it == nil || !strings.HasPrefix(it.Text[min(e.Off, len(it.Text)):], text) {
		return false
	}
	e.Off += len(text)
	return true
}

// acpEndMessage completes the message chunks were going to, if any: what
// comes next starts a new one.
func (f *Fold) acpEndMessage(c *ctx) {
	a := &f.st.ACP
	if a.Msg.Seq == 0 {
		return
	}
	if it := f.st.Display.itemSeq(a.Msg.Seq); it != nil && it.Status == model.StatusOpen {
		it.Status = model.StatusCompleted
		touch(c, it)
	}
	a.Msg = acpMessage{}
}

// blockText is a content block as message text: text as it is, links as
// Markdown links, and a short mark for what text cannot show.
func blockText(b *acp.ContentBlock) string {
	switch b.Type {
	case acp.BlockText:
		return b.Text
	case acp.BlockResourceLink:
		name := b.Title
		if name == "" {
			name = b.Name
		}
		if name == "" {
			name = b.URI
		}
		return "[" + name + "](" + b.URI + ")"
	case acp.BlockResource:
		if b.Resource != nil {
			return "[" + b.Resource.URI + "](" + b.Resource.URI + ")"
		}
	case acp.BlockImage, acp.BlockAudio:
		mark := "[" + b.Type
		if b.MimeType != "" {
			mark += " " + b.MimeType
		}
		return mark + "]"
	}
	return ""
}

// promptText is a prompt's content blocks as one message text.
func promptText(blocks []acp.ContentBlock) string {
	var parts []string
	for i := range blocks {
		if t := blockText(&blocks[i]); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, "\n")
}

// acpPrompt starts the run of a prompt turn and shows the prompt as the
// user's message. The run's id is the request id, which its answer
// names; people see its number in the session.
func (f *Fold) acpPrompt(c *ctx, p *acp.Prompt) string {
	d := &f.st.Display
	f.acpEndMessage(c)
	runID := p.ID.String()
	d.RunID = runID
	f.st.ACP.Runs++
	run := &model.Run{ThreadID: f.st.ACP.Session.ID, RunID: runID, Number: f.st.ACP.Runs, Status: model.StatusRunning,
		Started: c.at, FirstSeq: c.seq, LastSeq: c.seq}
	if d.cow != nil {
		d.cow.runs.Add(run)
	}
	d.Runs = append(d.Runs, run)
	d.startedRun(f.st.NextItem+1, d.nextStep())
	d.add(c, &f.st, &model.Item{ID: runID, Kind: model.ItemRun, Status: model.StatusOpen, RunID: runID})
	prompt := d.add(c, &f.st, &model.Item{ID: runID, Kind: model.ItemMessage, Status: model.StatusCompleted, Role: "user", Text: promptText(p.Prompt)})
	f.st.ACP.TurnSeq = c.seq
	f.st.ACP.Echo = acpEcho{Seq: prompt.Seq}
	return runID
}

// acpPromptEnd ends a prompt's run with the answer's stop reason (or its
// error) and settles what the turn left unfinished, as RUN_FINISHED and
// RUN_ERROR do: cancelled with the turn, failed with an error, otherwise
// completed.
func (f *Fold) acpPromptEnd(c *ctx, runID string, r *acp.Response) {
	d := &f.st.Display
	f.acpEndMessage(c)
	status, outcome := model.StatusCompleted, acp.StopEndTurn
	var errMsg, errCode string
	if r.Error != nil {
		status, outcome = model.StatusFailed, ""
		errMsg, errCode = r.Error.Message, strconv.FormatInt(r.Error.Code, 10)
	} else {
		var res acp.PromptResult
		if r.Decode(&res) == nil && res.StopReason != "" {
			outcome = res.StopReason
		}
		if outcome == acp.StopCancelled {
			status = model.StatusCancelled
		}
	}
	if run := d.run(runID); run != nil {
		run.Status, run.Outcome, run.Ended, run.LastSeq = status, outcome, c.at, c.seq
		run.Error, run.ErrorCode = errMsg, errCode
	}
	d.endRunSteps(c, runID, func(*model.Step) model.Status {
		if status == model.StatusFailed || status == model.StatusCancelled {
			return status
		}
		return model.StatusCompleted
	})
	d.closeOpen(c, runID, status)
	if it := d.item(keyRun(runID)); it != nil {
		it.Status = status
		touch(c, it)
	}
	if r.Error != nil {
		d.add(c, &f.st, &model.Item{ID: runID, Kind: model.ItemError, Status: model.StatusFailed, Text: errMsg, Name: errCode})
	}
}

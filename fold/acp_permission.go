package fold

import (
	"strings"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/acp"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// acpPermission shows an agent's permission request: the step it names
// takes the request's toolCall fields and waits (pending), and a
// permission item holds the options until the answer. It returns the item.
func (f *Fold) acpPermission(c *ctx, r *acp.RequestPermission) uint64 {
	d := &f.st.Display
	step, title := -1, ""
	if r.ToolCall.ToolCallID != "" {
		if s := d.step(r.ToolCall.ToolCallID); s != nil && s.Refused {
			// Asked again: the new answer decides.
			s.Refused, s.Status = false, model.StatusPending
		}
		s := f.acpToolCall(c, &r.ToolCall, false)
		if !s.Status.Done() && s.Status != model.StatusPending {
			s.Status = model.StatusPending
			d.touchStep(c, s)
		}
		step, title = s.Index, s.Action()
	} else if r.ToolCall.Title != nil {
		title = *r.ToolCall.Title
	}
	f.acpEndMessage(c)
	opts := r.Options
	if opts == nil {
		opts = []acp.PermissionOption{}
	}
	data, _ := agui.MarshalValue(opts)
	it := d.add(c, &f.st, &model.Item{ID: r.ID.String(), Kind: model.ItemPermission, Status: model.StatusOpen, Name: title, Data: limitData(data)})
	it.Step = step
	return it.Seq
}

// acpPermissionAnswer records the answer to a permission request on its
// item: the option chosen (its name and kind), or that it was cancelled.
// A rejection or a cancellation also settles the step the request named
// (acpRefused).
func (f *Fold) acpPermissionAnswer(c *ctx, seq uint64, r *acp.Response) {
	it := f.st.Display.itemSeq(seq)
	if it == nil {
		return
	}
	var res acp.PermissionResult
	refused := false
	switch {
	case r.Error != nil:
		it.Status, it.Text = model.StatusFailed, "error: "+r.Error.Message
	case r.Decode(&res) != nil:
		it.Status, it.Text = model.StatusFailed, "unreadable answer"
	case res.Outcome.Outcome == "selected":
		it.Status, it.Text = model.StatusCompleted, "chose "+res.Outcome.OptionID
		var opts []acp.PermissionOption
		if agui.UnmarshalValue(it.Data, &opts) == nil {
			for _, o := range opts {
				if o.OptionID == res.Outcome.OptionID {
					it.Text = permissionAnswer(o)
					refused = strings.HasPrefix(o.Kind, "reject")
					break
				}
			}
		}
	default:
		it.Status, it.Text = model.StatusCancelled, "cancelled"
		refused = true
	}
	touch(c, it)
	if refused {
		f.acpRefused(c, it.Step)
	}
}

// permissionAnswer is the answer option o gives, in words: by its kind,
// which ACP defines, else by its name, which the agent chose.
func permissionAnswer(o acp.PermissionOption) string {
	switch o.Kind {
	case "allow_once":
		return model.AnswerAllowedOnce
	case "allow_always":
		return model.AnswerAllowedAlways
	case "reject_once":
		return model.AnswerRejected
	case "reject_always":
		return model.AnswerRejectedAlways
	}
	if o.Name != "" {
		return "chose " + o.Name
	}
	return "chose " + o.OptionID
}

// acpRefused settles the step of a permission the user rejected or
// cancelled: the call did not run, so the step is cancelled now (failed
// stays failed) and marked Refused, which keeps a later update or the
// turn's end from showing it completed. ACP has no status for a refused
// call; cancelled is the final status that says it did not happen.
func (f *Fold) acpRefused(c *ctx, index int) {
	d := &f.st.Display
	s := d.ownStep(d.stepNo(index))
	if s == nil {
		return
	}
	s.Refused = true
	if s.Status != model.StatusFailed && s.Status != model.StatusCancelled {
		s.Status = model.StatusCancelled
		c.endAt(s)
	}
	d.touchStep(c, s)
	d.settleStepItem(c, s)
}

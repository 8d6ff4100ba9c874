package fold

import (
	"cmp"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// MaxImageBytes caps the bytes kept of one screenshot; larger ones are
// marked truncated and shown as a placeholder: a 50 MB screenshot must
// not sink the viewer.
const MaxImageBytes = 8 << 20

// MaxDataBytes caps raw JSON kept on an item (unknown events, custom values).
const MaxDataBytes = 256 << 10

// displayState is the view model on top of the reference messages: items
// with streaming state, the agent computer's steps, runs and their tree.
type displayState struct {
	Items []*model.Item `json:"items"`
	// Steps are the steps kept, in order: Steps[i] has Index StepBase+i.
	// StepBase is how many of the oldest steps Trim forgot (forget.go).
	Steps    []*model.Step `json:"steps"`
	StepBase int           `json:"stepBase,omitzero"`
	Runs     []*model.Run  `json:"runs"`
	// RunID is the current run, for attributing items.
	RunID string `json:"runId,omitempty"`
	// Gone holds, for each key whose newest item Trim dropped,
	// that item's Seq: the key finds nothing until a newer item takes it,
	// and an event that would update the dropped item adds none (shed.go).
	Gone map[itemKey]uint64 `json:"gone,omitempty"`
	// Forgotten are the message keys whose tombstones Trim forgot, by
	// id: a message resent finds its item dropped, not missing (forget.go).
	Forgotten idHashes `json:"forgotten,omitempty"`
	// Sketches stand in for the steps before StepBase (sketches.go).
	Sketches sketches `json:"sketches,omitzero"`

	stepAt index[string, *model.Step]
	// keys finds the item that stands for a protocol entity (derived from
	// the items: the newest item with a key wins).
	keys index[itemKey, *model.Item]
	// text grows streamed item text by item Seq, args streamed step
	// arguments by tool call id (stream.go).
	text textStreams[uint64]
	args textStreams[string]
	// cow, when set, says which items, steps and runs may be changed in
	// place (checkpoint.go).
	cow *cow
	// runIdx finds runs and where their items and steps begin (run_index.go).
	runIdx runIndex
	// visited counts the entries walks look at (items, steps, runs), so
	// that tests can hold it to a constant per event as threads grow
	// (linear_runs_internal_test.go).
	visited int
}

func (d *displayState) setText(it *model.Item, s string) {
	d.text.end(it.Seq)
	it.Text = s
}

// itemKey names the entity an item stands for: ns is 'm' (message),
// 't' (tool call), 'r' (run), 'p' (phase, id "subagent/name"), 's' (subagent).
type itemKey struct {
	ns byte
	id string
}

func keyMsg(id string) itemKey  { return itemKey{'m', id} }
func keyTool(id string) itemKey { return itemKey{'t', id} }
func keyRun(id string) itemKey  { return itemKey{'r', id} }
func keySub(id string) itemKey  { return itemKey{'s', id} }
func keyPhase(sub, name string) itemKey {
	return itemKey{'p', sub + "/" + name}
}

// keyOf is the key an item was added under (zero for items without one).
func keyOf(it *model.Item) itemKey {
	switch it.Kind {
	case model.ItemMessage, model.ItemReasoning, model.ItemActivity, model.ItemPlan:
		// A plan is an activity of its own kind (plan_activity.go).
		return keyMsg(it.ID)
	case model.ItemToolCall:
		return keyTool(it.ID)
	case model.ItemRun:
		return keyRun(it.ID)
	case model.ItemPhase:
		return keyPhase(it.SubagentRunID, it.Name)
	case model.ItemSubagent:
		return keySub(it.ID)
	}
	return itemKey{}
}

func (d *displayState) reindex() {
	d.reindexKeys()
	d.reindexSteps()
}

// reindexKeys rebuilds the lookup of items by key. A key whose newest item
// was dropped finds nothing, even when an older item with it stays, as it
// did before the rebuild.
func (d *displayState) reindexKeys() {
	d.keys.fresh(len(d.Items))
	for _, it := range d.Items {
		if k := keyOf(it); k.ns != 0 {
			d.keys.set(k, it)
		}
	}
	if len(d.Gone) == 0 {
		return
	}
	for _, it := range d.Items {
		if k := keyOf(it); k.ns != 0 && d.keys.get(k) == it && d.Gone[k] > it.Seq {
			d.keys.set(k, nil)
		}
	}
}

// stepNo returns the step with Index i, nil when there is none or Trim
// forgot it.
func (d *displayState) stepNo(i int) *model.Step {
	if i -= d.StepBase; i < 0 || i >= len(d.Steps) {
		return nil
	}
	return d.Steps[i]
}

// nextStep is the Index of the next step made.
func (d *displayState) nextStep() int { return d.StepBase + len(d.Steps) }

func (d *displayState) reindexSteps() {
	d.stepAt.fresh(len(d.Steps))
	for _, s := range d.Steps {
		d.stepAt.set(s.ToolCallID, s)
	}
}

// ctx is what the display needs to know about the record being applied.
type ctx struct {
	seq     uint64
	at      time.Time
	changed []uint64 // items changed, with repeats
	steps   []int    // steps changed, with repeats
}

func (d *displayState) item(key itemKey) *model.Item {
	if !d.keys.ready() {
		d.reindex()
	}
	return d.ownItem(d.keys.get(key))
}

// add appends a new item; it must have the key keyOf gives it (or none).
func (d *displayState) add(c *ctx, f *state, it *model.Item) *model.Item {
	if !d.keys.ready() {
		d.reindex()
	}
	f.NextItem++
	it.Seq = f.NextItem
	it.Version = 1
	it.FirstSeq, it.LastSeq = c.seq, c.seq
	it.Started, it.Updated = c.at, c.at
	if it.RunID == "" {
		it.RunID = d.RunID
	}
	if it.Kind != model.ItemToolCall {
		it.Step = -1 // only tool-call items show a step
	}
	d.created(it)
	d.Items = append(d.Items, it)
	if k := keyOf(it); k.ns != 0 {
		d.keys.set(k, it)
		if len(d.Gone) > 0 {
			delete(d.Gone, k) // the key finds this item now
		}
		if k.ns == 'm' && !d.Forgotten.empty() {
			d.Forgotten = d.Forgotten.without(k.id)
		}
	}
	c.changed = append(c.changed, it.Seq)
	return it
}

func touch(c *ctx, it *model.Item) {
	it.Version++
	it.LastSeq = c.seq
	if !c.at.IsZero() {
		it.Updated = c.at
	}
	c.changed = append(c.changed, it.Seq)
}

// touchStep records a change to a step, and to the transcript item that
// shows it (its version too, so a render cache keyed by version redraws it).
func (d *displayState) touchStep(c *ctx, s *model.Step) {
	if s.Shed {
		// Every change to a step ends here: content that comes for a step
		// whose content was shed is not kept either, so Shed keeps meaning
		// "no content" and what was shed does not grow back.
		clearContent(s)
	} else {
		// What the label says of the content stays when it is shed.
		s.Created = s.OnlyNewFiles()
	}
	s.LastSeq = c.seq
	c.steps = append(c.steps, s.Index)
	if it := d.item(keyTool(s.ToolCallID)); it != nil {
		touch(c, it)
	}
}

// limitData copies raw JSON for an item: strict JSON (normalised when a
// producer sent invalid UTF-8 or repeated names, so checkpoints can be
// written), and nothing when it is larger than MaxDataBytes.
func limitData(v []byte) []byte {
	if len(v) == 0 || len(v) > MaxDataBytes {
		return nil
	}
	if jsontext.Value(v).IsValid() {
		return jsontext.Value(v).Clone()
	}
	if clean, ok := agui.Normalize(v); ok {
		return clean
	}
	return nil
}

// apply updates the display for one event that passed verification.
func (d *displayState) apply(c *ctx, f *state, ev agui.Event, kinds ToolKinds) {
	b := ev.Common()
	sub := ""
	if b.SubagentRunID.IsSet() {
		sub = b.SubagentRunID.Value
	}
	switch e := ev.(type) {
	case *agui.RunStarted:
		d.RunID = e.RunID
		if !d.resumeRun(c, e.RunID) {
			run := &model.Run{ThreadID: e.ThreadID, RunID: e.RunID, ParentRunID: e.ParentRunID, Status: model.StatusRunning,
				Started: c.at, FirstSeq: c.seq, LastSeq: c.seq}
			if e.ParentRunID == "" && e.Input != nil {
				run.ParentRunID = e.Input.ParentRunID
			}
			if d.cow != nil {
				d.cow.runs.Add(run)
			}
			d.Runs = append(d.Runs, run)
			d.startedRun(f.NextItem+1, d.nextStep())
			d.add(c, f, &model.Item{ID: e.RunID, Kind: model.ItemRun, Status: model.StatusOpen, RunID: e.RunID, Name: run.ParentRunID})
		}
		if e.Input != nil {
			for i := range e.Input.Messages {
				d.snapshotMessage(c, f, &e.Input.Messages[i], kinds)
			}
		}
	case *agui.RunFinished:
		run := d.run(e.RunID)
		status, outcome := model.StatusCompleted, "success"
		if e.Outcome != nil && e.Outcome.Type != "" {
			outcome = e.Outcome.Type
		}
		if outcome == "cancelled" {
			status = model.StatusCancelled
		}
		pending := f.Reduce.pendingToolCalls(e)
		if run != nil {
			run.Status, run.Outcome, run.Ended, run.LastSeq = status, outcome, c.at, c.seq
			run.Error, run.ErrorCode = "", ""
			run.Result = limitData(e.Result)
			run.PendingToolCalls = pending
			if len(e.Usage) > 0 {
				run.Usage, _ = agui.MarshalValue(e.Usage)
			}
		}
		d.endRunSteps(c, e.RunID, func(s *model.Step) model.Status {
			switch {
			case outcome == "cancelled":
				return model.StatusCancelled
			case outcome == "interrupt" || contains(pending, s.ToolCallID):
				return model.StatusPending
			}
			return model.StatusCompleted
		})
		d.closeOpen(c, e.RunID, status)
		if it := d.item(keyRun(e.RunID)); it != nil {
			it.Status = status
			touch(c, it)
		}
	case *agui.RunError:
		runID := d.RunID
		again := false
		if run := d.run(runID); run != nil && !run.Status.Done() {
			again = run.Error != "" && run.Error == e.Message && run.ErrorCode == e.Code
			run.Status, run.Error, run.ErrorCode, run.Ended, run.LastSeq = model.StatusFailed, e.Message, e.Code, c.at, c.seq
			if len(e.Usage) > 0 {
				run.Usage, _ = agui.MarshalValue(e.Usage)
			}
		}
		d.endRunSteps(c, runID, func(*model.Step) model.Status { return model.StatusFailed })
		d.closeOpen(c, runID, model.StatusFailed)
		if it := d.item(keyRun(runID)); it != nil && !it.Status.Done() {
			it.Status = model.StatusFailed
			touch(c, it)
		}
		if !again {
			d.add(c, f, &model.Item{ID: runID, Kind: model.ItemError, Status: model.StatusFailed, Text: e.Message, Name: e.Code, SubagentRunID: sub})
		}
	case *agui.StepStarted:
		d.add(c, f, &model.Item{ID: e.StepName, Kind: model.ItemPhase, Status: model.StatusOpen, Name: e.StepName, SubagentRunID: sub})
	case *agui.StepFinished:
		if it := d.item(keyPhase(sub, e.StepName)); it != nil && !it.Status.Done() {
			it.Status = model.StatusCompleted
			touch(c, it)
		}
	case *agui.TextMessageStart:
		role := string(e.Role)
		if role == "" {
			role = string(agui.RoleAssistant)
		}
		d.openMessage(c, f, e.MessageID, model.ItemMessage, role, e.Name.Value, sub)
	case *agui.ReasoningMessageStart:
		d.openMessage(c, f, e.MessageID, model.ItemReasoning, string(agui.RoleReasoning), "", sub)
	case *agui.TextMessageContent:
		d.appendText(c, e.MessageID, e.Delta)
	case *agui.ReasoningMessageContent:
		d.appendText(c, e.MessageID, e.Delta)
	case *agui.TextMessageEnd:
		d.closeMessage(c, e.MessageID, &f.Reduce)
	case *agui.ReasoningMessageEnd:
		d.closeMessage(c, e.MessageID, &f.Reduce)
	case *agui.ToolCallStart:
		d.startStep(c, f, e, kinds, sub)
	case *agui.ToolCallArgs:
		if s := d.step(e.ToolCallID); s != nil {
			s.Args = d.args.append(s.ToolCallID, s.Args, e.Delta)
			d.touchStep(c, s)
		}
	case *agui.ToolCallEnd:
		s := d.step(e.ToolCallID)
		if s == nil {
			d.args.end(e.ToolCallID)
		} else {
			s.Args = d.args.done(e.ToolCallID, s.Args)
		}
		if s != nil {
			d.argsDone(s, kinds)
			if s.Status == model.StatusPending {
				s.Status = model.StatusRunning
			}
			d.touchStep(c, s)
			d.settleStepItem(c, s)
		}
	case *agui.ToolCallResult:
		if s := d.step(e.ToolCallID); s != nil {
			d.setResult(c, s, e.Content, e.Metadata)
		}
	case *agui.MessagesSnapshot:
		for i := range e.Messages {
			d.snapshotMessage(c, f, &e.Messages[i], kinds)
		}
	case *agui.ActivitySnapshot:
		if e.ActivityType == PlanActivity && d.planActivity(c, f, e, sub) {
			break
		}
		key := keyMsg(e.MessageID)
		if it := d.item(key); it != nil {
			if e.Replace == nil || *e.Replace {
				it.Data, it.Name = limitData(e.Content), e.ActivityType
				touch(c, it)
			}
		} else if !d.gone(key) {
			d.add(c, f, &model.Item{ID: e.MessageID, Kind: model.ItemActivity, Status: model.StatusCompleted, Name: e.ActivityType, Data: limitData(e.Content), SubagentRunID: sub})
		}
	case *agui.ActivityDelta:
		if it := d.item(keyMsg(e.MessageID)); it != nil && it.Kind == model.ItemActivity {
			if m := f.Reduce.find(e.MessageID); m != nil && m.Content.Object != nil {
				it.Data = limitData(m.Content.Object)
				touch(c, it)
			}
		}
	case *agui.Custom:
		d.add(c, f, &model.Item{ID: e.Name, Kind: model.ItemCustom, Status: model.StatusCompleted, Name: e.Name, Data: limitData(e.Value), SubagentRunID: sub})
	case *agui.Raw:
		d.add(c, f, &model.Item{ID: e.Source, Kind: model.ItemRaw, Status: model.StatusCompleted, Name: e.Source, Data: limitData(e.Event), SubagentRunID: sub})
	case *agui.SubagentStarted:
		if !d.resumeSubagent(c, sub) {
			d.add(c, f, &model.Item{ID: sub, Kind: model.ItemSubagent, Status: model.StatusOpen, Name: e.Name.Value, Text: e.Description.Value, SubagentRunID: sub,
				ParentToolCallID: e.ParentToolCallID.Value})
		}
		if ps := d.step(e.ParentToolCallID.Value); e.ParentToolCallID.IsSet() && ps != nil {
			ps.Subagent = cmp.Or(ps.Subagent, e.Name.Value, sub)
			ps.SubagentRunning = true
			d.touchStep(c, ps)
		}
	case *agui.SubagentFinished:
		if it := d.item(keySub(sub)); it != nil {
			it.Status = model.StatusCompleted
			touch(c, it)
			d.subagentEnded(c, it)
		}
	case *agui.SubagentError:
		if it := d.item(keySub(sub)); it != nil {
			it.Status = model.StatusFailed
			d.setText(it, e.Message.Value)
			touch(c, it)
			d.subagentEnded(c, it)
		}
	}
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func (d *displayState) run(id string) *model.Run {
	if i := d.runAt(id); i >= 0 {
		return d.ownRun(d.Runs[i])
	}
	return nil
}

// closeOpen ends the open message, phase and subagent items of a run.
func (d *displayState) closeOpen(c *ctx, runID string, status model.Status) {
	from := d.runItems(runID)
	d.visited += len(d.Items) - from
	for i := len(d.Items) - 1; i >= from; i-- {
		it := d.Items[i]
		if it.RunID != runID || it.Status != model.StatusOpen || it.Kind == model.ItemRun || it.Kind == model.ItemToolCall {
			continue
		}
		it = d.ownItem(it)
		if status == model.StatusCompleted || it.Kind == model.ItemMessage || it.Kind == model.ItemReasoning {
			it.Status = model.StatusCompleted
		} else {
			it.Status = status
		}
		touch(c, it)
	}
}

func (d *displayState) openMessage(c *ctx, f *state, id string, kind model.ItemKind, role, name, sub string) {
	key := keyMsg(id)
	if it := d.item(key); it != nil {
		if it.Kind == model.ItemActivity {
			return
		}
		it.Status = model.StatusOpen
		touch(c, it)
		return
	}
	if d.gone(key) {
		return // the fold without shedding reopens the dropped item
	}
	d.add(c, f, &model.Item{ID: id, Kind: kind, Status: model.StatusOpen, Role: role, Name: name, SubagentRunID: sub})
}

// appendTo streams delta onto an item's text (stream.go), for AG-UI and
// ACP messages alike.
func (d *displayState) appendTo(c *ctx, it *model.Item, delta string) {
	it.Text = d.text.append(it.Seq, it.Text, delta)
	touch(c, it)
}

func (d *displayState) appendText(c *ctx, id, delta string) {
	if it := d.item(keyMsg(id)); it != nil && it.Kind != model.ItemActivity {
		d.appendTo(c, it, delta)
	}
}

func (d *displayState) closeMessage(c *ctx, id string, r *reduceState) {
	if it := d.item(keyMsg(id)); it != nil && it.Kind != model.ItemActivity && it.Status == model.StatusOpen {
		if t, ok := r.sameText(id, it.Text); ok {
			d.text.end(it.Seq)
			it.Text = t
		} else {
			it.Text = d.text.done(it.Seq, it.Text)
		}
		it.Status = model.StatusCompleted
		touch(c, it)
	}
}

// snapshotMessage shows a message that arrived whole (MESSAGES_SNAPSHOT or
// RUN_STARTED.input): a new item, or the item's text replaced.
func (d *displayState) snapshotMessage(c *ctx, f *state, m *agui.Message, kinds ToolKinds) {
	switch m.Role {
	case agui.RoleTool:
		if s := d.step(m.ToolCallID); s != nil && !s.HasResult {
			d.setResult(c, s, m.Content, m.Metadata)
			if m.Error != "" { // AG-UI's own mark of a tool that failed
				s.Status = model.StatusFailed
				if s.Result == "" && !s.Shed {
					s.Result = m.Error
				}
				d.settleStepItem(c, s)
			}
		}
		return
	}
	kind := model.ItemMessage
	switch m.Role {
	case agui.RoleReasoning:
		kind = model.ItemReasoning
	case agui.RoleActivity:
		kind = model.ItemActivity
	}
	key := keyMsg(m.ID)
	it := d.item(key)
	if it == nil && !d.gone(key) { // a dropped item is updated, not added, without shedding
		if m.Role == agui.RoleAssistant && m.Content.String() == "" && len(m.ToolCalls) > 0 {
			// A message that only carries tool calls shows as its steps.
		} else {
			it = d.add(c, f, &model.Item{ID: m.ID, Kind: kind, Status: model.StatusCompleted, Role: string(m.Role), Name: m.Name, SubagentRunID: m.SubagentRunID.Value})
		}
	}
	if it != nil {
		if kind == model.ItemActivity {
			it.Name, it.Data = m.ActivityType, limitData(m.Content.Object)
		} else {
			d.setText(it, m.Content.String())
		}
		if it.Status == model.StatusOpen {
			it.Status = model.StatusCompleted
		}
		touch(c, it)
	}
	for _, tc := range m.ToolCalls {
		if d.step(tc.ID) != nil {
			continue
		}
		start := &agui.ToolCallStart{Base: agui.Base{Metadata: tc.Metadata, SubagentRunID: m.SubagentRunID}, ToolCallID: tc.ID, ToolCallName: tc.Function.Name, ParentMessageID: m.ID}
		s := d.startStep(c, f, start, kinds, m.SubagentRunID.Value)
		s.Args = tc.Function.Arguments
		d.argsDone(s, kinds)
		// Finished by the tool message that follows in the snapshot, if any;
		// until then it waits for a result.
		s.Status = model.StatusPending
		if it := d.item(keyTool(tc.ID)); it != nil {
			it.Status = model.StatusPending
		}
	}
}

package fold

import (
	"encoding/json"
	"strconv"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// PlanActivity is the activity type of an agent's plan in AG-UI: an
// ACTIVITY_SNAPSHOT of this type whose content is {"entries": [{content,
// status, priority}]} shows as the plan, a checklist replaced as the agent
// works, as an ACP agent's plan does. The translations of the agents' own
// session files send their to-do tools so (Claude Code's TodoWrite,
// Codex's update_plan, Gemini CLI's write_todos).
const PlanActivity = "plan"

// planActivity shows a plan activity as the plan item of its id; it
// reports false for content that is no plan (shown as any activity).
func (d *displayState) planActivity(c *ctx, f *state, e *agui.ActivitySnapshot, sub string) bool {
	var content struct {
		Entries []model.PlanEntry `json:"entries"`
	}
	if json.Unmarshal(e.Content, &content) != nil || content.Entries == nil {
		return false
	}
	done := 0
	for _, en := range content.Entries {
		if en.Status == "completed" {
			done++
		}
	}
	status := model.StatusCompleted
	if done < len(content.Entries) {
		status = model.StatusRunning
	}
	data, _ := agui.MarshalValue(content.Entries)
	text := strconv.Itoa(done) + " of " + strconv.Itoa(len(content.Entries)) + " done"
	key := keyMsg(e.MessageID)
	if it := d.item(key); it != nil {
		if e.Replace == nil || *e.Replace {
			it.Kind, it.Data, it.Status, it.Text = model.ItemPlan, limitData(data), status, text
			touch(c, it)
		}
		return true
	}
	if !d.gone(key) {
		d.add(c, f, &model.Item{ID: e.MessageID, Kind: model.ItemPlan, Status: status, Text: text, Data: limitData(data), SubagentRunID: sub})
	}
	return true
}

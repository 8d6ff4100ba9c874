package agent_test

import (
	"bytes"
	"encoding/base64"
	"image/png"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentwatch/agentwatch/internal/testkit/acptest/agent"
	acp "github.com/coder/acp-go-sdk"
)

// liveKinds are the update kinds the `all` script sends, plus the
// available_commands_update after session/new.
var liveKinds = []string{
	"agent_thought_chunk", "agent_message_chunk", "plan", "tool_call", "tool_call_update",
	"available_commands_update", "current_mode_update", "session_info_update", "usage_update",
	agent.UnknownKind,
}

var toolKinds = []acp.ToolKind{
	acp.ToolKindRead, acp.ToolKindEdit, acp.ToolKindDelete, acp.ToolKindMove, acp.ToolKindSearch,
	acp.ToolKindExecute, acp.ToolKindThink, acp.ToolKindFetch, acp.ToolKindSwitchMode, acp.ToolKindOther,
}

func TestAllSendsEveryUpdateKind(t *testing.T) {
	h := start(t, agent.Options{}, richCaps)
	id, cwd := h.newSession()
	readme := filepath.Join(cwd, "README.md")
	h.client.addFile(readme, "# project under test\n")

	if got := h.prompt(id, "all"); got != acp.StopReasonEndTurn {
		t.Fatalf("stopReason = %q, want end_turn", got)
	}

	// On the wire: every kind, the unknown one included.
	var wireKinds []string
	for _, m := range h.rec.updatesOnWire(t, id) {
		wireKinds = append(wireKinds, m.kind())
	}
	for _, k := range liveKinds {
		if !slices.Contains(wireKinds, k) {
			t.Errorf("kind %q never on the wire; got %v", k, wireKinds)
		}
	}

	// Through the SDK: dispatching on the kind string sees the same kinds;
	// the unknown one arrives mis-decoded as a user_message_chunk.
	notes := h.rec.notesFor(id)
	var sdkKinds []string
	for _, n := range notes {
		sdkKinds = append(sdkKinds, kindOf(n.Update))
		if kindOf(n.Update) == agent.UnknownKind && n.Update.UserMessageChunk == nil {
			t.Errorf("the SDK decoded %s differently than expected: %+v", agent.UnknownKind, n.Update)
		}
	}
	if !slices.Equal(sdkKinds, wireKinds) {
		t.Errorf("SDK kinds differ from wire kinds:\n%v\n%v", sdkKinds, wireKinds)
	}

	checkToolCalls(t, notes)
	checkTerminalMeta(t, notes)
	checkContentShapes(t, h, id, notes)

	// Files through the client: README read, NOTES.md and config.yaml written.
	reads, writes, permissions := h.client.requests()
	if !slices.Contains(reads, readme) {
		t.Errorf("reads = %v, want %s", reads, readme)
	}
	for _, f := range []string{"NOTES.md", "config.yaml"} {
		if _, ok := writes[filepath.Join(cwd, f)]; !ok {
			t.Errorf("writes = %v, want %s", writes, f)
		}
	}
	if len(permissions) != 1 {
		t.Fatalf("%d permission requests, want 1", len(permissions))
	}
	var kinds []acp.PermissionOptionKind
	for _, o := range permissions[0].Options {
		kinds = append(kinds, o.Kind)
	}
	want := []acp.PermissionOptionKind{acp.PermissionOptionKindAllowOnce, acp.PermissionOptionKindAllowAlways, acp.PermissionOptionKindRejectOnce, acp.PermissionOptionKindRejectAlways}
	if !slices.Equal(kinds, want) {
		t.Errorf("permission option kinds = %v, want %v", kinds, want)
	}
}

// checkToolCalls: ten kinds, locations with lines, raw input and output,
// a failed call, and an update for a call never announced.
func checkToolCalls(t *testing.T, notes []acp.SessionNotification) {
	t.Helper()
	announced := map[acp.ToolCallId]bool{}
	var kinds []acp.ToolKind
	var lines, rawIn, rawOut, failed int
	for _, n := range notes {
		if tc := n.Update.ToolCall; tc != nil {
			announced[tc.ToolCallId] = true
			kinds = append(kinds, tc.Kind)
			if tc.RawInput != nil {
				rawIn++
			}
			for _, l := range tc.Locations {
				if l.Line != nil && filepath.IsAbs(l.Path) {
					lines++
				}
			}
		}
		if u := n.Update.ToolCallUpdate; u != nil {
			if u.RawOutput != nil {
				rawOut++
			}
			if u.Status != nil && *u.Status == acp.ToolCallStatusFailed {
				failed++
			}
			if u.ToolCallId == "tc-ghost" && announced[u.ToolCallId] {
				t.Error("tc-ghost was announced; it must only be updated")
			}
		}
	}
	for _, k := range toolKinds {
		if !slices.Contains(kinds, k) {
			t.Errorf("no tool_call of kind %q; got %v", k, kinds)
		}
	}
	if lines < 5 || rawIn < 10 || rawOut < 8 || failed != 1 {
		t.Errorf("locations with line %d, rawInput %d, rawOutput %d, failed %d", lines, rawIn, rawOut, failed)
	}
	if announced["tc-ghost"] {
		t.Error("tc-ghost has a tool_call")
	}
}

// checkTerminalMeta: the execute tool uses Zed's _meta.terminal_* with ANSI
// colour when the client asked for it.
func checkTerminalMeta(t *testing.T, notes []acp.SessionNotification) {
	t.Helper()
	var info, exit bool
	var output strings.Builder
	for _, n := range notes {
		if tc := n.Update.ToolCall; tc != nil && tc.Kind == acp.ToolKindExecute {
			info = tc.Meta["terminal_info"] != nil && len(tc.Content) == 1 && tc.Content[0].Terminal != nil
		}
		if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == "tc-exec" {
			if o, ok := u.Meta["terminal_output"].(map[string]any); ok {
				output.WriteString(o["data"].(string))
			}
			exit = exit || u.Meta["terminal_exit"] != nil
		}
	}
	if !info || !exit || !strings.Contains(output.String(), "\x1b[32m") {
		t.Errorf("terminal meta: info %v, exit %v, output %q", info, exit, output.String())
	}
}

// checkContentShapes: diffs (with and without oldText, and an explicit
// null on the wire), a valid PNG, message ids, plan progress, session info.
func checkContentShapes(t *testing.T, h *harness, id acp.SessionId, notes []acp.SessionNotification) {
	t.Helper()
	var withOld, newFile, pngs, plans, msgIDs int
	var title bool
	for _, n := range notes {
		u := n.Update
		var contents []acp.ToolCallContent
		if u.ToolCall != nil {
			contents = u.ToolCall.Content
		}
		if u.ToolCallUpdate != nil {
			contents = u.ToolCallUpdate.Content
		}
		for _, c := range contents {
			if c.Diff != nil && c.Diff.OldText != nil {
				withOld++
			}
			if c.Diff != nil && c.Diff.OldText == nil {
				newFile++
			}
			if c.Content != nil && c.Content.Content.Image != nil {
				raw, err := base64.StdEncoding.DecodeString(c.Content.Content.Image.Data)
				if err == nil {
					_, err = png.Decode(bytes.NewReader(raw))
				}
				if err != nil {
					t.Errorf("image is not a PNG: %v", err)
				}
				pngs++
			}
		}
		if u.Plan != nil {
			plans++
		}
		if u.AgentMessageChunk != nil && u.AgentMessageChunk.MessageId != nil {
			msgIDs++
		}
		if u.SessionInfoUpdate != nil && u.SessionInfoUpdate.Title != nil && u.SessionInfoUpdate.UpdatedAt != nil {
			title = true
		}
	}
	if withOld < 2 || newFile < 2 || pngs != 1 || plans != 3 || msgIDs == 0 || !title {
		t.Errorf("diffs with oldText %d, new-file diffs %d, PNGs %d, plans %d, message chunks with id %d, titled info %v",
			withOld, newFile, pngs, plans, msgIDs, title)
	}
	var nullOld bool
	for _, m := range h.rec.updatesOnWire(t, id) {
		nullOld = nullOld || bytes.Contains(m.Line, []byte(`"oldText":null`))
	}
	if !nullOld {
		t.Error(`no "oldText":null on the wire`)
	}
}

func TestAllWithoutClientCapabilities(t *testing.T) {
	h := start(t, agent.Options{}, acp.ClientCapabilities{})
	id, _ := h.newSession()
	if got := h.prompt(id, "show me everything"); got != acp.StopReasonEndTurn {
		t.Fatalf("stopReason = %q", got)
	}
	var fence bool
	for _, n := range h.rec.notesFor(id) {
		if u := n.Update.ToolCallUpdate; u != nil && u.ToolCallId == "tc-exec" {
			if u.Meta != nil {
				t.Errorf("terminal _meta sent to a client that did not ask: %v", u.Meta)
			}
			for _, c := range u.Content {
				fence = fence || (c.Content != nil && strings.HasPrefix(c.Content.Content.Text.Text, "```console"))
			}
		}
	}
	if !fence {
		t.Error("execute output not sent as a console fence")
	}
	if reads, writes, _ := h.client.requests(); len(reads)+len(writes) != 0 {
		t.Errorf("fs calls without the capability: reads %v writes %v", reads, writes)
	}
}

package agent

import (
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// toolKinds calls one tool of each of the ten ACP tool kinds, in the order
// read, search, edit (twice: a change and a new file), delete (fails),
// move, execute, think, fetch, switch_mode, other (an image).
func (t *turn) toolKinds() error {
	for _, tool := range []func() error{
		t.toolRead, t.toolSearch, t.toolEdit, t.toolNewFile, t.toolDelete,
		t.toolMove, t.toolExecute, t.toolThink, t.toolFetch, t.toolSwitchMode, t.toolImage,
	} {
		if err := tool(); err != nil {
			return err
		}
	}
	return nil
}

func loc(path string, line int) acp.ToolCallLocation {
	l := acp.ToolCallLocation{Path: path}
	if line > 0 {
		l.Line = acp.Ptr(line)
	}
	return l
}

// readmeText stands in for README.md when the client cannot read files.
const readmeText = "# fixture project\n\nA project the ACP fixture agent pretends to work on.\n"

// toolRead reads README.md through fs/read_text_file when the client offers
// it (a failure fails the tool call), else reports made-up content.
func (t *turn) toolRead() error {
	const id = "tc-read"
	path := t.path("README.md")
	err := t.sendAll(
		acp.StartToolCall(id, "Read README.md",
			acp.WithStartKind(acp.ToolKindRead), acp.WithStartStatus(acp.ToolCallStatusPending),
			acp.WithStartRawInput(map[string]any{"path": path, "line": 1, "limit": 20}),
			acp.WithStartLocations([]acp.ToolCallLocation{loc(path, 1)})),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusInProgress)),
	)
	if err != nil {
		return err
	}
	text, status := readmeText, acp.ToolCallStatusCompleted
	if t.caps().Fs.ReadTextFile {
		resp, err := t.f.peer().ReadTextFile(t.ctx, acp.ReadTextFileRequest{
			SessionId: t.s.id, Path: path, Line: acp.Ptr(1), Limit: acp.Ptr(20),
		})
		if cerr := t.clientErr(err); cerr != nil {
			return cerr
		}
		text = resp.Content
		if err != nil {
			text, status = "fs/read_text_file failed: "+err.Error(), acp.ToolCallStatusFailed
		}
	}
	return t.send(acp.UpdateToolCall(id,
		acp.WithUpdateStatus(status),
		acp.WithUpdateContent([]acp.ToolCallContent{textContent(text)}),
		acp.WithUpdateRawOutput(map[string]any{"bytes": len(text)})))
}

// toolSearch finds three matches and reports them as locations.
func (t *turn) toolSearch() error {
	const id = "tc-search"
	matches := []acp.ToolCallLocation{loc(t.path("main.go"), 12), loc(t.path("internal/store/store.go"), 40), loc(t.path("README.md"), 7)}
	raw := make([]map[string]any, len(matches))
	for i, m := range matches {
		raw[i] = map[string]any{"path": m.Path, "line": *m.Line, "text": "// TODO: handle retries"}
	}
	return t.sendAll(
		acp.StartToolCall(id, "Search for TODO",
			acp.WithStartKind(acp.ToolKindSearch), acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"pattern": "TODO", "path": t.s.cwd})),
		acp.UpdateToolCall(id,
			acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateLocations(matches),
			acp.WithUpdateContent([]acp.ToolCallContent{textContent("3 matches in 3 files")}),
			acp.WithUpdateRawOutput(map[string]any{"matches": raw})),
	)
}

// toolEdit changes two lines of main.go, shown as a diff.
func (t *turn) toolEdit() error {
	const id = "tc-edit"
	path := t.path("main.go")
	oldText := "func main() {\n\trun(1)\n}\n"
	newText := "func main() {\n\trun(3) // retries\n}\n"
	return t.sendAll(
		acp.StartToolCall(id, "Edit main.go",
			acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending),
			acp.WithStartRawInput(map[string]any{"path": path, "old_string": oldText, "new_string": newText}),
			acp.WithStartLocations([]acp.ToolCallLocation{loc(path, 12)}),
			acp.WithStartContent([]acp.ToolCallContent{acp.ToolDiffContent(path, newText, oldText)})),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusInProgress)),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateRawOutput(map[string]any{"replaced": 1})),
	)
}

// notesText is the content of the file toolNewFile creates.
const notesText = "# Notes\n\nWritten by the ACP fixture agent.\n"

// toolNewFile creates NOTES.md: the tool_call's diff has no oldText (the
// SDK omits the field), the completing update is sent raw with an explicit
// `"oldText": null` as TypeScript agents send it. With fs.writeTextFile the
// file is really written through the client.
func (t *turn) toolNewFile() error {
	const id = "tc-newfile"
	path := t.path("NOTES.md")
	err := t.send(acp.StartToolCall(id, "Create NOTES.md",
		acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusInProgress),
		acp.WithStartRawInput(map[string]any{"path": path, "content": notesText}),
		acp.WithStartLocations([]acp.ToolCallLocation{loc(path, 1)}),
		acp.WithStartContent([]acp.ToolCallContent{acp.ToolDiffContent(path, notesText)})))
	if err != nil {
		return err
	}
	status, output := acp.ToolCallStatusCompleted, map[string]any{"created": true}
	if t.caps().Fs.WriteTextFile {
		_, err := t.f.peer().WriteTextFile(t.ctx, acp.WriteTextFileRequest{SessionId: t.s.id, Path: path, Content: notesText})
		if cerr := t.clientErr(err); cerr != nil {
			return cerr
		}
		if err != nil {
			status, output = acp.ToolCallStatusFailed, map[string]any{"error": err.Error()}
		}
	}
	return t.sendRaw(map[string]any{
		"sessionUpdate": "tool_call_update",
		"toolCallId":    id,
		"status":        status,
		"content":       []any{map[string]any{"type": "diff", "path": path, "oldText": nil, "newText": notesText}},
		"rawOutput":     output,
	})
}

// toolDelete fails, so a client shows a failed step; its location has no
// line.
func (t *turn) toolDelete() error {
	const id = "tc-delete"
	path := t.path("build/old.log")
	return t.sendAll(
		acp.StartToolCall(id, "Delete build/old.log",
			acp.WithStartKind(acp.ToolKindDelete), acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"path": path}),
			acp.WithStartLocations([]acp.ToolCallLocation{loc(path, 0)})),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusFailed),
			acp.WithUpdateContent([]acp.ToolCallContent{textContent("rm: cannot remove 'build/old.log': Permission denied")}),
			acp.WithUpdateRawOutput(map[string]any{"error": "EACCES", "exit_code": 1})),
	)
}

// toolMove moves a file: two locations, source and destination.
func (t *turn) toolMove() error {
	const id = "tc-move"
	from, to := t.path("util.go"), t.path("internal/util/util.go")
	return t.sendAll(
		acp.StartToolCall(id, "Move util.go to internal/util/util.go",
			acp.WithStartKind(acp.ToolKindMove), acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"from": from, "to": to}),
			acp.WithStartLocations([]acp.ToolCallLocation{loc(from, 1), loc(to, 1)})),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateRawOutput(map[string]any{"moved": true})),
	)
}

// toolThink reasons about a test, pointing at its line.
func (t *turn) toolThink() error {
	const id = "tc-think"
	return t.sendAll(
		acp.StartToolCall(id, "Think about the flaky test",
			acp.WithStartKind(acp.ToolKindThink), acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"topic": "TestRetry flakes"}),
			acp.WithStartLocations([]acp.ToolCallLocation{loc(t.path("main_test.go"), 27)})),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateContent([]acp.ToolCallContent{textContent("TestRetry races the timer; a fake clock fixes it.")})),
	)
}

// toolFetch fetches a page: no locations, a resource_link in its content.
func (t *turn) toolFetch() error {
	const id = "tc-fetch"
	const url = "https://agentclientprotocol.com/protocol/tool-calls"
	return t.sendAll(
		acp.StartToolCall(id, "Fetch "+url,
			acp.WithStartKind(acp.ToolKindFetch), acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"url": url})),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateContent([]acp.ToolCallContent{
				textContent("Fetched 12.3 KB"),
				acp.ToolContent(acp.ResourceLinkBlock("tool-calls", url)),
			}),
			acp.WithUpdateRawOutput(map[string]any{"status": 200, "bytes": 12345})),
	)
}

// toolSwitchMode switches the session to its other mode and says so with
// current_mode_update.
func (t *turn) toolSwitchMode() error {
	const id = "tc-mode"
	target := ModePlan
	if t.s.currentMode() == ModePlan {
		target = ModeCode
	}
	err := t.sendAll(
		acp.StartToolCall(id, fmt.Sprintf("Switch to %s mode", target),
			acp.WithStartKind(acp.ToolKindSwitchMode), acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"mode": target})),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted)),
	)
	if err != nil {
		return err
	}
	t.s.setMode(target)
	return t.send(acp.SessionUpdate{CurrentModeUpdate: &acp.SessionCurrentModeUpdate{CurrentModeId: target}})
}

// toolImage is an `other` tool whose result is an image content block.
func (t *turn) toolImage() error {
	const id = "tc-image"
	shot := t.path("screenshot.png")
	return t.sendAll(
		acp.StartToolCall(id, "Take a screenshot",
			acp.WithStartKind(acp.ToolKindOther), acp.WithStartStatus(acp.ToolCallStatusInProgress),
			acp.WithStartRawInput(map[string]any{"tool": "screenshot", "url": "http://localhost:3000"}),
			acp.WithStartLocations([]acp.ToolCallLocation{loc(shot, 0)})),
		acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusCompleted),
			acp.WithUpdateContent([]acp.ToolCallContent{
				acp.ToolContent(acp.ImageBlock(pngBase64, "image/png")),
				textContent(fmt.Sprintf("%d×%d test pattern", pngSize, pngSize)),
			}),
			acp.WithUpdateRawOutput(map[string]any{"width": pngSize, "height": pngSize, "mimeType": "image/png"})),
	)
}

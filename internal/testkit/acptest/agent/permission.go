package agent

import (
	"fmt"

	acp "github.com/coder/acp-go-sdk"
)

// The option ids of the permission request, one per option kind.
const (
	// OptionAllowOnce is the allow_once option.
	OptionAllowOnce acp.PermissionOptionId = "allow-once"
	// OptionAllowAlways is the allow_always option.
	OptionAllowAlways acp.PermissionOptionId = "allow-always"
	// OptionRejectOnce is the reject_once option.
	OptionRejectOnce acp.PermissionOptionId = "reject-once"
	// OptionRejectAlways is the reject_always option.
	OptionRejectAlways acp.PermissionOptionId = "reject-always"
)

// PermissionToolCallID is the id of the edit that asks permission.
const PermissionToolCallID = "tc-permission"

var permissionOptions = []acp.PermissionOption{
	{OptionId: OptionAllowOnce, Name: "Allow once", Kind: acp.PermissionOptionKindAllowOnce},
	{OptionId: OptionAllowAlways, Name: "Always allow edits", Kind: acp.PermissionOptionKindAllowAlways},
	{OptionId: OptionRejectOnce, Name: "Reject", Kind: acp.PermissionOptionKindRejectOnce},
	{OptionId: OptionRejectAlways, Name: "Always reject edits", Kind: acp.PermissionOptionKindRejectAlways},
}

// permissionOnly is the `permission` script: the permission flow alone.
func (t *turn) permissionOnly(string) (acp.StopReason, error) {
	if err := t.permissionEdit(); err != nil {
		return "", err
	}
	return acp.StopReasonEndTurn, nil
}

// permissionEdit announces an edit of config.yaml (pending, with its diff),
// asks session/request_permission and acts on the answer:
//
//   - an allow option: in_progress, the file written with fs/write_text_file
//     if the client offers it, then completed;
//   - a reject option: failed, and a message saying the edit was skipped;
//   - outcome cancelled, or session/cancel while waiting (the SDK then
//     sends `$/cancel_request` for the permission request): the turn ends
//     with stopReason cancelled and the tool call stays pending.
func (t *turn) permissionEdit() error {
	const id = PermissionToolCallID
	path := t.path("config.yaml")
	oldText, newText := "retries: 1\ntimeout: 30s\n", "retries: 3\ntimeout: 30s\n"
	diff := []acp.ToolCallContent{acp.ToolDiffContent(path, newText, oldText)}
	locs := []acp.ToolCallLocation{loc(path, 1)}
	err := t.send(acp.StartToolCall(id, "Edit config.yaml",
		acp.WithStartKind(acp.ToolKindEdit), acp.WithStartStatus(acp.ToolCallStatusPending),
		acp.WithStartRawInput(map[string]any{"path": path, "old_string": "retries: 1", "new_string": "retries: 3"}),
		acp.WithStartLocations(locs), acp.WithStartContent(diff)))
	if err != nil {
		return err
	}

	resp, err := t.f.peer().RequestPermission(t.ctx, acp.RequestPermissionRequest{
		SessionId: t.s.id,
		ToolCall: acp.ToolCallUpdate{
			ToolCallId: id, Title: acp.Ptr("Edit config.yaml"), Kind: acp.Ptr(acp.ToolKindEdit),
			Status: acp.Ptr(acp.ToolCallStatusPending), Content: diff, Locations: locs,
		},
		Options: permissionOptions,
	})
	if cerr := t.clientErr(err); cerr != nil {
		return cerr
	}
	if err != nil {
		return fmt.Errorf("session/request_permission: %w", err)
	}
	if resp.Outcome.Cancelled != nil || resp.Outcome.Selected == nil {
		return errCancelled
	}
	choice := resp.Outcome.Selected.OptionId
	t.f.opts.Logger.Info("permission answered", "optionId", choice)

	switch choice {
	case OptionAllowOnce, OptionAllowAlways:
		if err := t.send(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusInProgress))); err != nil {
			return err
		}
		status, output := acp.ToolCallStatusCompleted, map[string]any{"optionId": choice, "written": false}
		if t.caps().Fs.WriteTextFile {
			_, err := t.f.peer().WriteTextFile(t.ctx, acp.WriteTextFileRequest{SessionId: t.s.id, Path: path, Content: newText})
			if cerr := t.clientErr(err); cerr != nil {
				return cerr
			}
			output["written"] = err == nil
			if err != nil {
				status, output["error"] = acp.ToolCallStatusFailed, err.Error()
			}
		}
		return t.send(acp.UpdateToolCall(id, acp.WithUpdateStatus(status), acp.WithUpdateRawOutput(output)))
	default:
		err := t.send(acp.UpdateToolCall(id, acp.WithUpdateStatus(acp.ToolCallStatusFailed),
			acp.WithUpdateContent([]acp.ToolCallContent{textContent(fmt.Sprintf("Not applied: the user chose %q.", choice))}),
			acp.WithUpdateRawOutput(map[string]any{"optionId": choice})))
		if err != nil {
			return err
		}
		return t.message("Understood, I left config.yaml unchanged.")
	}
}

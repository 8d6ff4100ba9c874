package sources

// Message-level review: a file that holds only messages —
// an AG-UI log of MESSAGES_SNAPSHOT events, or an AI SDK UIMessage[] file —
// opens for step-through of its tool calls without timing. Both become
// AG-UI records that the ordinary fold turns into items and steps, so
// categories, locations, results and screenshots come from the same code.

import (
	"bytes"
	"fmt"
	"io"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/agui"
)

// MessagesFormat names a messages-only file format, in words shown to the user.
type MessagesFormat string

// The messages-only formats DetectMessages recognises.
const (
	// MessagesAGUI is an AG-UI event log whose events are only
	// MESSAGES_SNAPSHOT, optionally between RUN_STARTED and RUN_FINISHED.
	MessagesAGUI MessagesFormat = "AG-UI MESSAGES_SNAPSHOT log"
	// MessagesAISDK is a Vercel AI SDK (v5+) UIMessage[] JSON file: an array
	// of {id, role, parts, metadata?}, or an object {"messages": [...]}.
	MessagesAISDK MessagesFormat = "AI SDK UIMessage[]"
)

// reviewRunID is the run of the records made for an AI SDK file, which has
// no runs of its own; it is also the thread when the file names none.
const reviewRunID = "ui-messages"

// DetectMessages reports whether b (a whole file) holds only messages, which
// format, and the records to fold for it (numbered from 1, without times).
//
// An AG-UI log of only MESSAGES_SNAPSHOT (and RUN_STARTED/RUN_FINISHED)
// events gives its records as the Reader reads them. An AI SDK UIMessage[]
// file gives synthetic records: RUN_STARTED, one MESSAGES_SNAPSHOT with the
// messages converted to AG-UI (see convertUIMessages), and RUN_FINISHED
// naming the tool calls that never got an output as pending. Any other
// input, ordinary event logs included, gives ok false and no error: read it
// with the Reader. err is set, with ok false, for a file that is clearly
// UIMessage[]-shaped (its first message has "role" and "parts") but broken;
// it names the message and part, as in "messages[2].parts[1]".
//
// URLs in the file are never fetched: data: URLs of images become inline
// image parts, every other URL stays text.
func DetectMessages(b []byte) (recs []model.Record, format MessagesFormat, ok bool, err error) {
	b = bytes.TrimPrefix(b, []byte("\ufeff"))
	if list, thread, shaped := uiMessagesShape(b); shaped {
		msgs, pending, err := convertUIMessages(list)
		if err != nil {
			return nil, MessagesAISDK, false, fmt.Errorf("%s file: %w", MessagesAISDK, err)
		}
		if thread == "" {
			thread = reviewRunID
		}
		recs, err := reviewRecords(thread, msgs, pending)
		if err != nil {
			return nil, MessagesAISDK, false, fmt.Errorf("%s file: %w", MessagesAISDK, err)
		}
		return recs, MessagesAISDK, true, nil
	}
	if recs, ok := snapshotLog(b); ok {
		return recs, MessagesAGUI, true, nil
	}
	return nil, "", false, nil
}

// snapshotLog reads b as an AG-UI log and returns its records when every
// event is a MESSAGES_SNAPSHOT, RUN_STARTED or RUN_FINISHED, at least one
// is a snapshot, and the runs are of one thread (a fold shows one). It
// stops at the first other event, so an ordinary log costs a few events to
// refuse.
func snapshotLog(b []byte) ([]model.Record, bool) {
	rd := NewReader(bytes.NewReader(b))
	var recs []model.Record
	snapshot := false
	thread := ""
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			return recs, snapshot
		}
		if err != nil {
			return nil, false
		}
		t := ""
		switch e := rec.Event.(type) {
		case *agui.MessagesSnapshot:
			snapshot = true
		case *agui.RunStarted:
			t = e.ThreadID
		case *agui.RunFinished:
			t = e.ThreadID
		default:
			return nil, false
		}
		if t != "" {
			if thread != "" && t != thread {
				return nil, false
			}
			thread = t
		}
		recs = append(recs, rec)
	}
}

// reviewRecords wraps converted messages in the records the fold takes:
// RUN_STARTED, MESSAGES_SNAPSHOT, RUN_FINISHED. The run keeps the fold from
// reporting a missing RUN_STARTED about records we made ourselves, and its
// end leaves the calls that never got an output pending instead of done.
func reviewRecords(thread string, msgs []agui.Message, pending []string) ([]model.Record, error) {
	finish := &agui.RunFinished{Base: agui.Base{Type: agui.TypeRunFinished}, ThreadID: thread, RunID: reviewRunID}
	if len(pending) > 0 {
		finish.Outcome = &agui.Outcome{Type: "success", PendingToolCallIDs: pending}
	}
	if msgs == nil {
		msgs = []agui.Message{}
	}
	events := []agui.Event{
		&agui.RunStarted{Base: agui.Base{Type: agui.TypeRunStarted}, ThreadID: thread, RunID: reviewRunID},
		&agui.MessagesSnapshot{Base: agui.Base{Type: agui.TypeMessagesSnapshot}, Messages: msgs},
		finish,
	}
	recs := make([]model.Record, len(events))
	for i, ev := range events {
		raw, err := agui.MarshalValue(ev)
		if err != nil {
			return nil, fmt.Errorf("writing %s: %w", ev.EventType(), err)
		}
		rec := model.Record{Seq: uint64(i + 1), Proto: model.ProtoAGUI, Raw: raw, Event: agui.Decode(raw)}
		// Decoding what we wrote checks it the way any log is checked.
		switch bad := rec.Event.(type) {
		case *agui.Malformed:
			return nil, fmt.Errorf("converted %s is malformed: %v", bad.Type, bad.Err)
		case *model.Unreadable:
			return nil, fmt.Errorf("converted %s is unreadable: %s", ev.EventType(), bad.Reason)
		}
		recs[i] = rec
	}
	return recs, nil
}

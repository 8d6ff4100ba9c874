package tui

import tea "charm.land/bubbletea/v2"

// foldSlice is the most records one Update folds. A bigger burst is folded
// a slice at a time, each slice its own message, so that a key, a click or
// a resize that arrives meanwhile is handled between two slices, not
// after the whole burst.
const foldSlice = 8192

// cutRecords splits a burst after its first max records: what to fold now,
// and the rest (nil when nothing is left).
func cutRecords(msg recordsMsg, max int) (now, rest recordsMsg) {
	n := 0
	for i, b := range msg {
		if n+len(b) <= max {
			n += len(b)
			continue
		}
		k := max - n
		now = append(append(recordsMsg{}, msg[:i]...), b[:k])
		rest = append(recordsMsg{b[k:]}, msg[i+1:]...)
		return now, rest
	}
	return msg, nil
}

// cutBatches is cutRecords for the batches of several sources. A batch cut
// in two keeps its restart on the first half and its progress and end on
// the second, so a restart still comes before the records and neither the
// progress shown nor the end kept is ever ahead of what is folded.
func cutBatches(msg batchesMsg, max int) (now, rest batchesMsg) {
	n := 0
	for i, b := range msg {
		if n+len(b.Records) <= max {
			n += len(b.Records)
			continue
		}
		k := max - n
		head, tail := b, b
		// The head is not read to where the batch says (Read, End): the
		// tail is. Its Size still says the source is a file.
		head.Records, head.Read, head.End = b.Records[:k], 0, 0
		tail.Records, tail.Restart = b.Records[k:], false
		now = append(append(batchesMsg{}, msg[:i]...), head)
		rest = append(batchesMsg{tail}, msg[i+1:]...)
		return now, rest
	}
	return msg, nil
}

// then is what follows a folded slice: the rest of the burst, or the pump
// for the next one.
func (a *App) then(rest tea.Msg, more bool) tea.Cmd {
	if more {
		return func() tea.Msg { return rest }
	}
	return a.pump()
}

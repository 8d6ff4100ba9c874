package sources

import ()

// LooksLikeCopilotSession tells from a file's first line that it is a
// GitHub Copilot CLI session file (session-state/<id>/events.jsonl): an
// object whose "type" is "session.start" beside a member of the envelope
// every Copilot event has ("data", "id", "timestamp", "parentId"). AG-UI's
// types are upper case, so no AG-UI event is taken for one. The line may
// be cut short: the members before the cut decide.
func LooksLikeCopilotSession(first []byte) bool {
	d := firstObject(first)
	if d == nil {
		return false
	}
	start, envelope := false, false
	for !(start && envelope) {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return false
		}
		switch tok.String() {
		case "type":
			v, err := d.ReadToken()
			if err != nil || v.Kind() != '"' || v.String() != "session.start" {
				return false
			}
			start = true
			continue
		case "data", "id", "timestamp", "parentId":
			if envelope = true; start {
				return true // what follows may be cut short
			}
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	return true
}

package sources

// LooksLikeGeminiSession tells from a file's first line that it is a
// Gemini CLI session file: an object with the string members sessionId
// and projectHash, as the metadata record that starts one has (a Claude
// Code line names its session too, but no projectHash, and has a type).
// The line may be cut short: the members before the cut decide.
func LooksLikeGeminiSession(first []byte) bool {
	d := firstObject(first)
	if d == nil {
		return false
	}
	session, project := false, false
	for !(session && project) {
		tok, err := d.ReadToken()
		if err != nil || tok.Kind() != '"' {
			return false
		}
		switch tok.String() {
		case "sessionId":
			session = d.PeekKind() == '"'
		case "projectHash":
			project = d.PeekKind() == '"'
		case "type":
			return false
		}
		if session && project {
			break // the value may be cut short: its kind decides
		}
		if d.SkipValue() != nil {
			return false
		}
	}
	return true
}

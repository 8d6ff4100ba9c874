package fold

import "slices"

// showing returns the tool calls whose steps show terminal id, in a fixed
// order. An answer about a terminal redraws those steps; finding them by
// walking every step made each terminal poll of a long session cost more
// with every command before it.
func (a *acpState) showing(id string) []string {
	if a.shows == nil {
		a.shows = map[string][]string{}
		for call, t := range a.Tools {
			a.noteShows(call, t.Terminals)
		}
		for term, calls := range a.shows {
			slices.Sort(calls) // the map gave them in any order
			a.shows[term] = calls
		}
	}
	var out []string
	for _, call := range a.shows[id] {
		if t, ok := a.Tools[call]; ok && slices.Contains(t.Terminals, id) {
			out = append(out, call)
		}
	}
	return out
}

// noteShows notes that tool call call shows terms, once the index is built.
func (a *acpState) noteShows(call string, terms []string) {
	if a.shows == nil {
		return
	}
	for _, term := range terms {
		if !slices.Contains(a.shows[term], call) {
			a.shows[term] = append(a.shows[term], call)
		}
	}
}

package fold

// The verifier asks of every delta whether its message, call or span is
// open. Its open lists are kept in order (a RUN_FINISHED names what is
// still open, in order), but searching them made an agent with 100,000
// calls open at once cost their number squared; openSets answers from a
// set per list, and closing searches from both ends.

// openSets are the verifier's open lists as sets, keyed by the list. They
// are derived and private to one verifyState: a copy (clone) still points
// at its original's, which owner tells apart, and builds its own.
type openSets struct {
	owner *verifyState
	sets  map[*[]string]map[string]struct{}
}

// set is list as a set.
func (v *verifyState) set(list *[]string) map[string]struct{} {
	if v.open == nil || v.open.owner != v {
		v.open = &openSets{owner: v, sets: map[*[]string]map[string]struct{}{}}
	}
	s, ok := v.open.sets[list]
	if !ok {
		s = make(map[string]struct{}, len(*list))
		for _, id := range *list {
			s[id] = struct{}{}
		}
		v.open.sets[list] = s
	}
	return s
}

// isOpen reports whether list holds id.
func (v *verifyState) isOpen(list *[]string, id string) bool {
	_, ok := v.set(list)[id]
	return ok
}

// opened adds id to list.
func (v *verifyState) opened(list *[]string, id string) {
	*list = append(*list, id)
	v.set(list)[id] = struct{}{}
}

// closed removes id from list.
func (v *verifyState) closed(list *[]string, id string) {
	delete(v.set(list), id)
	var looked int
	*list, looked = remove(*list, id)
	v.searched += looked
}

// remove removes id from s, keeping the order of the rest, and says how
// many entries it looked at. It searches from both ends and moves the
// shorter side, so that closing the oldest or the newest of many costs
// little.
func remove(s []string, id string) ([]string, int) {
	for i, j := 0, len(s)-1; i <= j; i, j = i+1, j-1 {
		if s[i] == id {
			copy(s[1:i+1], s[:i])
			s[0] = ""
			return s[1:], 2 * (i + 1)
		}
		if s[j] == id {
			return append(s[:j], s[j+1:]...), 2 * (i + 1)
		}
	}
	return s, len(s)
}

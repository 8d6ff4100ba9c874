package fold

// CowCounts is how many items, steps and messages f records as its own
// (copy-on-write), and how many of each it keeps, for the tests of
// fold_test.
func CowCounts(f *Fold) (own, kept [3]int) {
	c, d, r := f.st.Display.cow, &f.st.Display, &f.st.Reduce
	kept = [3]int{len(d.Items), len(d.Steps), len(r.Messages)}
	if c != nil {
		own = [3]int{c.items.Len(), c.steps.Len(), c.msgs.Len()}
	}
	return own, kept
}

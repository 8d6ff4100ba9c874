// Package order holds the comparisons the standard cmp package lacks, for
// slices.SortFunc and cmp.Or.
package order

// Bool orders false before true: -1, 0 or +1, as cmp.Compare does.
func Bool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case !a:
		return -1
	}
	return 1
}

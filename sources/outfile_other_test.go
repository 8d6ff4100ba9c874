//go:build !linux

package sources

// allOutputCases are the portable outputCases; named pipes and devices
// are tried on Linux.
func allOutputCases() []outputCase { return outputCases }

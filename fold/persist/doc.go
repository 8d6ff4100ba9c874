// Package persist holds the structures a fold shares with its checkpoints:
// a map, a set, a sorted set, a list, a map kept by generation, and the
// record of which objects a holder may change in place.
//
// Each can be shared: Share (or, for the sorted set, any change, which
// returns a new value) gives a value that reads what the original held
// then, and a write to either one is never seen by the other. Sharing
// copies little or nothing — layers, runs, blocks and generations are
// written once and then only read — so a checkpoint costs what changed
// since the one before, not a copy of everything the fold holds.
//
// A value kept aside and only shared from (a checkpoint's) is never
// written by sharing it, so any number of goroutines may share it at once.
//
// The package knows nothing of events or protocols: the fold decides what
// goes in, when it is shared and what is dropped (docs/ARCHITECTURE.md,
// "Bounded memory").
package persist

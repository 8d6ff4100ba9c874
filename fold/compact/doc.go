// Package compact shrinks an AG-UI event log for archives and for the final
// fold (`agentwatch compact`): each text message's and tool
// call's deltas become one, and each run's state events one snapshot.
//
// It follows @ag-ui/client's compactEvents (Reference is a port of it) and
// keeps two laws the reference breaks:
//
//  1. where the reference's output is sound, Compact's equals it;
//  2. a compacted log verifies whenever its input does, and folds to the
//     same messages, in the same order, and the same final state.
//
// The reference breaks law 2 when a run ends with a stream still open
// (issue #2813: the stream is written after the run's end) and when streams
// overlap (they are written in the order they end, so messages and tool
// calls swap places). Fixed is the reference without those faults; Compact
// uses the reference's output when a Judge finds it sound and Fixed's
// otherwise.
//
// Compacted logs reorder events and drop the timestamps of merged deltas:
// they are not for replay at recorded pace.
//
// The package is pure: no I/O beyond the writer given to Encode, no clock,
// no goroutines.
package compact

// Package replay will own time: pacing recorded records at their offsets
// (scaled by a speed, idle gaps capped), seeking through fold checkpoints,
// following live, the on-disk log format and compaction (DESIGN.md §2.3).
// It has no code yet; the fold it will drive is in package fold.
package replay

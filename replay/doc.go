// Package replay owns time: it hands records on at their recorded pace
// (Pacer: offsets scaled by a speed, idle gaps capped). Seeking through
// fold checkpoints, follow-live, the on-disk log format and compaction
// (DESIGN.md §2.3) will live here too.
package replay

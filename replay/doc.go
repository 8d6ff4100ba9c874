// Package replay owns time: the schedule of a recorded log (its recorded
// offsets, idle gaps capped), the Pacer that hands records on at that pace
// scaled by a speed, the Player that plays, pauses, steps and seeks, and
// the Timeline of fold checkpoints that makes a seek cost the same
// anywhere in a log. A log of several threads plays into fold.Threads.
package replay

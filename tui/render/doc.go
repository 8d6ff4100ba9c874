// Package render holds the screen's pure renderers: functions from data to
// lines of exactly the asked width, with no state of their own — step rows
// and category icons, unified diffs, source text with syntax colours,
// terminal output, JSON, plans, half-block pictures — and the line writers
// they are built with. The transcript, the agent computer and the dialogs
// draw with them; callers cache what they return.
package render

// Package computer draws the agent computer: the panel that shows one step
// as the agent's computer saw it (a terminal, a diff, a file, a page, a
// search), the status line under it, the timeline of every step (slider,
// chips, controls) and the replay bar. It only draws and maps clicks to
// what they mean; the root model owns the state.
package computer

// Package tui is agentwatch's screen: the Bubble Tea root model (App) that
// owns layout, focus, modes and keys, and draws the components of its
// subpackages — the transcript, the agent computer, the run tree and the
// thread list — plus the --plain printers. Agent text is untrusted
// everywhere: it goes through package sanitize before it is drawn.
package tui

package tui

import "github.com/agentwatch/agentwatch/internal/sanitize"

// Plain returns s with every terminal escape sequence and control character
// removed (tabs and newlines kept), for output that shows no colours: the
// screen's callers (errors, notes, logs) clean agent text with it.
func Plain(s string) string { return sanitize.Plain(s) }

// SafeSGR returns s with escape sequences removed except SGR colour
// sequences, which a screen may keep.
func SafeSGR(s string) string { return sanitize.SafeSGR(s) }

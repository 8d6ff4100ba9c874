// Package search finds text in a thread and keeps the steps a filter
// chooses. Both work on the fold's data — message text, step labels,
// locations, arguments, output — never on rendered rows, so a keystroke
// costs a scan of the thread's text, not a render of it.
package search

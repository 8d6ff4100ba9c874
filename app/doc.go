// Package app is agentwatch's application layer: it decides what a source
// is (Identify, asked once per argument), and wires sources to folds and
// folds to the screen or to line output — the goroutines, the recording
// tee and the program start. The command line (package cli) only parses
// flags and calls in here; rendering stays in tui and protocol decoding in
// fold and sources. See docs/ARCHITECTURE.md.
package app

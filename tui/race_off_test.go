//go:build !race

package tui

// raceOn says the tests run under the race detector.
const raceOn = false

//go:build race

package tui

// raceOn says the tests run under the race detector, which makes each
// input ten times dearer: the monkey sends fewer.
const raceOn = true

package tui

import (
	"testing"
)

// readBackAll reads back what the screen asks for, as the program would run
// the reads Update asks for, until it asks for none: a test's Update drops
// the commands it returns, so each read asked for is asked again here.
func readBackAll(t *testing.T, a *App) {
	t.Helper()
	for range 50 {
		a.View()
		a.win.Abandon(a.at()) // the read an earlier Update asked for was dropped
		cmd := a.readItemsCmd()
		if cmd == nil {
			return
		}
		a.Update(cmd())
	}
	t.Fatal("the screen still asks for items after 50 reads")
}

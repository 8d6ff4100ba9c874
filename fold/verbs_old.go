package fold

import "github.com/agentwatch/agentwatch/model"

// The verbs Trim replaces, kept only while their callers move to Trim.

// Shed is Trim keeping every skeleton and every tombstone.
func (f *Fold) Shed(keepItems, keepSteps int) Shed {
	return f.Trim(Keep{Items: keepItems, Content: keepSteps, Skeletons: All, Tombstones: TombstonesAll}).Shed
}

// Forget is Trim keeping every item and every step's content, and the
// recent tombstones.
func (f *Fold) Forget(keepSteps int) Forgot {
	return f.Trim(Keep{Items: All, Content: All, Skeletons: keepSteps, Tombstones: TombstonesRecent}).Forgot
}

// Retire is Trim keeping nothing.
func (f *Fold) Retire() Forgot { return f.Trim(Keep{}).Forgot }

// Evict drops up to n of the oldest completed items.
func (f *Fold) Evict(n int) int {
	if f.resuming || n <= 0 {
		return 0
	}
	f.flush()
	dropped := f.st.Display.dropItems(func(it *model.Item) bool {
		return n > 0 && it.Status.Done()
	}, func() { n-- })
	f.st.Evicted += uint64(dropped)
	if dropped > 0 {
		f.sheds++
		f.pruneCow()
	}
	return dropped
}

// Shed sheds every thread's fold as Fold.Shed does.
func (t *Threads) Shed(keepItems, keepSteps int) Shed {
	return t.Trim(Keep{Items: keepItems, Content: keepSteps, Skeletons: All, Tombstones: TombstonesAll}).Shed
}

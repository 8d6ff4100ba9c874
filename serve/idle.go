package serve

import (
	"context"
	"io"
	"sync/atomic"
	"time"
)

// idleInput is a viewer's keyboard and mouse as the screen reads them,
// noting when the viewer last did anything. A viewer is idle when it
// sends nothing: the frames a live source keeps sending do not count,
// so a forgotten terminal on a busy log is closed all the same.
type idleInput struct {
	r    io.Reader
	last atomic.Int64 // unix nanoseconds of the last input
}

// newIdleInput reads r, counting from now.
func newIdleInput(r io.Reader) *idleInput {
	in := &idleInput{r: r}
	in.last.Store(time.Now().UnixNano())
	return in
}

// Read reads r and notes the time when anything came.
func (in *idleInput) Read(p []byte) (int, error) {
	n, err := in.r.Read(p)
	if n > 0 {
		in.last.Store(time.Now().UnixNano())
	}
	return n, err
}

// watch calls idle once when nothing has been read for d, unless ctx ends
// first. It wakes only when the time is up, so a viewer costs one timer.
func (in *idleInput) watch(ctx context.Context, d time.Duration, idle func()) {
	t := time.NewTimer(d)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		left := time.Until(time.Unix(0, in.last.Load()).Add(d))
		if left <= 0 {
			idle()
			return
		}
		t.Reset(left)
	}
}

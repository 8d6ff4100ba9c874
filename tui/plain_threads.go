package tui

import (
	"bytes"
	"io"

	"github.com/agentwatch/agentwatch/fold"
)

// ThreadsPrinter is PlainPrinter for a source of any number of threads:
// each thread's lines as PlainPrinter prints them, each run of them after a
// "== thread ID ==" line (with the file, for a folder) whenever the thread
// is not the one printed last — the first thread's too: lines are printed
// as they come, before anyone can know a second thread will follow, so
// every thread is named from its first line on.
type ThreadsPrinter struct {
	w       io.Writer
	set     *fold.Threads
	sources bool
	each    map[*fold.Thread]*PlainPrinter
	last    *fold.Thread
	buf     bytes.Buffer
	out     bytes.Buffer
}

// NewThreadsPrinter returns a printer of set's changes onto w; withSource
// adds each thread's source to its heading (for a folder).
func NewThreadsPrinter(w io.Writer, set *fold.Threads, withSource bool) *ThreadsPrinter {
	return &ThreadsPrinter{w: w, set: set, sources: withSource, each: map[*fold.Thread]*PlainPrinter{}}
}

// Print writes the lines for one Threads.Apply's updates.
func (p *ThreadsPrinter) Print(updates []fold.ThreadUpdate) error {
	p.out.Reset()
	for _, u := range updates {
		pp := p.each[u.Thread]
		if pp == nil {
			pp = NewPlainPrinter(&p.buf, u.Thread.Fold)
			p.each[u.Thread] = pp
		}
		p.buf.Reset()
		if err := pp.Print(u.Update); err != nil {
			return err
		}
		p.take(u.Thread)
	}
	if p.out.Len() == 0 {
		return nil
	}
	_, err := p.w.Write(p.out.Bytes())
	return err
}

// take moves what th's printer wrote into the output, after th's heading
// when the last lines were another's (or none).
func (p *ThreadsPrinter) take(th *fold.Thread) {
	if p.buf.Len() == 0 {
		return
	}
	if th != p.last {
		p.out.WriteString("== thread " + plainOneLine(th.Key()))
		if p.sources {
			p.out.WriteString(" · " + plainOneLine(th.Source))
		}
		p.out.WriteString(" ==\n")
	}
	p.last = th
	p.out.Write(p.buf.Bytes())
}

// StartOver tells the printer that source started over (a file truncated
// or replaced) and its threads gone were dropped: it prints their
// unfinished messages (Finish), says in a line that the source started
// over, and the source's new threads print as new.
func (p *ThreadsPrinter) StartOver(source string, gone []*fold.Thread) error {
	if err := p.finish(gone); err != nil {
		return err
	}
	for _, th := range gone {
		delete(p.each, th)
		if p.last == th {
			p.last = nil
		}
	}
	_, err := io.WriteString(p.w, "== "+plainOneLine(source)+" started over (truncated or replaced) ==\n")
	return err
}

// Forget is PlainPrinter.Forget for th's printer.
func (p *ThreadsPrinter) Forget(th *fold.Thread) {
	if pp := p.each[th]; pp != nil {
		pp.Forget()
	}
}

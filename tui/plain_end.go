package tui

// This file holds what --plain prints when a source ends or starts over:
// the messages that never got their end.

import (
	"io"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// plainUnfinished marks a message line printed without the message's end.
const plainUnfinished = " (unfinished)"

// Finish prints the messages that never got their end (a log cut in the
// middle of one, an agent that died mid-sentence), each as its finished
// line would be with the speaker marked unfinished ("agent (unfinished):
// …"), in item order. Call it when the source has ended: a message still
// open then will not be finished, and would otherwise never be printed.
func (p *PlainPrinter) Finish() error {
	p.buf.Reset()
	for _, it := range p.f.Items() {
		if it.Kind != model.ItemMessage || it.Status.Done() || p.itemDone[it.Seq] {
			continue
		}
		p.itemDone[it.Seq] = true
		p.line(messageLine(it, plainUnfinished))
	}
	if p.buf.Len() == 0 {
		return nil
	}
	_, err := io.WriteString(p.w, p.buf.String())
	return err
}

// Finish is PlainPrinter.Finish for every thread, in the set's order, each
// under its heading as Print puts it.
func (p *ThreadsPrinter) Finish() error {
	return p.finish(p.set.List())
}

// finish prints the unfinished messages of threads.
func (p *ThreadsPrinter) finish(threads []*fold.Thread) error {
	p.out.Reset()
	for _, th := range threads {
		pp := p.each[th]
		if pp == nil {
			continue
		}
		p.buf.Reset()
		if err := pp.Finish(); err != nil {
			return err
		}
		p.take(th)
	}
	if p.out.Len() == 0 {
		return nil
	}
	_, err := p.w.Write(p.out.Bytes())
	return err
}

package otlp

import (
	"context"
	"time"

	"github.com/agentwatch/agentwatch/model"
	"github.com/agentwatch/agentwatch/protocol/otel"
)

// Live maps OTLP/JSON export requests that come one per record, as the
// lines of a followed file (sources.TailBatches, sources.FollowFolder) or
// of standard input bring them, the way the receiver maps its requests:
// each batch as it arrives, in the order of its own times, what comes in
// a later batch after it (a late span still updates its step). Each
// source of the batches (Batch.Source) is mapped on its own.
//
// A source is told by its first record that has content: an export
// request makes it OTLP; anything else makes it a log of another format,
// whose batches are passed on as they are, so Live may stand in front of
// any line source. In an OTLP source a line that is not a request is an
// unreadable record saying why; metrics are left aside. A restart (a file
// truncated or replaced) starts the source's mapping over. When in
// closes, the runs of each OTLP source still open end (its telemetry has
// nothing more to say) and the returned channel closes.
func Live(ctx context.Context, in <-chan model.Batch, opts otel.Options) <-chan model.Batch {
	// As much room as in has, no more: a file read faster than it is
	// folded waits in the reader, not decoded in this channel.
	out := make(chan model.Batch, cap(in))
	go func() {
		defer close(out)
		send := func(b model.Batch) bool {
			select {
			case out <- b:
				return true
			case <-ctx.Done():
				return false
			}
		}
		l := &live{opts: opts, sources: map[string]*liveSource{}}
		for {
			var b model.Batch
			var ok bool
			select {
			case b, ok = <-in:
			case <-ctx.Done():
				return
			}
			if !ok {
				break
			}
			if m, ok := l.batch(b); ok && !send(m) {
				return
			}
		}
		for _, src := range l.order {
			if recs := l.sources[src].finish(); len(recs) > 0 && !send(model.Batch{Source: src, Records: recs}) {
				return
			}
		}
	}()
	return out
}

// live is the state of Live: each source's mapping.
type live struct {
	opts    otel.Options
	sources map[string]*liveSource
	order   []string // sources in the order they came
}

// liveMode is what a source was found to be.
type liveMode uint8

const (
	modeUnknown liveMode = iota
	modeOTLP
	modeOther
)

// liveSource is one source's mapping.
type liveSource struct {
	mode liveMode
	tr   *otel.Translator
	// seq is the last Seq sent: records are numbered on from it, never
	// reusing a number, also after a restart.
	seq uint64
}

// batch maps one batch; ok is false when there is nothing to send.
func (l *live) batch(b model.Batch) (model.Batch, bool) {
	s := l.sources[b.Source]
	if s == nil {
		s = &liveSource{}
		l.sources[b.Source] = s
		l.order = append(l.order, b.Source)
	}
	if b.Restart {
		s.mode, s.tr = modeUnknown, nil
	}
	if s.mode == modeOther {
		// Not OTLP: the batch goes on as it came.
		for _, rec := range b.Records {
			s.seq = max(s.seq, rec.Seq)
		}
		return b, true
	}
	var recs []model.Record
	for _, rec := range b.Records {
		if s.mode == modeUnknown && len(rec.Raw) > 0 {
			s.mode = modeOther
			if _, ok := SniffJSON(rec.Raw); ok {
				s.mode, s.tr = modeOTLP, otel.New(l.opts)
			}
		}
		if s.mode != modeOTLP {
			s.seq = max(s.seq, rec.Seq)
			recs = append(recs, rec)
			continue
		}
		if bad, ok := s.add(rec); !ok {
			recs = append(recs, s.number(bad))
		}
	}
	if s.mode == modeOTLP {
		for _, r := range s.tr.Flush() {
			recs = append(recs, s.number(r))
		}
	}
	b.Records = recs
	return b, len(recs) > 0 || b.Restart || s.mode != modeOTLP
}

// add gives one line's request to the translator; when the line is not
// a request, ok is false and bad says why.
func (s *liveSource) add(rec model.Record) (bad model.Record, ok bool) {
	at := rec.At
	if at.IsZero() {
		at = time.Now()
	}
	unreadable := func(why string) model.Record {
		return model.Record{At: at, Proto: model.ProtoAGUI, Event: &model.Unreadable{Reason: why, Offset: -1}}
	}
	if u, isBad := rec.Event.(*model.Unreadable); isBad && len(rec.Raw) == 0 {
		return unreadable(u.Reason), false
	}
	sig, isReq := SniffJSON(rec.Raw)
	if !isReq {
		return unreadable("not an OTLP/JSON export request (it does not start with resourceSpans, resourceLogs or resourceMetrics)"), false
	}
	req, err := DecodeJSON(sig, rec.Raw)
	if err != nil {
		return unreadable(err.Error()), false
	}
	switch sig {
	case SignalTraces:
		s.tr.AddTraces(req.Traces)
	case SignalLogs:
		s.tr.AddLogs(req.Logs)
	}
	return model.Record{}, true
}

// number gives a record the source's next Seq.
func (s *liveSource) number(r model.Record) model.Record {
	s.seq++
	r.Seq = s.seq
	return r
}

// finish ends the source's open runs, when it is OTLP.
func (s *liveSource) finish() []model.Record {
	if s.mode != modeOTLP {
		return nil
	}
	recs := s.tr.Finish()
	for i := range recs {
		recs[i] = s.number(recs[i])
	}
	return recs
}

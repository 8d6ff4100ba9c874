package compact

import (
	"errors"
	"fmt"

	"github.com/agentwatch/agentwatch/model"
)

// ErrUnreadable is returned for a log with records that are not events at
// all (not JSON, not an object): a compacted log could not hold them.
var ErrUnreadable = errors.New("not an event")

// Method says which compaction a Result holds.
type Method string

// The compactions Compact chooses from, in order of preference.
const (
	// MethodReference is the reference compactEvents' output: it kept the laws.
	MethodReference Method = "reference"
	// MethodFixed is Fixed's output: the reference's broke a law.
	MethodFixed Method = "fixed"
	// MethodUnchanged is the input as it was: neither compaction kept the
	// laws (a bug in Fixed; the judge's error says where).
	MethodUnchanged Method = "unchanged"
)

// Judge checks a compaction of one log against that log: nil when it keeps
// the laws (it verifies whenever the log does, and folds to the same
// messages, in the same order, and the same state), else what breaks.
// fold/compact/equiv provides one built on the fold.
type Judge func(compacted []model.Record) error

// Result is a compacted log.
type Result struct {
	// Records are the compacted log's events, numbered from 1. Those passed
	// through hold the input's exact JSON; the rest were made here.
	Records []model.Record
	// Method says which compaction this is.
	Method Method
	// Rejected says why the compactions preferred to Method were not used.
	Rejected []error
}

// Compact compacts a log. It prefers the reference's output (Reference), so
// that wherever that is sound the two agree; where judge finds it breaks a
// law it takes Fixed's; should that fail too, the log as it was. With a nil
// judge it returns Fixed's output unchecked.
func Compact(recs []model.Record, judge Judge) (Result, error) {
	for i := range recs {
		if u, bad := recs[i].Event.(*model.Unreadable); bad || recs[i].Event == nil {
			why := "no event"
			if bad {
				why = u.Reason
			}
			return Result{}, fmt.Errorf("record %d: %w: %s", recs[i].Seq, ErrUnreadable, why)
		}
	}
	if judge == nil {
		return Result{Records: Fixed(recs), Method: MethodFixed}, nil
	}
	var res Result
	ref := Reference(recs)
	err := judge(ref)
	if err == nil {
		return Result{Records: ref, Method: MethodReference}, nil
	}
	res.Rejected = append(res.Rejected, fmt.Errorf("reference compaction: %w", err))
	fixed := Fixed(recs)
	err = judge(fixed)
	if err == nil {
		res.Records, res.Method = fixed, MethodFixed
		return res, nil
	}
	res.Rejected = append(res.Rejected, fmt.Errorf("fixed compaction: %w", err))
	var out output
	for i := range recs {
		out.pass(&recs[i])
	}
	res.Records, res.Method = out.done(), MethodUnchanged
	return res, nil
}

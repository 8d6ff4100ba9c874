// Package equiv decides whether two AG-UI logs fold alike, as the laws of
// compaction (fold/compact) state it: the second verifies whenever the first
// does, and folds to the same messages, in the same order, and the same
// final state. It folds with the fold package, which matches the reference
// client (fold/peer_test.go), so that "alike" means what it means there.
package equiv

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/go-json-experiment/json"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/model"
)

// Outcome is what a log folds to, in the terms the laws compare.
type Outcome struct {
	// Problems are the fold's diagnostics: a log verifies when there are none.
	Problems []fold.Diagnostic
	// Messages and State are the folded messages and state as plain JSON
	// values (maps, slices, float64s), ids minted for legacy THINKING_*
	// events renamed by order of first appearance (see canonicalIDs).
	Messages any
	State    any
}

// Verified reports whether the log broke no rule.
func (o Outcome) Verified() bool { return len(o.Problems) == 0 }

// Fold folds records (numbered from 1 in order) and returns the outcome.
func Fold(recs []model.Record) Outcome {
	f := fold.New(fold.Options{})
	// Apply fails only for records of another thread; they are diagnostics too.
	_, _ = f.Apply(recs...)
	sum := f.Summary()
	var o Outcome
	o.Problems = sum.Diagnostics
	o.Messages = canonicalIDs(plain(sum.Messages))
	o.State = plain(sum.State)
	return o
}

// Against folds in once and returns a check of other logs against it; its
// signature is compact.Judge's.
func Against(in []model.Record) func(out []model.Record) error {
	want := Fold(in)
	return func(out []model.Record) error { return want.Compare(Fold(out)) }
}

// Compare returns nil when got (the outcome of a compacted log) keeps the
// laws against o (its input's), else what breaks them.
func (o Outcome) Compare(got Outcome) error {
	var diffs []string
	if o.Verified() && !got.Verified() {
		d := got.Problems[0]
		diffs = append(diffs, fmt.Sprintf("the input verifies but the output does not: event %d %s [%s]: %s", d.Seq, d.Type, d.Rule, d.Message))
	}
	if !reflect.DeepEqual(o.Messages, got.Messages) {
		diffs = append(diffs, "messages differ: "+MessagesDiff(o.Messages, got.Messages))
	}
	if !reflect.DeepEqual(o.State, got.State) {
		diffs = append(diffs, fmt.Sprintf("state differs: input %s, output %s", oneLine(o.State), oneLine(got.State)))
	}
	if len(diffs) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(diffs, "; "))
}

// MessagesDiff says where two normalised message lists first differ.
func MessagesDiff(want, got any) string {
	w, _ := want.([]any)
	g, _ := got.([]any)
	for i := range max(len(w), len(g)) {
		var wi, gi any = "(none)", "(none)"
		if i < len(w) {
			wi = w[i]
		}
		if i < len(g) {
			gi = g[i]
		}
		if !reflect.DeepEqual(wi, gi) {
			return fmt.Sprintf("message %d is %s in the input, %s in the output (%d and %d messages)", i, oneLine(wi), oneLine(gi), len(w), len(g))
		}
	}
	return fmt.Sprintf("%d and %d messages", len(w), len(g))
}

// plain round-trips v through JSON into plain values.
func plain(v any) any {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return fmt.Sprintf("<unencodable: %v>", err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		return fmt.Sprintf("<undecodable: %v>", err)
	}
	return out
}

func oneLine(v any) string {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

var mintedID = regexp.MustCompile(`^thinking-[0-9]+$`)

// canonicalIDs renames the ids the fold mints for legacy THINKING_* events
// ("thinking-<seq>", after the record's place in the log, which compaction
// changes) to "thinking#<n>" in order of first appearance, so that logs
// differing only in where those events stand compare equal.
func canonicalIDs(v any) any {
	names := map[string]string{}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case string:
			if !mintedID.MatchString(x) {
				return x
			}
			if n, ok := names[x]; ok {
				return n
			}
			n := fmt.Sprintf("thinking#%d", len(names)+1)
			names[x] = n
			return n
		case []any:
			for i := range x {
				x[i] = walk(x[i])
			}
		case map[string]any:
			// Sorted keys: the renaming must not depend on map order.
			for _, k := range sortedKeys(x) {
				x[k] = walk(x[k])
			}
		}
		return v
	}
	return walk(v)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

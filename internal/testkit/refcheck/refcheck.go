// Package refcheck compares agentwatch's fold with what the reference AG-UI
// client (@ag-ui/client) made of the same log, for the tests that hold the
// one to the other: a strict diff of decoded JSON values, and the renaming
// that matches the reference's random ids for legacy THINKING_* events to
// ours.
package refcheck

import (
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"slices"

	"github.com/go-json-experiment/json"
)

var (
	referenceID = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	ourID       = regexp.MustCompile(`^thinking-[0-9]+$`)
	legacy      = regexp.MustCompile(`"type"\s*:\s*"THINKING_`)
)

// HasLegacyThinking reports whether a log holds AG-UI 0.x THINKING_* events,
// whose ids the reference makes up at random.
func HasLegacyThinking(raw []byte) bool { return legacy.Match(raw) }

// Renaming maps the reference's ids for legacy THINKING_* events (UUIDs) to
// ours ("thinking-<seq>"). It must stay one to one: a UUID is always the
// same id of ours, and no two UUIDs share one; Errs says where it was not.
type Renaming struct {
	Fwd, rev map[string]string
	Errs     []string
}

// NewRenaming returns an empty renaming.
func NewRenaming() *Renaming {
	return &Renaming{Fwd: map[string]string{}, rev: map[string]string{}}
}

// Unify walks want and got in step and, wherever want holds a UUID and got
// a "thinking-N" at the same place, records the pair and rewrites want to
// got's id. Places where the shapes differ are left for Diff.
func (m *Renaming) Unify(want, got any, path string) any {
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		if !ok || !referenceID.MatchString(w) || !ourID.MatchString(g) {
			return want
		}
		if prev, seen := m.Fwd[w]; seen && prev != g {
			m.Errs = append(m.Errs, fmt.Sprintf("%s: reference id %s is %s here but %s elsewhere", path, w, g, prev))
			return want
		}
		if prev, seen := m.rev[g]; seen && prev != w {
			m.Errs = append(m.Errs, fmt.Sprintf("%s: our id %s stands for reference id %s here but %s elsewhere", path, g, w, prev))
			return want
		}
		m.Fwd[w], m.rev[g] = g, w
		return g
	case []any:
		g, _ := got.([]any)
		out := make([]any, len(w))
		for i := range w {
			var gi any
			if i < len(g) {
				gi = g[i]
			}
			out[i] = m.Unify(w[i], gi, fmt.Sprintf("%s[%d]", path, i))
		}
		return out
	case map[string]any:
		g, _ := got.(map[string]any)
		out := make(map[string]any, len(w))
		for k, v := range w {
			out[k] = m.Unify(v, g[k], path+"."+k)
		}
		return out
	}
	return want
}

// Diff lists every place where got differs from want, two JSON values
// decoded into plain Go values (map[string]any, []any, string, float64,
// bool, nil). It is strict about presence: a member or element that one
// side has and the other lacks is a difference whatever its value, so an
// absent field differs from "", [], {} and null, and those from each other.
// Numbers compare as float64, the precision the reference itself has.
func Diff(want, got any, path string) []string {
	differ := func() []string {
		return []string{fmt.Sprintf("%s: reference %s, fold %s", path, OneLine(want), OneLine(got))}
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return differ()
		}
		var out []string
		for _, k := range slices.Sorted(maps.Keys(w)) {
			if gv, ok := g[k]; ok {
				out = append(out, Diff(w[k], gv, path+"."+k)...)
			} else {
				out = append(out, fmt.Sprintf("%s.%s: reference %s, fold has no such member", path, k, OneLine(w[k])))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(g)) {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: reference has no such member, fold %s", path, k, OneLine(g[k])))
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return differ()
		}
		var out []string
		for i := range max(len(w), len(g)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i >= len(g):
				out = append(out, fmt.Sprintf("%s: reference %s, fold has no such element", p, OneLine(w[i])))
			case i >= len(w):
				out = append(out, fmt.Sprintf("%s: reference has no such element, fold %s", p, OneLine(g[i])))
			default:
				out = append(out, Diff(w[i], g[i], p)...)
			}
		}
		return out
	case string, float64, bool, nil:
		if !reflect.DeepEqual(want, got) {
			return differ()
		}
		return nil
	}
	return []string{fmt.Sprintf("%s: reference holds a %T, which is not a decoded JSON value", path, want)}
}

// OneLine writes v as JSON on one line, object keys sorted.
func OneLine(v any) string {
	b, err := json.Marshal(v, json.Deterministic(true))
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

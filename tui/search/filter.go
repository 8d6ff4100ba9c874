package search

import (
	"fmt"
	"strings"

	"github.com/agentwatch/agentwatch/model"
)

// Filter chooses steps by category, status and text: a step is kept when
// its category is one of Categories (or there are none), its status one of
// Statuses (or there are none), and it holds Text (or there is none).
type Filter struct {
	Categories []model.Category
	Statuses   []model.Status
	Text       Matcher
	spec       string
}

// The words a filter understands besides the categories.
var statusWords = map[string][]model.Status{
	"failed":    {model.StatusFailed},
	"running":   {model.StatusRunning},
	"pending":   {model.StatusPending},
	"done":      {model.StatusCompleted},
	"completed": {model.StatusCompleted},
	"cancelled": {model.StatusCancelled},
	"canceled":  {model.StatusCancelled},
	"open":      {model.StatusPending, model.StatusRunning},
}

var categoryAliases = map[string]model.Category{
	"exec": model.CategoryExecute, "command": model.CategoryExecute,
	"find": model.CategorySearch, "del": model.CategoryDelete, "mode": model.CategorySwitchMode,
	"tool": model.CategoryOther,
}

// ParseFilter reads a filter as people type it: words separated by commas
// or spaces, each a category (read, edit, delete, move, search, execute,
// think, fetch, switch_mode, other, and the chips' short words), a status
// (failed, running, pending, done, cancelled) or text:WORDS (the rest of
// the spec is the text). An empty spec is no filter.
func ParseFilter(spec string) (Filter, error) {
	f := Filter{spec: strings.TrimSpace(spec)}
	rest := f.spec
	if i := indexText(rest); i >= 0 {
		f.Text = NewMatcher(strings.TrimSpace(rest[i+len("text:"):]))
		rest = rest[:i]
	}
	for _, w := range strings.FieldsFunc(rest, func(r rune) bool { return r == ',' || r == ' ' }) {
		w = strings.ToLower(w)
		if st, ok := statusWords[w]; ok {
			f.Statuses = append(f.Statuses, st...)
			continue
		}
		c := model.Category(w)
		if a, ok := categoryAliases[w]; ok {
			c = a
		}
		if !knownCategory(c) {
			return Filter{}, fmt.Errorf("filter: %q is not a category (%s), a status (failed, running, pending, done, cancelled) or text:WORDS", w, categoryList())
		}
		f.Categories = append(f.Categories, c)
	}
	return f, nil
}

// indexText is where "text:" begins in spec, in any case ("Text:"), or -1.
func indexText(spec string) int {
	for i := 0; i+len("text:") <= len(spec); i++ {
		if strings.EqualFold(spec[i:i+len("text:")], "text:") {
			return i
		}
	}
	return -1
}

func knownCategory(c model.Category) bool {
	for _, k := range model.Categories {
		if k == c {
			return true
		}
	}
	return false
}

func categoryList() string {
	names := make([]string, len(model.Categories))
	for i, c := range model.Categories {
		names[i] = string(c)
	}
	return strings.Join(names, ", ")
}

// Active reports whether the filter leaves any step out.
func (f Filter) Active() bool {
	return len(f.Categories) > 0 || len(f.Statuses) > 0 || !f.Text.Empty()
}

// String is the filter as it was typed, tidied.
func (f Filter) String() string { return f.spec }

// Keep reports whether the filter keeps step s.
func (f Filter) Keep(s *model.Step) bool {
	if s == nil {
		return false
	}
	c := s.Category
	if c == "" {
		c = model.CategoryOther
	}
	if len(f.Categories) > 0 && !containsCategory(f.Categories, c) {
		return false
	}
	if len(f.Statuses) > 0 && !containsStatus(f.Statuses, s.Status) {
		return false
	}
	return f.Text.Empty() || StepHas(s, f.Text)
}

func containsCategory(cs []model.Category, c model.Category) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func containsStatus(ss []model.Status, s model.Status) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

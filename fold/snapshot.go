package fold

import (
	"slices"

	"github.com/agentwatch/agentwatch/protocol/agui"
	"github.com/go-json-experiment/json/jsontext"
)

// messagesSnapshot merges the producer's copy of the conversation as the
// reference does: local messages it names are replaced in place, new ones
// appended in its order, others removed — except local activity and
// reasoning messages when the snapshot carries none of their kind.
func (r *reduceState) messagesSnapshot(e *agui.MessagesSnapshot) {
	incoming := make([]*agui.Message, len(e.Messages))
	byID := make(map[string]*agui.Message, len(e.Messages))
	hasActivity, hasReasoning := false, false
	for i := range e.Messages {
		m := cloneMessage(&e.Messages[i])
		r.createdMessage(m)
		incoming[i] = m
		byID[m.ID] = m
		hasActivity = hasActivity || m.Role == agui.RoleActivity
		hasReasoning = hasReasoning || m.Role == agui.RoleReasoning
	}
	owned, scope := authoritativeActivityTypes(e.Metadata)
	keepLocal := func(m *agui.Message) bool {
		switch m.Role {
		case agui.RoleActivity:
			switch scope {
			case scopeList:
				return !slices.Contains(owned, m.ActivityType)
			case scopeAll:
				return false
			default:
				return !hasActivity
			}
		case agui.RoleReasoning:
			return !hasReasoning
		}
		return false
	}
	next := make([]*agui.Message, 0, len(r.Messages)+len(incoming))
	seen := map[string]bool{}
	for _, m := range r.Messages {
		if s, ok := byID[m.ID]; ok {
			next = append(next, s)
		} else if keepLocal(m) {
			next = append(next, m)
		} else {
			continue
		}
		seen[m.ID] = true
	}
	if r.Gone.Len() > 0 {
		// Messages Trim shed were local to the reference, which replaces
		// them where they were: before the local ones that stay, as Trim
		// drops the oldest.
		var back []*agui.Message
		for _, m := range incoming {
			if r.Gone.Has(m.ID) && !seen[m.ID] {
				back = append(back, byID[m.ID])
				seen[m.ID] = true
			}
		}
		next = append(back, next...)
	}
	for _, m := range incoming {
		if !seen[m.ID] {
			next = append(next, m)
		}
	}
	r.Messages = next
	r.twice = hasTwice(next)
	r.reindex()
	// What the reference removed is gone from it too; the reasoning it
	// keeps when the snapshot has none stays dropped.
	r.Gone.DeleteFunc(func(id string, g goneMessage) bool {
		return seen[id] || g.Role != agui.RoleReasoning || hasReasoning
	})
	r.GoneCalls.Clear()
	// A copy: a checkpoint may share the list's array.
	r.Tail = slices.DeleteFunc(slices.Clone(r.Tail), func(id string) bool { return !r.Gone.Has(id) })
	r.TailCalls = nil
}

// hasTwice reports whether ms holds one message twice: the snapshot's
// message replaces every local message with its id.
func hasTwice(ms []*agui.Message) bool {
	seen := make(map[*agui.Message]struct{}, len(ms))
	for _, m := range ms {
		if _, ok := seen[m]; ok {
			return true
		}
		seen[m] = struct{}{}
	}
	return false
}

type activityScope int

const (
	scopeInferred activityScope = iota // no declaration: a snapshot with activity messages owns all
	scopeAll                           // declared null: owns every activity type
	scopeList                          // declared list: owns those types
)

// authoritativeActivityTypes reads metadata["@ag-ui/client"].authoritativeActivityTypes.
func authoritativeActivityTypes(md agui.Metadata) ([]string, activityScope) {
	v, ok := md["@ag-ui/client"]
	if !ok {
		return nil, scopeInferred
	}
	var obj map[string]jsontext.Value
	if agui.UnmarshalValue(v, &obj) != nil || obj == nil {
		return nil, scopeList
	}
	types, ok := obj["authoritativeActivityTypes"]
	if !ok {
		return nil, scopeInferred
	}
	if types.Kind() == 'n' {
		return nil, scopeAll
	}
	var list []string
	if agui.UnmarshalValue(types, &list) != nil {
		return nil, scopeList
	}
	return list, scopeList
}

// activitySnapshot creates or (unless replace is false) replaces an activity message.
func (r *reduceState) activitySnapshot(e *agui.ActivitySnapshot) {
	existing := r.find(e.MessageID)
	replace := e.Replace == nil || *e.Replace
	fresh := &agui.Message{ID: e.MessageID, Role: agui.RoleActivity, Content: agui.Content{Object: e.Content.Clone(), Present: true}}
	fresh.SetActivityType(e.ActivityType)
	if e.SubagentRunID.IsSet() {
		fresh.SubagentRunID = e.SubagentRunID
	}
	var target *agui.Message
	g, gone := r.Gone.Get(e.MessageID)
	switch {
	case existing == nil && gone:
		// Trim keeps activity messages: the dropped one is of another
		// kind, which the reference replaces where it was, or keeps when
		// told to.
		if replace {
			r.insert(r.before(g.Next), fresh)
			r.Gone.Delete(e.MessageID)
			target = fresh
		}
	case existing == nil:
		r.push(fresh)
		target = fresh
	case existing.Role == agui.RoleActivity:
		if replace {
			existing.SetActivityType(e.ActivityType)
			existing.Content = fresh.Content
			existing.SubagentRunID = fresh.SubagentRunID
		}
		target = existing
	case replace:
		i := r.index(existing)
		r.createdMessage(fresh)
		r.Messages[i] = fresh
		r.reindex()
		target = fresh
	}
	if target != nil {
		mergeInto(&target.Metadata, &e.Base)
	}
}

// activityDelta patches an activity message's content; an unknown id is ignored.
func (r *reduceState) activityDelta(e *agui.ActivityDelta, warn warnf) {
	m := r.find(e.MessageID)
	if m == nil {
		return
	}
	if m.Role != agui.RoleActivity {
		warn("ACTIVITY_DELTA: Message '%s' is not an activity message", e.MessageID)
		return
	}
	mergeInto(&m.Metadata, &e.Base)
	base := m.Content.Object
	if base == nil {
		base = jsontext.Value("{}")
	}
	next, err := applyPatch(base, e.Patch)
	if err != nil {
		warn("Failed to apply activity patch for '%s': %v", e.MessageID, err)
		return
	}
	m.Content = agui.Content{Object: next, Present: true}
	m.SetActivityType(e.ActivityType)
}

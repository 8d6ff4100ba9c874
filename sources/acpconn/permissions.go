package acpconn

import (
	"context"
	"sync"

	"github.com/agentwatch/agentwatch/model"
)

// Permissions decides permission requests: a fixed policy, or Ask.
type Permissions struct {
	// Policy "allow-once" or "allow-always" picks the first option of that
	// kind without asking; "" asks (or, without Ask, rejects).
	Policy string
	// Ask asks the user and blocks until they answer: the chosen option's
	// id, or ok false to cancel. ctx ends when the turn is cancelled.
	Ask func(ctx context.Context, req model.PermissionRequest) (optionID string, ok bool)
	// Rejected, when set, is told about a request rejected because there
	// was no way to ask.
	Rejected func(req model.PermissionRequest, optionID string)
}

// permissions runs Permissions and cancels the questions still open when
// a turn is cancelled.
type permissions struct {
	p       Permissions
	mu      sync.Mutex
	cancels map[int]context.CancelFunc
	next    int
}

func newPermissions(p Permissions) *permissions {
	return &permissions{p: p, cancels: map[int]context.CancelFunc{}}
}

// PolicyKind is the option kind a --permissions policy picks.
func PolicyKind(policy string) string {
	switch policy {
	case "allow-once":
		return "allow_once"
	case "allow-always":
		return "allow_always"
	}
	return ""
}

func (ps *permissions) decide(ctx context.Context, req model.PermissionRequest) (string, bool) {
	if kind := PolicyKind(ps.p.Policy); kind != "" {
		for _, o := range req.Options {
			if o.Kind == kind {
				return o.ID, true
			}
		}
	}
	if ps.p.Ask == nil {
		for _, kind := range []string{"reject_once", "reject_always"} {
			for _, o := range req.Options {
				if o.Kind == kind {
					if ps.p.Rejected != nil {
						ps.p.Rejected(req, o.ID)
					}
					return o.ID, true
				}
			}
		}
		if ps.p.Rejected != nil {
			ps.p.Rejected(req, "")
		}
		return "", false
	}
	ctx, cancel := context.WithCancel(ctx)
	ps.mu.Lock()
	ps.next++
	n := ps.next
	ps.cancels[n] = cancel
	ps.mu.Unlock()
	defer func() {
		ps.mu.Lock()
		delete(ps.cancels, n)
		ps.mu.Unlock()
		cancel()
	}()
	id, ok := ps.p.Ask(ctx, req)
	if ctx.Err() != nil {
		return "", false
	}
	return id, ok
}

// cancelAll cancels every question still open.
func (ps *permissions) cancelAll() {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	for _, c := range ps.cancels {
		c()
	}
}

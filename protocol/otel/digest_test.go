package otel_test

import (
	"testing"

	"github.com/agentwatch/agentwatch/fold"
	"github.com/agentwatch/agentwatch/internal/testkit/otlptest"
)

// digest is otlptest.Digest, failing on any protocol problem.
func digest(t *testing.T, ts *fold.Threads) string {
	t.Helper()
	d, problems := otlptest.Digest(ts)
	for _, p := range problems {
		t.Error(p)
	}
	return d
}

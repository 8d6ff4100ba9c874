package words

import "testing"

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{{0, "0 steps"}, {1, "1 step"}, {2, "2 steps"}, {1234, "1,234 steps"}, {1234567, "1,234,567 steps"}, {-1500, "-1,500 steps"}} {
		if got := Count(tc.n, "step", "steps"); got != tc.want {
			t.Errorf("Count(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

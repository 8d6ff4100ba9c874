package images

import (
	"testing"

	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
)

func TestGraphicsQuery(t *testing.T) {
	// A 1×1 RGB picture (three zero bytes) sent in the code, to be checked
	// and not kept, under id 31.
	const want = "\x1b_Gf=24,i=31,s=1,v=1,a=q;AAAA\x1b\\"
	if graphicsQuery != want {
		t.Errorf("query %q, want %q", graphicsQuery, want)
	}
}

// env is an environment for Probe.Env.
func env(kv ...string) func(string) string {
	return func(k string) string {
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i] == k {
				return kv[i+1]
			}
		}
		return ""
	}
}

func TestProbe(t *testing.T) {
	type step struct {
		env     func(string) string
		version string // an XTVERSION answer, "" for none
		answer  string // the graphics answer to id 31, "" for none
		profile colorprofile.Profile
	}
	tests := []struct {
		name   string
		choice Choice
		step
		asks, asksAfterVersion string
		want                   Mode
	}{
		{"kitty by TERM answers", Auto, step{env("TERM", "xterm-kitty"), "", "OK", colorprofile.TrueColor}, graphicsQuery, "", Pixels},
		{"kitty by name answers", Auto, step{env("TERM", "xterm-256color"), "kitty(0.35.2)", "OK", colorprofile.TrueColor}, ansi.RequestNameVersion, graphicsQuery, Pixels},
		{"ghostty by name", Auto, step{env("TERM", "xterm-256color"), "ghostty 1.1.0", "OK", colorprofile.ANSI256}, ansi.RequestNameVersion, graphicsQuery, Pixels},
		{"no answer", Auto, step{env("TERM", "xterm-kitty"), "", "", colorprofile.TrueColor}, graphicsQuery, "", HalfBlocks},
		{"an error is no answer", Auto, step{env("TERM", "xterm-kitty"), "", "EINVAL:bad", colorprofile.TrueColor}, graphicsQuery, "", HalfBlocks},
		{"WezTerm is not asked", Auto, step{env("TERM", "xterm-256color"), "WezTerm 20240203", "OK", colorprofile.TrueColor}, ansi.RequestNameVersion, "", HalfBlocks},
		{"tmux by TERM is not asked", Auto, step{env("TERM", "tmux-256color"), "tmux 3.4", "", colorprofile.TrueColor}, "", "", HalfBlocks},
		{"tmux by TMUX is not asked", Auto, step{env("TERM", "xterm-kitty", "TMUX", "/tmp/tmux-0/default,1,0"), "", "", colorprofile.TrueColor}, "", "", HalfBlocks},
		{"screen", Auto, step{env("TERM", "screen.xterm-256color"), "", "", colorprofile.TrueColor}, "", "", HalfBlocks},
		{"the Linux console", Auto, step{env("TERM", "linux"), "", "", colorprofile.ANSI}, "", "", HalfBlocks},
		{"16 colours", Auto, step{env("TERM", "xterm-kitty"), "", "OK", colorprofile.ANSI}, graphicsQuery, "", HalfBlocks},
		{"NO_COLOR", Auto, step{env("TERM", "xterm-kitty", "NO_COLOR", "1"), "", "", colorprofile.ASCII}, "", "", Text},
		{"no colours", Blocks, step{env("TERM", "dumb"), "", "", colorprofile.ASCII}, "", "", Text},
		{"forced kitty", Kitty, step{env("TERM", "xterm-256color"), "", "", colorprofile.TrueColor}, "", "", Pixels},
		{"forced blocks", Blocks, step{env("TERM", "xterm-kitty"), "kitty(0.35.2)", "", colorprofile.TrueColor}, "", "", HalfBlocks},
		{"off", Off, step{env("TERM", "xterm-kitty"), "", "", colorprofile.TrueColor}, "", "", Text},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := NewProbe(tc.choice)
			if got := p.Env(tc.env); got != tc.asks {
				t.Errorf("on start it asks %q, want %q", got, tc.asks)
			}
			p.Profile(tc.profile)
			if tc.version != "" {
				if got := p.Version(tc.version); got != tc.asksAfterVersion {
					t.Errorf("after the name it asks %q, want %q", got, tc.asksAfterVersion)
				}
			}
			if tc.answer != "" {
				p.Graphics(QueryID, tc.answer)
			}
			if got := p.Mode(); got != tc.want {
				t.Errorf("mode %v, want %v", got, tc.want)
			}
		})
	}
	// In tmux: not asked, and codes forced through go wrapped.
	for _, e := range []func(string) string{env("TERM", "tmux-256color"), env("TERM", "xterm-kitty", "TMUX", "/tmp/tmux-0/default,1,0")} {
		p := NewProbe(Kitty)
		p.Env(e)
		if !p.Tmux() {
			t.Errorf("TERM %q: not taken for tmux", e("TERM"))
		}
	}
	if p := NewProbe(Kitty); p.Env(env("TERM", "xterm-kitty")) != "" || p.Tmux() {
		t.Error("kitty taken for tmux, or asked under a forced choice")
	}
	// An answer to a query never sent, or to another id, does not count.
	p := NewProbe(Auto)
	p.Env(env("TERM", "xterm-256color"))
	p.Graphics(QueryID, "OK")
	if p.Mode() != HalfBlocks {
		t.Error("an answer nobody asked for turned pixels on")
	}
	p = NewProbe(Auto)
	p.Env(env("TERM", "xterm-kitty"))
	p.Graphics(7, "OK")
	if p.Mode() != HalfBlocks {
		t.Error("an answer for image 7 turned pixels on")
	}
}

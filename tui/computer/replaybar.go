package computer

import (
	"fmt"
	"strings"
	"time"

	"github.com/agentwatch/agentwatch/tui/render"
	"github.com/agentwatch/agentwatch/tui/styles"
	"github.com/charmbracelet/x/ansi"
)

// ReplayState is what the replay bar shows: the play clock on the
// compressed timeline, where runs and steps begin on it, and the speed.
type ReplayState struct {
	Playing        bool
	Speed          float64
	Elapsed, Total time.Duration
	Pos, Len       int // records played, records in the log
	// Steps and Runs are the times (on the compressed timeline) where each
	// begins.
	Steps, Runs []time.Duration
	// Flash is a short note shown in place of the record counter (the new
	// speed after + or -).
	Flash string
	// Untimed says the log has no times: the counter is what moves.
	Untimed bool
}

// ReplayBarView is a drawn replay bar and where its track is, for clicks.
type ReplayBarView struct {
	Line string
	// TrackFrom and TrackTo are the track's columns [from, to).
	TrackFrom, TrackTo int
}

// TimeAt is the time a click at col on the track means, clamped to it.
func (v ReplayBarView) TimeAt(col int, total time.Duration) time.Duration {
	n := v.TrackTo - v.TrackFrom
	if n <= 1 {
		return 0
	}
	c := min(max(col-v.TrackFrom, 0), n-1)
	return time.Duration(float64(total) * float64(c) / float64(n-1))
}

// OnTrack reports whether col is on the track.
func (v ReplayBarView) OnTrack(col int) bool { return col >= v.TrackFrom && col < v.TrackTo }

// ReplayBar draws "▶ 2×  0:41 / 2:51  ━━━━●───┃──·──  412/840": play state,
// speed, clock, a track with run (┃) and step (·) markers and the head (●),
// and the record counter.
func ReplayBar(s ReplayState, width int) ReplayBarView {
	if width <= 0 {
		return ReplayBarView{}
	}
	icon := "❚❚"
	if s.Playing {
		icon = "▶"
	}
	left := fmt.Sprintf("%s %s  %s / %s  ", icon, SpeedText(s.Speed), clock(s.Elapsed), clock(s.Total))
	right := s.Flash
	if right == "" {
		right = fmt.Sprintf("%d/%d", s.Pos, s.Len)
	}
	right = "  " + right
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	track := width - lw - rw
	if track < 8 { // too narrow for a track: state and clock only
		return ReplayBarView{Line: render.Pad(ansi.Truncate(left+right, width, ""), width)}
	}
	cells := make([]string, track)
	for i := range cells {
		cells[i] = "─"
	}
	at := func(d time.Duration) int {
		if s.Total <= 0 {
			return 0
		}
		return min(track-1, max(0, int(float64(d)/float64(s.Total)*float64(track-1)+0.5)))
	}
	head := at(s.Elapsed)
	if s.Untimed && s.Len > 1 {
		head = min(track-1, max(0, (s.Pos-1)*(track-1)/(s.Len-1)))
	}
	for i := range head {
		cells[i] = "━"
	}
	for _, d := range s.Steps {
		if c := at(d); cells[c] != "┃" {
			cells[c] = "·"
		}
	}
	for _, d := range s.Runs {
		cells[at(d)] = "┃"
	}
	cells[head] = "●"
	var b strings.Builder
	b.WriteString(left)
	b.WriteString(styles.Faint)
	for i, c := range cells {
		if i == head {
			b.WriteString(styles.Reset + styles.Bold + c + styles.Reset + styles.Faint)
			continue
		}
		b.WriteString(c)
	}
	b.WriteString(styles.Reset)
	if s.Flash != "" {
		b.WriteString(styles.Attention + right + styles.Reset)
	} else {
		b.WriteString(right)
	}
	return ReplayBarView{Line: render.Pad(b.String(), width), TrackFrom: lw, TrackTo: lw + track}
}

// SpeedText is "1×", "0.25×", "16×".
func SpeedText(s float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.2f", s), "0"), ".") + "×"
}

// clock is m:ss, or h:mm:ss past an hour.
func clock(d time.Duration) string {
	d = max(d, 0).Round(time.Second)
	h, m, sec := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, sec)
	}
	return fmt.Sprintf("%d:%02d", m, sec)
}

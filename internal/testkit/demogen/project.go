package main

import (
	"fmt"
	"strings"
	"time"
)

// The project the demo agent works on: "tempo", a focus timer with a Go
// server and a Kotlin desktop app. Go sources are written here with four
// spaces and indented with tabs by tabbed.

var makefile = tabbed(`.PHONY: test test-go test-app run

test: test-go test-app

test-go:
    gotestsum --format testname ./...

test-app:
    ./gradlew :app:test

run:
    go run ./cmd/tempo-server --addr :8080
`)

const lengthHead = `// Package schedule plans focus sessions: their lengths, order and breaks.
package schedule

import (
    "errors"
    "fmt"
    "strconv"
    "strings"
    "time"
)

// ErrEmpty is returned for a blank length.
var ErrEmpty = errors.New("schedule: empty length")

// ParseLength reads a session length: a Go duration such as "25m" or
// "1h30m", or a bare number of minutes such as "90".
func ParseLength(s string) (time.Duration, error) {
    s = strings.TrimSpace(s)
    if s == "" {
        return 0, ErrEmpty
    }
`

const lengthTail = `
// Total is the planned time of sessions.
func Total(sessions []Session) time.Duration {
    var t time.Duration
    for _, s := range sessions {
        t += s.Length
    }
    return t
}
`

// lengthBuggy is length.go as the developer's last commit left it.
var lengthBuggy = tabbed(lengthHead + `    if n, err := strconv.Atoi(s); err == nil {
        return time.Duration(n) * time.Minute, nil
    }
    h, m, ok := strings.Cut(s, "h")
    if !ok {
        h, m = "0", h
    }
    hours, err := strconv.Atoi(h)
    if err != nil {
        return 0, fmt.Errorf("schedule: bad length %q", s)
    }
    mins := 0
    if m = strings.TrimSuffix(m, "m"); m != "" {
        if mins, err = strconv.Atoi(m); err != nil {
            return 0, fmt.Errorf("schedule: bad length %q", s)
        }
    }
    return time.Duration(hours)*time.Hour + time.Duration(mins)*time.Second, nil
}
` + lengthTail)

// lengthFixed is length.go after the first run's fix.
var lengthFixed = tabbed(lengthHead + `    if n, err := strconv.Atoi(s); err == nil {
        return time.Duration(n) * time.Minute, nil
    }
    d, err := time.ParseDuration(s)
    if err != nil || d <= 0 {
        return 0, fmt.Errorf("schedule: bad length %q", s)
    }
    return d, nil
}
` + lengthTail)

// lengthFinal is length.go after the second run: bare numbers must be positive too.
var lengthFinal = tabbed(lengthHead + `    if n, err := strconv.Atoi(s); err == nil {
        if n <= 0 {
            return 0, fmt.Errorf("schedule: bad length %q", s)
        }
        return time.Duration(n) * time.Minute, nil
    }
    d, err := time.ParseDuration(s)
    if err != nil || d <= 0 {
        return 0, fmt.Errorf("schedule: bad length %q", s)
    }
    return d, nil
}
` + lengthTail)

var lengthOld = tabbed(`//go:build ignore

// The parser before bare minutes were allowed, kept for reference while
// the new one settles. Delete once it has.

package schedule

import (
    "fmt"
    "time"
)

func ParseLength(s string) (time.Duration, error) {
    d, err := time.ParseDuration(s)
    if err != nil {
        return 0, fmt.Errorf("schedule: bad length %q", s)
    }
    return d, nil
}
`)

const lengthTestHead = `package schedule

import (
    "testing"
    "time"
)

func TestParseLength(t *testing.T) {
    tests := []struct {
        name string
        in   string
        want time.Duration
    }{
        {"minutes", "25m", 25 * time.Minute},
        {"hours and minutes", "1h30m", 90 * time.Minute},
        {"bare minutes", "90", 90 * time.Minute},
        {"spaces", " 45m ", 45 * time.Minute},
`

const lengthTestBody = `    }
    for _, tt := range tests {
        t.Run(tt.name, func(t *testing.T) {
            got, err := ParseLength(tt.in)
            if err != nil {
                t.Fatalf("ParseLength(%q): %v", tt.in, err)
            }
            if got != tt.want {
                t.Errorf("ParseLength(%q) = %v, want %v", tt.in, got, tt.want)
            }
        })
    }
}

func TestParseLengthEmpty(t *testing.T) {
    if _, err := ParseLength("  "); err != ErrEmpty {
        t.Fatalf("err = %v, want ErrEmpty", err)
    }
}
`

var lengthTest0 = tabbed(lengthTestHead + lengthTestBody)

// lengthTestMore is the test after the second run added its cases.
var lengthTestMore = tabbed(lengthTestHead + `        {"hours only", "2h", 2 * time.Hour},
        {"plain minutes", "45", 45 * time.Minute},
` + lengthTestBody + `
func TestParseLengthBad(t *testing.T) {
    for _, in := range []string{"0", "-5m", "0m", "abc", "1x"} {
        if d, err := ParseLength(in); err == nil {
            t.Errorf("ParseLength(%q) = %v, want an error", in, d)
        }
    }
}
`)

const lengthFormatTest = `import kotlin.test.Test
import kotlin.test.assertEquals
import tempo.formatLength

// Kept next to Format.kt while the formatter was being written.
class LengthFormatTest {
    @Test fun formatsMinutes() = assertEquals("25 min", formatLength(25 * 60))
    @Test fun formatsHoursAndMinutes() = assertEquals("1 h 30 min", formatLength(90 * 60))
    @Test fun formatsWholeHours() = assertEquals("2 h", formatLength(2 * 3600))
    @Test fun formatsUnderAMinute() = assertEquals("< 1 min", formatLength(25))
}
`

// tabbed turns each leading group of four spaces into a tab.
func tabbed(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		n := 0
		for strings.HasPrefix(l[n*4:], "    ") {
			n++
		}
		ls[i] = strings.Repeat("\t", n) + l[n*4:]
	}
	return strings.Join(ls, "\n")
}

// lineOf is the 1-based number of the first line of text containing s.
func lineOf(text, s string) int {
	i := strings.Index(text, s)
	if i < 0 {
		panic("demogen: " + s + " not in text")
	}
	return strings.Count(text[:i], "\n") + 1
}

// grepLines returns "path:line:text" for each line of text containing s, as rg -n prints.
func grepLines(path, text string, s ...string) string {
	var b strings.Builder
	for i, l := range lines(text) {
		for _, w := range s {
			if strings.Contains(l, w) {
				fmt.Fprintf(&b, "%s:%d:%s\n", path, i+1, l)
				break
			}
		}
	}
	return b.String()
}

// SGR colours, as the tools print them on a terminal.
const (
	reset   = "\x1b[0m"
	bold    = "\x1b[1m"
	red     = "\x1b[31m"
	green   = "\x1b[32m"
	yellow  = "\x1b[33m"
	boldRed = "\x1b[1;31m"
	boldGrn = "\x1b[1;32m"
	boldBlu = "\x1b[1;34m"
	boldCyn = "\x1b[1;36m"
)

var lsOutput = `total 60
drwxr-xr-x  7 dev dev 4096 Nov 28 09:02 ` + boldBlu + `.` + reset + `
drwxr-xr-x 18 dev dev 4096 Nov 27 17:45 ` + boldBlu + `..` + reset + `
drwxr-xr-x  8 dev dev 4096 Nov 28 09:02 ` + boldBlu + `.git` + reset + `
-rw-r--r--  1 dev dev  118 Nov 12 10:03 .gitignore
-rw-r--r--  1 dev dev  231 Nov 20 16:55 Makefile
-rw-r--r--  1 dev dev 1874 Nov 20 16:55 README.md
drwxr-xr-x  3 dev dev 4096 Nov 21 11:30 ` + boldBlu + `app` + reset + `
drwxr-xr-x  3 dev dev 4096 Nov 12 10:03 ` + boldBlu + `cmd` + reset + `
-rw-r--r--  1 dev dev  164 Nov 19 09:41 go.mod
-rw-r--r--  1 dev dev  571 Nov 19 09:41 go.sum
-rwxr-xr-x  1 dev dev 8762 Nov 12 10:03 ` + boldGrn + `gradlew` + reset + `
drwxr-xr-x  5 dev dev 4096 Nov 19 09:41 ` + boldBlu + `internal` + reset + `
-rw-r--r--  1 dev dev   58 Nov 12 10:03 settings.gradle.kts
-rw-r--r--  1 dev dev 4096 Nov 27 18:12 tempo.db
`

var gitLogOutput = yellow + `3f9c2e1` + reset + yellow + ` (` + reset + boldCyn + `HEAD -> ` + reset + boldGrn + `main` + reset + yellow + `, ` + reset + boldRed + `origin/main` + reset + yellow + `)` + reset + ` schedule: accept bare minutes like "90"
` + yellow + `a84d2f0` + reset + ` schedule: keep the old parser in length_old.go while the new one settles
` + yellow + `9b41d07` + reset + ` schedule: Total sums the planned time
` + yellow + `51f0b3a` + reset + ` api: validate lengths on create
` + yellow + `0d7e6c2` + reset + ` schedule: first version
`

// goTest is one test (or package, when name is "") in gotestsum's output.
type goTest struct {
	pkg, name string
	ok        bool
	secs      float64
	failure   string // the failure message, for a failing test
}

// gotestsum renders what `gotestsum --format testname` prints for tests,
// in its colours, with the summary of failures and the DONE line.
func gotestsum(tests []goTest, elapsed time.Duration) string {
	var b strings.Builder
	n, failed := 0, 0
	for _, t := range tests {
		mark := green + "PASS" + reset
		if !t.ok {
			mark = red + "FAIL" + reset
		}
		if t.name == "" {
			if t.secs < 0 {
				mark = yellow + "EMPTY" + reset
			}
			fmt.Fprintf(&b, "%s %s\n", mark, t.pkg)
			continue
		}
		n++
		if !t.ok {
			failed++
		}
		fmt.Fprintf(&b, "%s %s.%s (%.2fs)\n", mark, t.pkg, t.name, t.secs)
	}
	if failed > 0 {
		b.WriteString("\n" + boldRed + "=== Failed" + reset + "\n")
		for _, t := range tests {
			if t.ok || t.name == "" {
				continue
			}
			fmt.Fprintf(&b, "%s=== FAIL: %s %s (%.2fs)%s\n", red, t.pkg, t.name, t.secs, reset)
			if t.failure != "" {
				b.WriteString(t.failure + "\n")
			}
			b.WriteString("\n")
		}
	} else {
		b.WriteString("\n")
	}
	secs := fmt.Sprintf("%.3fs", elapsed.Seconds())
	if failed > 0 {
		fmt.Fprintf(&b, "DONE %d tests, %s%d failure%s%s in %s\n", n, red, failed, plural(failed), reset, secs)
	} else {
		fmt.Fprintf(&b, "DONE %d tests in %s\n", n, secs)
	}
	return b.String()
}

// paint colours s, or returns "" for an empty s.
func paint(sgr, s string) string {
	if s == "" {
		return ""
	}
	return sgr + s + reset
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Tests outside internal/schedule always pass; gotestsum lists packages
// in order, so some come before internal/schedule and some after.
var (
	testsBefore = []goTest{
		{pkg: "cmd/tempo-server", name: "TestParseFlags", ok: true},
		{pkg: "cmd/tempo-server", ok: true},
		{pkg: "internal/api", name: "TestListSessions", ok: true, secs: 0.01},
		{pkg: "internal/api", name: "TestCreateSession", ok: true, secs: 0.01},
		{pkg: "internal/api", name: "TestCreateSessionBadLength", ok: true},
		{pkg: "internal/api", ok: true},
	}
	testsAfter = []goTest{
		{pkg: "internal/store", name: "TestSaveLoad", ok: true, secs: 0.02},
		{pkg: "internal/store", name: "TestMigrate", ok: true, secs: 0.03},
		{pkg: "internal/store", ok: true},
		{pkg: "internal/version", ok: true, secs: -1}, // no test files: EMPTY
	}
)

// scheduleTests are internal/schedule's tests: with the bug (stage 0), after
// the first fix (1), with the second run's new cases before (2) and after (3)
// the second fix.
func scheduleTests(stage int) []goTest {
	const pkg = "internal/schedule"
	errLine := lineOf(lengthTest0, "t.Errorf(")
	wrong := func(in string, got, want time.Duration) string {
		return fmt.Sprintf("    length_test.go:%d: ParseLength(%q) = %v, want %v", errLine, in, got, want)
	}
	bug := stage == 0
	ts := []goTest{
		{pkg: pkg, name: "TestParseLength/minutes", ok: !bug, failure: wrong("25m", 25*time.Second, 25*time.Minute)},
		{pkg: pkg, name: "TestParseLength/hours_and_minutes", ok: !bug, failure: wrong("1h30m", time.Hour+30*time.Second, 90*time.Minute)},
		{pkg: pkg, name: "TestParseLength/bare_minutes", ok: true},
		{pkg: pkg, name: "TestParseLength/spaces", ok: !bug, failure: wrong(" 45m ", 45*time.Second, 45*time.Minute)},
	}
	if stage >= 2 {
		ts = append(ts, goTest{pkg: pkg, name: "TestParseLength/hours_only", ok: true},
			goTest{pkg: pkg, name: "TestParseLength/plain_minutes", ok: true})
	}
	ts = append(ts, goTest{pkg: pkg, name: "TestParseLength", ok: !bug},
		goTest{pkg: pkg, name: "TestParseLengthEmpty", ok: true})
	if stage >= 2 {
		badLine := lineOf(lengthTestMore, `t.Errorf("ParseLength(%q) = %v, want an error"`)
		ts = append(ts, goTest{pkg: pkg, name: "TestParseLengthBad", ok: stage == 3,
			failure: fmt.Sprintf("    length_test.go:%d: ParseLength(%q) = %v, want an error", badLine, "0", time.Duration(0))})
	}
	ts = append(ts, goTest{pkg: pkg, name: "TestTotal", ok: true},
		goTest{pkg: pkg, ok: stage != 0 && stage != 2})
	return ts
}

// allTests is the whole module's test list at a stage (see scheduleTests).
func allTests(stage int) []goTest {
	ts := append([]goTest{}, testsBefore...)
	ts = append(ts, scheduleTests(stage)...)
	return append(ts, testsAfter...)
}

// testsDone counts the tests (not packages) in ts.
func testsDone(ts []goTest) int {
	n := 0
	for _, t := range ts {
		if t.name != "" {
			n++
		}
	}
	return n
}

func gradleTask(name, outcome string) string {
	if outcome != "" {
		outcome = " " + outcome
	}
	return bold + "> Task " + name + reset + outcome + "\n"
}

// gradleNoSource is `./gradlew :app:test` while the only test sits in src/main.
func gradleNoSource(elapsed time.Duration) string {
	return gradleTask(":app:checkKotlinGradlePluginConfigurationErrors", "SKIPPED") +
		gradleTask(":app:compileKotlin", "UP-TO-DATE") +
		gradleTask(":app:compileJava", "NO-SOURCE") +
		gradleTask(":app:classes", "UP-TO-DATE") +
		gradleTask(":app:compileTestKotlin", "NO-SOURCE") +
		gradleTask(":app:compileTestJava", "NO-SOURCE") +
		gradleTask(":app:testClasses", "UP-TO-DATE") +
		gradleTask(":app:test", "NO-SOURCE") +
		"\n" + boldGrn + "BUILD SUCCESSFUL" + reset + fmt.Sprintf(" in %ds\n", int(elapsed.Seconds())) +
		"1 actionable task: 1 up-to-date\n"
}

// gradleTests is `./gradlew :app:test` once the Kotlin test is in src/test.
func gradleTests(elapsed time.Duration) string {
	var b strings.Builder
	b.WriteString(gradleTask(":app:checkKotlinGradlePluginConfigurationErrors", "SKIPPED"))
	b.WriteString(gradleTask(":app:compileKotlin", "UP-TO-DATE"))
	b.WriteString(gradleTask(":app:compileJava", "NO-SOURCE"))
	b.WriteString(gradleTask(":app:classes", "UP-TO-DATE"))
	b.WriteString(gradleTask(":app:compileTestKotlin", ""))
	b.WriteString(gradleTask(":app:compileTestJava", "NO-SOURCE"))
	b.WriteString(gradleTask(":app:testClasses", ""))
	b.WriteString(gradleTask(":app:test", ""))
	b.WriteString("\n")
	for _, l := range lines(lengthFormatTest) {
		_, rest, ok := strings.Cut(l, "@Test fun ")
		if !ok {
			continue
		}
		name, _, _ := strings.Cut(rest, " ")
		fmt.Fprintf(&b, "LengthFormatTest > %s %sPASSED%s\n", name, green, reset)
	}
	fmt.Fprintf(&b, "\n%sBUILD SUCCESSFUL%s in %ds\n4 actionable tasks: 3 executed, 1 up-to-date\n", boldGrn, reset, int(elapsed.Seconds()))
	return b.String()
}

// diffStat is `git diff --stat` in colour for files with their added and removed lines.
func diffStat(files []string, added, removed []int) string {
	width := 0
	for _, f := range files {
		width = max(width, len(f))
	}
	var b strings.Builder
	ta, tr := 0, 0
	for i, f := range files {
		ta += added[i]
		tr += removed[i]
		fmt.Fprintf(&b, " %-*s | %2d %s%s\n", width, f, added[i]+removed[i],
			paint(green, strings.Repeat("+", added[i])), paint(red, strings.Repeat("-", removed[i])))
	}
	fmt.Fprintf(&b, " %d files changed, %d insertion%s(+), %d deletion%s(-)\n", len(files), ta, plural(ta), tr, plural(tr))
	return b.String()
}

const docsText = `time package - time - Go Packages
https://pkg.go.dev/time#ParseDuration

func ParseDuration(s string) (Duration, error)

ParseDuration parses a duration string. A duration string is a possibly signed sequence of decimal numbers, each with optional fraction and a unit suffix, such as "300ms", "-1.5h" or "2h45m". Valid time units are "ns", "us" (or "µs"), "ms", "s", "m", "h".

Example

	hours, _ := time.ParseDuration("10h")
	complex, _ := time.ParseDuration("1h10m10s")
	micro, _ := time.ParseDuration("1µs")
	fmt.Println(hours, complex, micro)
	// Output: 10h0m0s 1h10m10s 1µs`

const dashboardText = `Tempo — Today
http://localhost:8080/

Focus       25 min
Deep work   1 h 30 min
Review      45 min

This week: 11 h 40 min focused`

package acptest

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// AgentPackage is the import path of the fixture-agent command.
const AgentPackage = "github.com/agentwatch/agentwatch/internal/testkit/acptest/cmd/fixture-agent"

var build struct {
	once sync.Once
	path string
	err  error
}

// Build compiles the fixture-agent binary once per test binary and returns
// its path, failing t if it cannot. Start it with exec.Command(path) and
// speak ACP over its stdin and stdout; set ACPTEST_* variables in cmd.Env
// to change its behaviour.
//
// The binary goes to a directory under the user cache directory named after
// this module's go.mod, not t.TempDir: the path must outlive the first test
// that asks for it, and a fixed path per checkout means repeated runs reuse
// one file instead of leaking one per run. It is built under a temporary
// name and renamed into place, so test binaries of several packages
// building at once each see a complete file.
func Build(t testing.TB) string {
	t.Helper()
	build.once.Do(func() { build.path, build.err = buildAgent() })
	if build.err != nil {
		t.Fatalf("build fixture agent: %v", build.err)
	}
	return build.path
}

func buildAgent() (string, error) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		return "", fmt.Errorf("find the go command: %w", err)
	}
	gomod, err := exec.Command(gobin, "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	sum := sha256.Sum256([]byte(strings.TrimSpace(string(gomod))))
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	dir := filepath.Join(base, "agentwatch-acptest", hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	final := filepath.Join(dir, "fixture-agent")
	tmp := final + ".tmp-" + strconv.Itoa(os.Getpid())
	out, err := exec.Command(gobin, "build", "-o", tmp, AgentPackage).CombinedOutput()
	if err != nil {
		os.Remove(tmp)
		return "", fmt.Errorf("go build %s: %w\n%s", AgentPackage, err, out)
	}
	if err := os.Rename(tmp, final); err != nil {
		os.Remove(tmp)
		return "", err
	}
	return final, nil
}

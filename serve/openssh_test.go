package serve

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// openSSH runs the OpenSSH client against ts with a key the allowlist
// holds and args after the host, and returns what it said and its exit
// status. The test is skipped where there is no ssh.
func openSSH(t *testing.T, ts *testServer, opts []string, args ...string) (string, int) {
	t.Helper()
	ssh, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("no OpenSSH client (apt-get install openssh-client)")
	}
	pub, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := gossh.MarshalPrivateKey(key, "")
	if err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(t.TempDir(), "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(block), 0o600); err != nil {
		t.Fatal(err)
	}
	sshPub, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := os.OpenFile(filepath.Join(ts.dir, "authorized_keys"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	keys.Write(gossh.MarshalAuthorizedKey(sshPub))
	keys.Close()
	_, port, _ := net.SplitHostPort(ts.Addr().String())
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	all := append([]string{"-p", port, "-i", keyFile, "-F", "/dev/null", "-o", "StrictHostKeyChecking=no",
		"-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
		"-o", "LogLevel=ERROR"}, opts...)
	all = append(all, append([]string{"127.0.0.1"}, args...)...)
	out, err := exec.CommandContext(ctx, ssh, all...).CombinedOutput()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// ssh -tt with a command asks for a terminal and the command at once,
// before either is answered: the terminal is granted and the command
// refused, each answer to its own request.
func TestOpenSSHCommandRefused(t *testing.T) {
	ts := startServer(t, nil, ShowOptions{}, Config{})
	start := time.Now()
	out, code := openSSH(t, ts, []string{"-tt"}, "cat", "/etc/passwd")
	if code != 255 || !strings.Contains(out, "exec request failed") || strings.Contains(out, "PTY allocation request failed") {
		t.Errorf("ssh -tt with a command ended with %d after %s, saying:\n%s", code, time.Since(start), out)
	}
	if strings.Contains(out, "root:") {
		t.Fatalf("the command ran:\n%s", out)
	}
}

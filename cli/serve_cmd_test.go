package cli

import (
	"crypto/ed25519"
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// serve refuses to start, with exit 2 and the reason, when nobody could
// log in (before it makes a host key or opens a source) or when what it
// should serve cannot be served.
func TestServeRefusesToStart(t *testing.T) {
	dir := t.TempDir()
	hostKey := filepath.Join(dir, "host_key")
	empty := filepath.Join(dir, "empty_keys")
	os.WriteFile(empty, []byte("# nobody yet\n"), 0o600)
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	key, err := gossh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	listed := filepath.Join(dir, "authorized_keys")
	os.WriteFile(listed, gossh.MarshalAuthorizedKey(key), 0o600)
	for i, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--authorized-keys", filepath.Join(dir, "missing")}, "no such file"},
		{[]string{"--authorized-keys", empty}, "no key lets anyone in"},
		{[]string{"--authorized-keys", listed, "--play", "a.jsonl", "b.jsonl"}, "--play plays one log"},
		{[]string{"--authorized-keys", listed, "--layout", "diagonal"}, "--layout"},
	} {
		args := append([]string{"serve", "--listen", "127.0.0.1:0", "--host-key", hostKey}, c.args...)
		code, _, errOut := runCLI(t, nil, args...)
		if code != exitUnreadable || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, err %q; want exit 2 saying %q", strings.Join(c.args, " "), code, errOut, c.want)
		}
		if _, err := os.Stat(hostKey); i < 2 && err == nil {
			t.Errorf("%s: a host key was made by a server nobody could log in to", strings.Join(c.args, " "))
		}
	}
}

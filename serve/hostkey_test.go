package serve

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	gossh "golang.org/x/crypto/ssh"
)

// The host key is made once, mode 0600 in a folder of its own, and is
// the same key at the next start.
func TestHostKeyKeptAcrossStarts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agentwatch", "ssh_host_ed25519_key")
	first, created, err := HostKey(path)
	if err != nil || !created {
		t.Fatalf("first start: created %v, %v", created, err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("host key mode %v, want 0600", st.Mode().Perm())
	}
	if dir, _ := os.Stat(filepath.Dir(path)); dir.Mode().Perm() != 0o700 {
		t.Errorf("host key folder mode %v, want 0700", dir.Mode().Perm())
	}
	again, created, err := HostKey(path)
	if err != nil || created {
		t.Fatalf("second start: created %v, %v", created, err)
	}
	if !bytes.Equal(first.PublicKey().Marshal(), again.PublicKey().Marshal()) {
		t.Error("the host key changed between starts")
	}
}

// A host key file that is not a key is an error, never replaced.
func TestHostKeyNotAKey(t *testing.T) {
	path := filepath.Join(t.TempDir(), "key")
	os.WriteFile(path, []byte("not a key"), 0o600)
	if _, _, err := HostKey(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("err = %v, want one naming %s", err, path)
	}
	if b, _ := os.ReadFile(path); string(b) != "not a key" {
		t.Error("the file was replaced")
	}
}

// Keys with options are not let in; a file with no usable key, or with
// a line that is not a key, is refused at start with the reason.
func TestAuthorizedKeys(t *testing.T) {
	dir := t.TempDir()
	plain, limited := newSigner(t), newSigner(t)
	line := func(s gossh.Signer) string { return string(gossh.MarshalAuthorizedKey(s.PublicKey())) }
	path := filepath.Join(dir, "authorized_keys")
	os.WriteFile(path, []byte("# team\n\n"+line(plain)+`command="backup" `+line(limited)), 0o600)
	keys, withOptions, err := LoadKeys(path)
	if err != nil {
		t.Fatal(err)
	}
	if withOptions != 1 {
		t.Errorf("%d keys with options, want 1", withOptions)
	}
	for _, c := range []struct {
		key  gossh.Signer
		want bool
	}{{plain, true}, {limited, false}, {newSigner(t), false}} {
		if ok, err := keys.Allows(c.key.PublicKey()); ok != c.want || err != nil {
			t.Errorf("Allows = %v, %v; want %v", ok, err, c.want)
		}
	}
	// Edits count from the next login on.
	os.WriteFile(path, []byte(line(limited)), 0o600)
	if ok, _ := keys.Allows(plain.PublicKey()); ok {
		t.Error("a key removed from the file is still let in")
	}

	for name, content := range map[string]string{
		"only options": `from="10.0.0.1" ` + line(plain),
		"empty":        "# nobody yet\n",
		"garbage":      line(plain) + "ssh-ed25519 AAAAnot-base64\n",
	} {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
		os.WriteFile(p, []byte(content), 0o600)
		if _, _, err := LoadKeys(p); err == nil {
			t.Errorf("%s: LoadKeys accepted it", name)
		}
	}
	if _, _, err := LoadKeys(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
}

package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// DefaultHostKey is where the host key is kept when --host-key does not
// say: agentwatch's folder in the user's configuration directory, so the
// server is the same machine to its viewers' known_hosts across restarts.
func DefaultHostKey() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no configuration directory for the host key (%w): name one with --host-key FILE", err)
	}
	return filepath.Join(dir, "agentwatch", "ssh_host_ed25519_key"), nil
}

// HostKey reads the server's private key from path, or makes a new
// ed25519 key there when there is none (the folder 0700, the file 0600,
// never replacing a file that appeared meanwhile). created says which. A
// key others could read, or one in a folder others could write, is
// refused (checkHostKey), as sshd refuses it.
func HostKey(path string) (signer gossh.Signer, created bool, err error) {
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := checkHostKey(path); err != nil {
			return nil, false, err
		}
		s, err := gossh.ParsePrivateKey(b)
		if err != nil {
			return nil, false, fmt.Errorf("host key %s: %w", path, err)
		}
		return s, false, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	block, err := gossh.MarshalPrivateKey(key, "agentwatch serve host key")
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	if err := checkFolderOf(filepath.Dir(path), "--host-key", path); err != nil {
		return nil, false, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	if _, err := f.Write(pem.EncodeToMemory(block)); err != nil {
		f.Close()
		os.Remove(path)
		return nil, false, fmt.Errorf("host key %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, false, fmt.Errorf("host key %s: %w", path, err)
	}
	s, err := gossh.NewSignerFromKey(key)
	if err != nil {
		return nil, false, fmt.Errorf("host key: %w", err)
	}
	return s, true, nil
}

package serve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"
)

// DefaultAuthorizedKeys is the allowlist used when --authorized-keys does
// not name one: the user's own ~/.ssh/authorized_keys.
func DefaultAuthorizedKeys() (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory for ~/.ssh/authorized_keys (%w): name the file with --authorized-keys FILE", err)
	}
	return filepath.Join(home, ".ssh", "authorized_keys"), nil
}

// Keys is the allowlist of viewers: the public keys of an OpenSSH
// authorized_keys file. The file is read again at every login, so a key
// added or removed counts from the next login on.
//
// A line with options (command="…", from="…", restrict, …) does not let
// its key in: serve honours none of them, and a key limited to one
// command elsewhere must not get a screen here.
type Keys struct {
	path string
}

// keyList is what an authorized_keys file allows, and how many of its
// keys were left out for their options.
type keyList struct {
	keys       []gossh.PublicKey
	withOption int
}

// LoadKeys checks that path is an authorized_keys file that lets at least
// one key in, and returns the allowlist it is. withOptions counts the
// keys left out for their options.
func LoadKeys(path string) (k *Keys, withOptions int, err error) {
	list, err := readKeys(path)
	if err != nil {
		return nil, 0, err
	}
	if len(list.keys) == 0 {
		why := ""
		if list.withOption > 0 {
			why = fmt.Sprintf(" (%d have options, which serve does not honour; list viewers' keys without options)", list.withOption)
		}
		return nil, 0, fmt.Errorf("--authorized-keys %s: no key lets anyone in%s", path, why)
	}
	return &Keys{path: path}, list.withOption, nil
}

// Path is the allowlist's file.
func (k *Keys) Path() string { return k.path }

// Allows reports whether key is one of the file's keys now.
func (k *Keys) Allows(key gossh.PublicKey) (bool, error) {
	list, err := readKeys(k.path)
	if err != nil {
		return false, err
	}
	want := key.Marshal()
	for _, x := range list.keys {
		if bytes.Equal(x.Marshal(), want) {
			return true, nil
		}
	}
	return false, nil
}

// readKeys parses an authorized_keys file. A line that is not a key is
// an error naming its line number: a file half understood is not
// guessed at; so is a file others could have written (checkAllowlist),
// at the start and at every login.
func readKeys(path string) (keyList, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return keyList{}, fmt.Errorf("--authorized-keys %s: no such file; list the viewers' public keys there (one per line, as in ~/.ssh/authorized_keys)", path)
		}
		return keyList{}, fmt.Errorf("--authorized-keys: %w", err)
	}
	if err := checkAllowlist(path); err != nil {
		return keyList{}, err
	}
	var list keyList
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		key, _, options, _, err := gossh.ParseAuthorizedKey(line)
		if err != nil {
			return keyList{}, fmt.Errorf("--authorized-keys %s:%d: not a public key: %w", path, n, err)
		}
		if len(options) > 0 {
			list.withOption++
			continue
		}
		list.keys = append(list.keys, key)
	}
	if err := sc.Err(); err != nil {
		return keyList{}, fmt.Errorf("--authorized-keys %s: %w", path, err)
	}
	return list, nil
}

package acpconn

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFolderConfines(t *testing.T) {
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	os.WriteFile(secret, []byte("no"), 0o644)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\nfour\n"), 0o644)
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	os.Symlink(secret, filepath.Join(dir, "link-out"))
	os.Symlink(outside, filepath.Join(dir, "dir-out"))
	os.Symlink(filepath.Join(dir, "a.txt"), filepath.Join(dir, "link-in"))
	f, err := NewFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	root := f.Root()
	for _, p := range []string{
		root + "/../" + filepath.Base(outside) + "/secret.txt",
		root + "/sub/../../x",
		"/etc/passwd",
		"../x",
		"a.txt",
		root + "/link-out",
		root + "/dir-out/secret.txt",
		root + "/dir-out/new.txt",
		"",
	} {
		if _, err := f.Read(p, 0, 0); err == nil {
			t.Errorf("Read(%q) allowed", p)
		}
		if err := f.Write(p, "x"); err == nil {
			t.Errorf("Write(%q) allowed", p)
		}
	}
	if _, err := f.Read("/etc/passwd", 0, 0); !errors.Is(err, ErrOutside) {
		t.Errorf("/etc/passwd: %v, want ErrOutside", err)
	}
	if b, _ := os.ReadFile(secret); string(b) != "no" {
		t.Fatal("a write went through a symlink out of the folder")
	}
	got, err := f.Read(root+"/a.txt", 2, 2)
	if err != nil || got != "two\nthree\n" {
		t.Errorf("Read line 2 limit 2 = %q, %v", got, err)
	}
	if got, _ := f.Read(root+"/link-in", 4, 0); got != "four\n" {
		t.Errorf("Read through a symlink inside = %q", got)
	}
	if got, _ := f.Read(root+"/a.txt", 9, 0); got != "" {
		t.Errorf("Read past the end = %q", got)
	}
	if err := f.Write(root+"/sub/new.txt", "hello"); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.Read(root+"/sub/new.txt", 0, 0); got != "hello" {
		t.Errorf("written file reads %q", got)
	}
	if err := f.Write(root+"/nodir/new.txt", "x"); err == nil {
		t.Error("Write into a missing folder allowed")
	}
}

package regfile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	want := bytes.Repeat([]byte("0123456789"), 10000)
	if err := os.WriteFile(p, want, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadFile(p)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("ReadFile: %d bytes, %v; want %d bytes", len(got), err, len(want))
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(p, link); err == nil {
		if got, err := ReadFile(link); err != nil || !bytes.Equal(got, want) {
			t.Errorf("ReadFile through a symlink: %d bytes, %v", len(got), err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadFile(filepath.Join(dir, "empty")); err != nil || len(got) != 0 {
		t.Errorf("empty file: %q, %v", got, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v, want ErrNotExist", err)
	}
	if _, err := ReadFile(dir); !errors.Is(err, ErrNotRegular) {
		t.Errorf("directory: %v, want ErrNotRegular", err)
	}
}

// TestSpecialFilesDoNotBlock: a FIFO with no writer (where os.ReadFile
// waits for ever) and a device are refused at once.
func TestSpecialFilesDoNotBlock(t *testing.T) {
	paths := map[string]string{}
	if p := filepath.Join(t.TempDir(), "fifo"); mkfifo(p) == nil {
		paths["FIFO"] = p
	}
	if _, err := os.Stat(os.DevNull); err == nil {
		paths["device"] = os.DevNull
	}
	if len(paths) == 0 {
		t.Skip("no FIFO or device here")
	}
	for name, p := range paths {
		done := make(chan error, 1)
		go func() {
			_, err := ReadFile(p)
			if _, merr := MapFile(p); !errors.Is(merr, ErrNotRegular) {
				err = fmt.Errorf("MapFile: %v", merr)
			}
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: %v, want ErrNotRegular", name, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: ReadFile blocked", name)
		}
	}
}

// TestMapFile: MapFile gives a file's bytes, whatever its size (empty, one
// byte, a page, more than one), and they stay the same after the file is
// replaced by a rename, as git and git-memcite replace theirs.
func TestMapFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 4096, 100_000} {
		p := filepath.Join(dir, fmt.Sprint(n))
		want := bytes.Repeat([]byte{'x'}, n)
		for i := range want {
			want[i] = byte(i * 7)
		}
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := MapFile(p)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d bytes: %d, %v", n, len(got), err)
		}
		if err := os.WriteFile(p+".new", []byte("other"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(p+".new", p); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%d bytes: changed by a rename over the file", n)
		}
	}
	if _, err := MapFile(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadAll: a file reads whole whatever its size.
func TestReadAll(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 1, 511, 512, 4096, 100_003} {
		want := bytes.Repeat([]byte("abcdefghij"), n/10+1)[:n]
		p := filepath.Join(dir, fmt.Sprint(n))
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := ReadAll(f)
		f.Close()
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%d bytes: read %d, %v", n, len(got), err)
		}
	}
}

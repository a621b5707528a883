package gitrepo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/testing/gitfixture"
)

// TestMain lets the test binary act as another git-memcite holding the
// lock (TestLockDiesWithItsProcess).
func TestMain(m *testing.M) {
	if dir := os.Getenv("MEMCITE_TEST_HOLD_LOCK"); dir != "" {
		r := &Repo{Top: dir, GitDir: dir, CommonDir: dir}
		if _, err := r.Lock(context.Background(), 5*time.Second); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println("locked")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	code := gitfixture.Main(m) // no sample hooks in the repositories the tests create
	for _, f := range afterTests {
		f()
	}
	os.Exit(code)
}

// afterTests run when every test ran (removing shared fixtures).
var afterTests []func()

// TestLockDiesWithItsProcess: another process holds the lock (its pid is
// in the error); once it is killed, without releasing, the lock is free at
// once.
func TestLockDiesWithItsProcess(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := &Repo{Top: dir, GitDir: dir, CommonDir: dir}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "MEMCITE_TEST_HOLD_LOCK="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("holder: %q, %v", line, err)
	}
	_, err = r.Lock(context.Background(), 50*time.Millisecond)
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), fmt.Sprintf("(pid %d)", cmd.Process.Pid)) {
		t.Fatalf("err = %v, want ErrLocked naming pid %d", err, cmd.Process.Pid)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	if _, err := os.Stat(r.LockPath()); err != nil {
		t.Fatalf("the killed holder's lock file should still be there: %v", err)
	}
	unlock, err := r.Lock(context.Background(), 0)
	if err != nil {
		t.Fatalf("lock of a killed process not free: %v", err)
	}
	unlock()
	if _, err := os.Stat(r.LockPath()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("release left the lock file: %v", err)
	}
}

func TestLockSerialises(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := &Repo{Top: dir, GitDir: dir, CommonDir: dir}
	var mu sync.Mutex
	inside, maxInside := 0, 0
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unlock, err := r.Lock(context.Background(), 10*time.Second)
			if err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			inside++
			maxInside = max(maxInside, inside)
			mu.Unlock()
			time.Sleep(5 * time.Millisecond)
			mu.Lock()
			inside--
			mu.Unlock()
			unlock()
		}()
	}
	wg.Wait()
	if maxInside != 1 {
		t.Fatalf("%d holders at once", maxInside)
	}
}

func TestLockTimeoutAndStale(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := &Repo{Top: dir, GitDir: dir, CommonDir: dir}
	unlock, err := r.Lock(context.Background(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Lock(context.Background(), 50*time.Millisecond); !errors.Is(err, ErrLocked) {
		t.Fatalf("err = %v, want ErrLocked", err)
	}
	unlock()
	// a lock file left behind (by a process that is gone) is no lock
	if err := os.WriteFile(r.LockPath(), []byte("999999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unlock, err = r.Lock(context.Background(), 50*time.Millisecond)
	if err != nil {
		t.Fatalf("a left-over lock file blocks: %v", err)
	}
	unlock()
}

// TestLockRefusesALink: a symlink planted at the lock path is neither
// followed nor taken as the lock.
func TestLockRefusesALink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := &Repo{Top: dir, GitDir: dir, CommonDir: dir}
	target := filepath.Join(dir, "elsewhere")
	if err := os.Symlink(target, r.LockPath()); err != nil {
		t.Skipf("no symlinks here: %v", err)
	}
	unlock, err := r.Lock(context.Background(), 0)
	if err == nil {
		unlock()
		t.Fatal("locked through a symlink")
	}
	if !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("err = %v", err)
	}
	if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the link's target was created: %v", err)
	}
}

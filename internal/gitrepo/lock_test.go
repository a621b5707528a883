package gitrepo

import (
	"context"
	"errors"
	"os"
	"sync"
	"testing"
	"time"
)

func TestLockSerialises(t *testing.T) {
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
	// a lock left by a process that is gone is taken over
	if err := os.WriteFile(r.LockPath(), []byte("999999999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	unlock, err = r.Lock(context.Background(), 50*time.Millisecond)
	if err != nil {
		t.Fatalf("stale lock not taken over: %v", err)
	}
	unlock()
}

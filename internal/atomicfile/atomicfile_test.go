package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func TestReplace(t *testing.T) {
	dir := t.TempDir()
	dst := filepath.Join(dir, "notes.md")
	src := filepath.Join(dir, ".notes.md.tmp")
	for _, p := range []struct{ name, content string }{{dst, "old\n"}, {src, "new\n"}} {
		if err := os.WriteFile(p.name, []byte(p.content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Replace(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(dst); err != nil || string(b) != "new\n" {
		t.Fatalf("dst = %q, %v", b, err)
	}
	if _, err := os.Lstat(src); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("src still there: %v", err)
	}
	// a missing source is an error naming both files, returned at once
	start := time.Now()
	err := Replace(src, dst)
	var le *os.LinkError
	if !errors.As(err, &le) || le.Old != src || le.New != dst {
		t.Fatalf("err = %v, want a LinkError naming both", err)
	}
	if time.Since(start) > time.Second {
		t.Errorf("a missing source was retried")
	}
}

// TestRetry runs the retry loop Windows uses with a move that fails with
// Windows' sharing errors.
func TestRetry(t *testing.T) {
	sharing := &os.LinkError{Op: "rename", Old: "a", New: "b", Err: errorSharingViolation}
	other := &os.LinkError{Op: "rename", Old: "a", New: "b", Err: syscall.Errno(2)} // ERROR_FILE_NOT_FOUND
	tests := []struct {
		name      string
		fails     int   // how many calls fail before one succeeds
		err       error // the error they fail with
		wantCalls int
		wantErr   error
		minSlept  time.Duration
	}{
		{"at once", 0, nil, 1, nil, 0},
		{"after three sharing violations", 3, sharing, 4, nil, 0},
		{"access denied, then free", 1, &os.LinkError{Err: errorAccessDenied}, 2, nil, 0},
		{"lock violation, then free", 2, errorLockViolation, 3, nil, 0},
		{"a lasting sharing violation", 100, sharing, 9, sharing, 2 * time.Second},
		{"not transient", 100, other, 1, other, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			var slept time.Duration
			err := retry(func() error {
				calls++
				if calls <= tt.fails {
					return tt.err
				}
				return nil
			}, windowsTransient, delays, func(d time.Duration) { slept += d })
			if calls != tt.wantCalls || !errors.Is(err, tt.wantErr) {
				t.Fatalf("%d calls, err %v; want %d, %v", calls, err, tt.wantCalls, tt.wantErr)
			}
			if slept < tt.minSlept {
				t.Errorf("gave up after %v, want at least %v", slept, tt.minSlept)
			}
		})
	}
}

func TestCrossDevice(t *testing.T) {
	if !CrossDevice(&os.LinkError{Op: "rename", Old: "a", New: "b", Err: crossDeviceErrno}) {
		t.Error("this platform's cross-device error not recognised")
	}
	if CrossDevice(&os.LinkError{Op: "rename", Old: "a", New: "b", Err: os.ErrNotExist}) {
		t.Error("ErrNotExist taken for a cross-device error")
	}
	if !windowsCrossDevice(&os.LinkError{Err: errorNotSameDevice}) || windowsCrossDevice(&os.LinkError{Err: errorSharingViolation}) {
		t.Error("windowsCrossDevice")
	}
}

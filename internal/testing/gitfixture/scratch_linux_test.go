package gitfixture

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestSweep removes the scratch directory of a process that is gone and
// nothing else.
func TestSweep(t *testing.T) {
	done := exec.Command("true")
	if err := done.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	base := t.TempDir()
	dead := fmt.Sprintf("%s%d-1", scratchPrefix, done.Process.Pid)
	keep := []string{
		fmt.Sprintf("%s%d-2", scratchPrefix, os.Getpid()),  // this process
		fmt.Sprintf("%s%d-3", scratchPrefix, os.Getppid()), // a live one
		scratchPrefix + "123456789",                        // no process named
		"other-1-2",
	}
	for _, d := range append([]string{dead}, keep...) {
		if err := os.MkdirAll(filepath.Join(base, d, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sweep(base)
	if _, err := os.Stat(filepath.Join(base, dead)); !os.IsNotExist(err) {
		t.Errorf("%s (its process is gone) is still there: %v", dead, err)
	}
	for _, d := range keep {
		if _, err := os.Stat(filepath.Join(base, d)); err != nil {
			t.Errorf("%s was removed: %v", d, err)
		}
	}
}

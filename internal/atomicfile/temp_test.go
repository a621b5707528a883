package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveTemps: the temporary files not yet moved into place are
// removed; the ones Replace moved stay where they went.
func TestRemoveTemps(t *testing.T) {
	dir := t.TempDir()
	done, err := CreateTemp(dir, "done-*")
	if err != nil {
		t.Fatal(err)
	}
	done.Close()
	dst := filepath.Join(dir, "dst")
	if err := Replace(done.Name(), dst); err != nil {
		t.Fatal(err)
	}
	halfway, err := CreateTemp(dir, "halfway-*")
	if err != nil {
		t.Fatal(err)
	}
	defer halfway.Close()
	RemoveTemps()
	if _, err := os.Stat(halfway.Name()); !os.IsNotExist(err) {
		t.Errorf("temporary file not moved into place is still there: %v", err)
	}
	if _, err := os.Stat(dst); err != nil {
		t.Errorf("the file moved into place: %v", err)
	}
}

package vcache

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

func sampleRun(k byte) *Run {
	r := &Run{Stdout: []byte("[PASS] a: VALID\nSummary: (working tree, 8888888888.8ms)\n"), Stderr: []byte("warning\n"), Outcome: 2}
	r.Key[0] = k
	r.Answers = []RunAnswer{
		{Op: 'I', Arg: "src/a.go", Digest: [16]byte{1}},
		{Op: 'R', Arg: "src/a.go", Digest: [16]byte{2}},
		{Op: 'M', Arg: "stamp\x00bytes", Digest: [16]byte{3}},
		{Op: 'C', Arg: "", Digest: [16]byte{4}},
	}
	return r
}

// TestRunRoundTrip: a run written is read back whole, for its build and
// key only; a damaged file is no run.
func TestRunRoundTrip(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	r := sampleRun(7)
	if err := WriteRun(dir, tmp, "tool", r); err != nil {
		t.Fatal(err)
	}
	got := ReadRun(dir, "tool", r.Key)
	if got == nil {
		t.Fatal("the run written is not read back")
	}
	if !reflect.DeepEqual(got, r) {
		t.Errorf("read %+v, want %+v", got, r)
	}
	if ReadRun(dir, "another build", r.Key) != nil {
		t.Error("a run another build wrote is used")
	}
	var other [32]byte
	if ReadRun(dir, "tool", other) != nil {
		t.Error("a run is found under another key")
	}
	// a file not closed by its writer, or damaged, is no run
	p := filepath.Join(runDir(dir), filepath.Base(runFileName(r.Key)))
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range [][]byte{data[:len(data)-1], append(bytes.Clone(data[:40]), 'x'), nil} {
		if err := os.WriteFile(p, bad, 0o600); err != nil {
			t.Fatal(err)
		}
		if ReadRun(dir, "tool", r.Key) != nil {
			t.Errorf("a damaged run (%d bytes) is used", len(bad))
		}
	}
}

// TestRunKeep: a git directory keeps the RunKeep runs written or used
// last.
func TestRunKeep(t *testing.T) {
	dir, tmp := t.TempDir(), t.TempDir()
	base := time.Now().Add(-time.Hour)
	for k := byte(1); k <= 6; k++ {
		if err := WriteRun(dir, tmp, "tool", sampleRun(k)); err != nil {
			t.Fatal(err)
		}
		// older files first, a second apart (mtime ticks)
		at := base.Add(time.Duration(k) * time.Second)
		os.Chtimes(filepath.Join(runDir(dir), runFileName(sampleRun(k).Key)), at, at)
		if k == 3 { // run 1 is used again: kept over 2, 3, …
			if ReadRun(dir, "tool", sampleRun(1).Key) == nil {
				t.Fatal("run 1 not read")
			}
		}
	}
	ents, err := os.ReadDir(runDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != RunKeep {
		t.Fatalf("%d runs kept, want %d", len(ents), RunKeep)
	}
	if ReadRun(dir, "tool", sampleRun(2).Key) != nil {
		t.Error("the oldest run unused is kept")
	}
}

func FuzzDecodeRun(f *testing.F) {
	f.Add(encodeRun("t", sampleRun(1)))
	f.Add(encodeRun("", &Run{}))
	f.Add([]byte(runMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, tool, err := decodeRun(data)
		if err != nil {
			return
		}
		// what decodes encodes back to the same bytes
		if again := encodeRun(tool, r); !bytes.Equal(again, data) {
			t.Fatalf("re-encoded differently:\n%q\n%q", again, data)
		}
	})
}

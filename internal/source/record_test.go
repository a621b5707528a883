package source

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// named is a working tree whose files are named by the blob they hold
// when ids says so (as gitrepo's names a clean file), and which knows
// which paths are untracked.
type named struct {
	*Worktree
	ids       map[string]string
	untracked map[string]bool
	fail      error // Stat's answer for "broken"
}

func (n *named) ContentID(p string) (string, bool) { id, ok := n.ids[p]; return id, ok }
func (n *named) Untracked(p string) bool           { return n.untracked[p] }
func (n *named) Stat(p string) (Entry, error) {
	if p == "broken" && n.fail != nil {
		return Entry{}, n.fail
	}
	return n.Worktree.Stat(p)
}

func blobID(content string) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00%s", len(content), content)
	return "blob:" + hex.EncodeToString(h.Sum(nil))
}

func newNamed(t *testing.T) (*named, string) {
	t.Helper()
	dir := t.TempDir()
	for p, c := range map[string]string{"a.go": "package a\n", "sub/b.go": "package b\n", "sub/c.md": "# c\n"} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wt, err := NewWorktree(dir)
	if err != nil {
		t.Fatal(err)
	}
	return &named{Worktree: wt, ids: map[string]string{}, untracked: map[string]bool{}}, dir
}

// TestRecorderAnswers: every question a Recorder passes on is recorded
// with its answer; asked again of the same content, each gets the same
// answer, and after a change that alters the answer, another one.
func TestRecorderAnswers(t *testing.T) {
	tests := []struct {
		name   string
		ask    func(src Source)
		change func(n *named, dir string)
	}{
		{"stat", func(s Source) { s.Stat("a.go") }, func(_ *named, dir string) {
			os.WriteFile(filepath.Join(dir, "a.go"), []byte("package a // longer\n"), 0o644)
		}},
		{"stat of nothing", func(s Source) { s.Stat("none.go") }, func(_ *named, dir string) { os.WriteFile(filepath.Join(dir, "none.go"), nil, 0o644) }},
		{"read", func(s Source) { s.ReadFile("a.go") }, func(_ *named, dir string) { os.WriteFile(filepath.Join(dir, "a.go"), []byte("package b\n"), 0o644) }},
		{"read of nothing", func(s Source) { s.ReadFile("none.go") }, func(_ *named, dir string) { os.WriteFile(filepath.Join(dir, "none.go"), nil, 0o644) }},
		{"open, half read", func(s Source) {
			rc, _ := s.Open("sub/b.go")
			rc.Read(make([]byte, 3))
			rc.Close()
		}, func(_ *named, dir string) {
			os.WriteFile(filepath.Join(dir, "sub/b.go"), []byte("package bb\n"), 0o644)
		}},
		{"list", func(s Source) { s.List("sub") }, func(_ *named, dir string) { os.WriteFile(filepath.Join(dir, "sub/d.go"), nil, 0o644) }},
		{"content id", func(s Source) { s.(Identifier).ContentID("a.go") }, func(n *named, _ string) { n.ids["a.go"] = blobID("x") }},
		{"untracked", func(s Source) { s.(Untracker).Untracked("a.go") }, func(n *named, _ string) { n.untracked["a.go"] = true }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, dir := newNamed(t)
			rec := NewRecorder(n, 0, SHA1)
			tt.ask(rec)
			if ok, why := rec.Usable(); !ok {
				t.Fatalf("not usable: %s", why)
			}
			qs, ds := rec.Answers()
			if len(qs) != 1 {
				t.Fatalf("recorded %v, want one question", qs)
			}
			if d, ok := Answer(n, qs[0], SHA1); !ok || d != ds[0] {
				t.Fatalf("asked again unchanged: %v %v, want the recorded answer", d, ok)
			}
			tt.change(n, dir)
			if d, ok := Answer(n, qs[0], SHA1); ok && d == ds[0] {
				t.Fatalf("asked again after the change: the same answer")
			}
		})
	}
}

// TestRecorderReadByName: a file's content asked again is answered by
// the name of its content when the source has one, without reading it;
// a recorded read that the recorded name implies is not kept.
func TestRecorderReadByName(t *testing.T) {
	for _, f := range []BlobFormat{SHA1, SHA256} {
		n, dir := newNamed(t)
		n.ids["a.go"] = blobIDIn(f, "package a\n")
		rec := NewRecorder(n, 0, f)
		if _, err := rec.ReadFile("a.go"); err != nil {
			t.Fatal(err)
		}
		rec.ContentID("a.go")
		qs, _ := rec.Answers()
		if len(qs) != 1 || qs[0].Op != OpContentID {
			t.Fatalf("format %d: recorded %v: the read is implied by the name", f, qs)
		}
		read := Question{OpRead, "a.go"}
		d, _ := f.contentDigest([]byte("package a\n"), nil)
		// the file is gone, and its name still says what it held: answered
		// by the name, not read
		os.Remove(filepath.Join(dir, "a.go"))
		if got, ok := Answer(n, read, f); !ok || got != d {
			t.Errorf("format %d: read answered by its name: %v %v, want %v", f, got, ok, d)
		}
		// a name of the other format says nothing of this one's content
		other := SHA256
		if f == SHA256 {
			other = SHA1
		}
		n.ids["a.go"] = blobIDIn(other, "package a\n")
		if got, ok := Answer(n, read, f); ok && got == d {
			t.Errorf("format %d: answered by a name of the other format", f)
		}
		// without a name, the file is read
		delete(n.ids, "a.go")
		if got, ok := Answer(n, read, f); ok && got == d {
			t.Errorf("format %d: a file without a name, removed, answers as before", f)
		}
	}
}

// blobIDIn is git's blob id of content in object format f.
func blobIDIn(f BlobFormat, content string) string {
	if f == SHA1 {
		return blobID(content)
	}
	h := sha256.New()
	fmt.Fprintf(h, "blob %d\x00%s", len(content), content)
	return "blob:" + hex.EncodeToString(h.Sum(nil))
}

// TestRecorderUnusable: a record is not usable when an answer cannot be
// asked again: an error no sentinel names, content not available, a file
// left open, or two answers to one question.
func TestRecorderUnusable(t *testing.T) {
	tests := []struct {
		name string
		do   func(t *testing.T, n *named, dir string, rec *Recorder)
	}{
		{"unknown error", func(_ *testing.T, n *named, _ string, rec *Recorder) {
			n.fail = errors.New("i/o error")
			rec.Stat("broken")
		}},
		{"unavailable", func(_ *testing.T, n *named, _ string, rec *Recorder) {
			n.fail = fmt.Errorf("x: %w", ErrUnavailable)
			rec.Stat("broken")
		}},
		{"left open", func(t *testing.T, _ *named, _ string, rec *Recorder) {
			if _, err := rec.Open("a.go"); err != nil {
				t.Fatal(err)
			}
		}},
		{"two answers", func(_ *testing.T, _ *named, dir string, rec *Recorder) {
			rec.ReadFile("a.go")
			os.WriteFile(filepath.Join(dir, "a.go"), []byte("changed\n"), 0o644)
			rec.ReadFile("a.go")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, dir := newNamed(t)
			rec := NewRecorder(n, 0, SHA1)
			tt.do(t, n, dir, rec)
			if ok, why := rec.Usable(); ok {
				t.Error("usable")
			} else {
				t.Log(why)
			}
		})
	}
	// a sentinel error is an answer like any other
	n, _ := newNamed(t)
	rec := NewRecorder(n, 0, SHA1)
	if _, err := rec.ReadFile("../x"); !errors.Is(err, ErrOutside) {
		t.Fatalf("got %v", err)
	}
	rc, err := rec.Open("sub/c.md")
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(rc)
	rc.Close()
	if ok, why := rec.Usable(); !ok {
		t.Errorf("not usable: %s", why)
	}
}

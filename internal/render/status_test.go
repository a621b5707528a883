package render

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/git-memcite/git-memcite/internal/progress"
)

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// TestStatus: the line appears only after the quiet time, with the
// counter's progress, is cleared before output and at the end.
func TestStatus(t *testing.T) {
	var term syncBuffer
	c := &progress.Counter{}
	c.Set("memories", 10)
	c.Add(4)
	s := newStatus(&term, "adopt", c, 30*time.Millisecond, 5*time.Millisecond)
	out := s.Writer(&term)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(term.String(), "git-memcite adopt: 4/10 memories, 0s") {
		if time.Now().After(deadline) {
			t.Fatalf("no status line: %q", term.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	out.Write([]byte("result\n"))
	s.Stop()
	got := term.String()
	if !strings.Contains(got, "4/10 memories, 0s\r\x1b[Kresult\n") {
		t.Errorf("the line is not cleared before output: %q", got)
	}
	if strings.HasSuffix(got, "s") {
		t.Errorf("the line is left at the end: %q", got)
	}

	// a command that prints before the quiet time never shows it
	var quick syncBuffer
	s = newStatus(&quick, "verify-all", nil, time.Hour, 5*time.Millisecond)
	s.Writer(&quick).Write([]byte("done\n"))
	time.Sleep(20 * time.Millisecond)
	s.Stop()
	if quick.String() != "done\n" {
		t.Errorf("a quick command got %q", quick.String())
	}
}

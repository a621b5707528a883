package render

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/git-memcite/git-memcite/internal/progress"
)

// Status is the line a long command shows on a terminal while it is
// silent: after a second without output, "git-memcite adopt: 120/1000
// memories, 3s" (or only the time, when the work counts nothing),
// rewritten in place and cleared before any output. Wrap the command's
// writers with Writer, so that the line never mixes with what it prints.
type Status struct {
	w     io.Writer
	label string
	count *progress.Counter
	after time.Duration
	every time.Duration

	mu      sync.Mutex
	start   time.Time
	quiet   time.Time // the last output
	shown   bool
	stop    chan struct{}
	stopped sync.WaitGroup
}

// NewStatus starts the status line of label on w (a terminal), reading
// count (nil: the time only). Stop ends it.
func NewStatus(w io.Writer, label string, count *progress.Counter) *Status {
	return newStatus(w, label, count, time.Second, 250*time.Millisecond)
}

func newStatus(w io.Writer, label string, count *progress.Counter, after, every time.Duration) *Status {
	now := time.Now()
	s := &Status{w: w, label: label, count: count, after: after, every: every, start: now, quiet: now, stop: make(chan struct{})}
	s.stopped.Add(1)
	go s.loop()
	return s
}

func (s *Status) loop() {
	defer s.stopped.Done()
	t := time.NewTicker(s.every)
	defer t.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			s.mu.Lock()
			if now.Sub(s.quiet) >= s.after {
				s.show(now)
			}
			s.mu.Unlock()
		}
	}
}

// show writes the line (s.mu held).
func (s *Status) show(now time.Time) {
	line := fmt.Sprintf("git-memcite %s: ", s.label)
	if what, done, total := s.count.Get(); what != "" && total > 0 {
		line += fmt.Sprintf("%d/%d %s, ", done, total, what)
	}
	line += fmt.Sprintf("%ds", int(now.Sub(s.start).Seconds()))
	fmt.Fprintf(s.w, "\r\x1b[K%s", line)
	s.shown = true
}

// clear removes the line (s.mu held).
func (s *Status) clear() {
	if s.shown {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.shown = false
	}
}

// Stop clears the line and ends the status.
func (s *Status) Stop() {
	close(s.stop)
	s.stopped.Wait()
	s.mu.Lock()
	s.clear()
	s.mu.Unlock()
}

// Writer wraps w so that writing to it clears the line first and counts
// as output (the line comes back after a second of silence).
func (s *Status) Writer(w io.Writer) io.Writer { return statusWriter{s, w} }

type statusWriter struct {
	s *Status
	w io.Writer
}

// Underlying implements term.Wrapper: colour and progress decisions look
// through the wrapper at the stream itself.
func (sw statusWriter) Underlying() io.Writer { return sw.w }

func (sw statusWriter) Write(p []byte) (int, error) {
	sw.s.mu.Lock()
	defer sw.s.mu.Unlock()
	sw.s.clear()
	sw.s.quiet = time.Now()
	return sw.w.Write(p)
}

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/vcache"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// elapsedPlaceholder is the time taken written into a run's output kept
// by its memo (app.RunMemo); the output printed, now and when the run is
// replayed, has the time taken in its place. Rendered in milliseconds
// with one decimal (text) or as JSON, it reads placeholderText.
const elapsedPlaceholder = 8888888888800 * time.Microsecond

var placeholderText = []byte("8888888888.8")

// keepRun renders a verification's report (report, with the run's
// streams in env) into memory with the placeholder for the time taken,
// keeps it with the run's memo when its outcome is one a replay can give,
// and prints it with the time taken since start.
func keepRun(env *Env, memo *app.RunMemo, start time.Time, rep *verify.Report, report func(*Env) error) error {
	rep.Elapsed = elapsedPlaceholder
	memo.Prepare() // (on the other processor, while the report is written)
	out := &capture{under: env.Stdout}
	errOut := &capture{under: env.Stderr}
	result := report(&Env{Stdin: env.Stdin, Stdout: out, Stderr: errOut})
	elapsed := time.Since(start)
	if code, ok := outcomeCode(result); ok && placeholderOnce(out.Bytes(), errOut.Bytes()) {
		memo.Save(out.Bytes(), errOut.Bytes(), code)
	}
	if err := writeElapsed(env.Stderr, errOut.Bytes(), elapsed); err != nil {
		return err
	}
	if err := writeElapsed(env.Stdout, out.Bytes(), elapsed); err != nil {
		return err
	}
	return result
}

// replayRun prints a kept run's output with the time this run took, and
// returns its outcome.
func replayRun(env *Env, run *vcache.Run, elapsed time.Duration) error {
	if err := writeElapsed(env.Stderr, run.Stderr, elapsed); err != nil {
		return err
	}
	if err := writeElapsed(env.Stdout, run.Stdout, elapsed); err != nil {
		return err
	}
	if run.Outcome == 0 {
		return nil
	}
	return outcome.Reported(outcome.Kind(run.Outcome - 1))
}

// outcomeCode codes a command's result for a kept run: 0 for success,
// the outcome + 1 for an outcome the command already reported; ok is
// false for anything else (an error to print).
func outcomeCode(result error) (byte, bool) {
	if result == nil {
		return 0, true
	}
	var oe *outcome.Error
	if errors.As(result, &oe) && oe.Err == nil && oe.Kind >= 0 && oe.Kind < 255 {
		return byte(oe.Kind) + 1, true
	}
	return 0, false
}

// placeholderOnce reports whether the placeholder for the time taken
// appears at most once in a run's output, and only where the time is
// written (", …ms)" in text, a JSON field's value), so that replacing it
// changes nothing else.
func placeholderOnce(stdout, stderr []byte) bool {
	if bytes.Contains(stderr, placeholderText) {
		return false
	}
	switch bytes.Count(stdout, placeholderText) {
	case 0:
		return true
	case 1:
	default:
		return false
	}
	i := bytes.Index(stdout, placeholderText)
	after := stdout[i+len(placeholderText):]
	if bytes.HasPrefix(after, []byte("ms)")) {
		return bytes.HasSuffix(stdout[:i], []byte(", "))
	}
	before := bytes.TrimRight(stdout[:i], " ")
	return bytes.HasSuffix(before, []byte(`"elapsed_ms":`)) || bytes.HasSuffix(before, []byte(`"durationMs":`))
}

// writeElapsed writes data with the placeholder for the time taken
// replaced by elapsed, as the renderers write it: in milliseconds with
// one decimal before "ms", else as a JSON number.
func writeElapsed(w io.Writer, data []byte, elapsed time.Duration) error {
	ms := float64(elapsed.Microseconds()) / 1000
	i := bytes.Index(data, placeholderText)
	if i < 0 {
		_, err := w.Write(data)
		return err
	}
	var num []byte
	if bytes.HasPrefix(data[i+len(placeholderText):], []byte("ms")) {
		num = fmt.Appendf(nil, "%.1f", ms)
	} else {
		num, _ = json.Marshal(ms)
	}
	if _, err := w.Write(data[:i]); err != nil {
		return err
	}
	if _, err := w.Write(num); err != nil {
		return err
	}
	_, err := w.Write(data[i+len(placeholderText):])
	return err
}

// capture keeps what is written to it; colour decisions look through it
// at the stream the output goes to in the end (term.Wrapper).
type capture struct {
	bytes.Buffer
	under io.Writer
}

// Underlying implements term.Wrapper.
func (c *capture) Underlying() io.Writer { return c.under }

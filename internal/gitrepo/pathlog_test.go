package gitrepo

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// scanPathLogSplit is the log reader as it was, on the whole output split
// at every NUL: the reference readPathLog is checked against.
func scanPathLogSplit(out []byte, commit func(gitblame.Hash), change func(logRecord)) error {
	fields := bytes.Split(out, []byte{0})
	seen := false
	for i := 0; i < len(fields); i++ {
		f := bytes.TrimLeft(fields[i], "\n")
		if len(f) == 0 {
			continue
		}
		if f[0] == 1 {
			hs := strings.TrimSpace(string(f[1:]))
			if j := strings.IndexByte(hs, '\n'); j >= 0 {
				// the header and the first raw record share a field
				rest := []byte(hs[j+1:])
				hs = hs[:j]
				fields[i] = rest
				i--
			}
			hh, err := gitblame.ParseHash(hs)
			if err != nil {
				return fmt.Errorf("log: %q: %w", hs, err)
			}
			commit(hh)
			seen = true
			continue
		}
		if f[0] != ':' || !seen {
			continue
		}
		r, err := rawRecord(f, func() ([]byte, error) {
			if i+1 >= len(fields) {
				return nil, io.EOF
			}
			i++
			return fields[i], nil
		})
		if err != nil {
			return err
		}
		change(r)
	}
	return nil
}

// FuzzReadPathLog: the log read as git writes it (readPathLog, fields
// of any length) lists what the whole output split at every NUL lists,
// or both refuse it.
func FuzzReadPathLog(f *testing.F) {
	h1, h2 := strings.Repeat("a", 40), strings.Repeat("b", 40)
	f.Add([]byte("\x01" + h1 + "\n\x00:100644 100644 " + h1 + " " + h2 + " M\x00a.txt\x00:000000 100644 " + h1 + " " + h2 + " A\x00b.txt\x00\n\x01" + h2 + "\n:100644 100644 " + h1 + " " + h2 + " R090\x00x\x00y\x00"))
	f.Add([]byte("\x01" + h1 + "\n"))
	f.Add([]byte(":100644 100644 " + h1 + " " + h2 + " D\x00gone"))
	f.Fuzz(func(t *testing.T, out []byte) {
		show := func(scan func([]byte, func(gitblame.Hash), func(logRecord)) error) string {
			var b strings.Builder
			err := scan(out, func(h gitblame.Hash) { fmt.Fprintf(&b, "commit %s\n", h) }, func(r logRecord) { fmt.Fprintf(&b, "%+v\n", r) })
			if err != nil {
				return "error"
			}
			return b.String()
		}
		got, want := show(scanPathLog), show(scanPathLogSplit)
		if got != want {
			t.Fatalf("readPathLog:\n%s\nsplit:\n%s", got, want)
		}
	})
}

// TestReadPathLogLongField: a field longer than the reader's buffer (a
// path of 100,000 bytes) is read whole.
func TestReadPathLogLongField(t *testing.T) {
	h1, h2 := strings.Repeat("a", 40), strings.Repeat("b", 40)
	long := strings.Repeat("d/", 50000) + "f.txt"
	out := []byte("\x01" + h1 + "\n\x00:100644 100644 " + h1 + " " + h2 + " M\x00" + long + "\x00")
	log, err := parsePathLog(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != 1 || len(log[0].Changes) != 1 || log[0].Changes[0].To != long {
		t.Fatalf("got %d commits; %+v", len(log), log)
	}
}

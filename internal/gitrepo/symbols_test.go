package gitrepo

import (
	"fmt"
	"testing"
)

func TestParseGrepWordFiles(t *testing.T) {
	out := "abc:src/a.py:load\nabc:src/a.py:load\nabc:src/b.py:load\nabc:lib/x:y.sh:run_it\n\nabc:bad\n"
	got := parseGrepWordFiles(out, "abc:")
	want := "map[load:[src/a.py src/b.py] run_it:[lib/x:y.sh]]"
	if fmt.Sprint(got) != want {
		t.Errorf("got %v; want %s", got, want)
	}
}

package hooks

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// Every script carries the current marker with its own name, uses LF
// only, calls 'git-memcite hook <name>' (or git-memcite.exe), and parses
// as POSIX sh.
func TestScripts(t *testing.T) {
	for _, name := range Names {
		b, err := Script(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(b, []byte("#!/bin/sh\n")) {
			t.Errorf("%s: does not start with #!/bin/sh", name)
		}
		if bytes.ContainsRune(b, '\r') {
			t.Errorf("%s: has CR line endings", name)
		}
		marker := fmt.Sprintf("\n# git-memcite-hook v%d (managed): %s\n", Version, name)
		if !bytes.Contains(b, []byte(marker)) {
			t.Errorf("%s: lacks %q", name, strings.TrimSpace(marker))
		}
		if v, ok := Marker(b); !ok || v != Version {
			t.Errorf("%s: Marker = %d, %v", name, v, ok)
		}
		if !bytes.Contains(b, []byte(`"$memcite" hook `+name+` "$@"`)) {
			t.Errorf("%s: does not run git-memcite hook %s", name, name)
		}
		if sh, err := exec.LookPath("sh"); err == nil {
			cmd := exec.Command(sh, "-n")
			cmd.Stdin = bytes.NewReader(b)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s: sh -n: %v\n%s", name, err, out)
			}
		}
	}
	if _, err := Script("pre-push"); err == nil {
		t.Error("Script(pre-push) succeeded")
	}
}

func TestMarker(t *testing.T) {
	tests := []struct {
		in   string
		v    int
		want bool
	}{
		{"#!/bin/sh\n# git-memcite-hook v1 (managed): pre-commit\n", 1, true},
		{"#!/bin/sh\n# git-memcite-hook v12 (managed): post-merge\n", 12, true},
		{"#!/bin/sh\n# mentions git-memcite-hook v1 (managed) later\n", 0, false},
		{"#!/bin/sh\nexec git-memcite hook pre-commit\n", 0, false},
		{strings.Repeat("#\n", 600) + "# git-memcite-hook v1 (managed): pre-commit\n", 0, false},
	}
	for _, tc := range tests {
		if v, ok := Marker([]byte(tc.in)); v != tc.v || ok != tc.want {
			t.Errorf("Marker(%.40q) = %d, %v; want %d, %v", tc.in, v, ok, tc.v, tc.want)
		}
	}
}

// TestCheckedOutWithLF: .gitattributes keeps the scripts LF in every
// checkout (core.autocrlf on Windows would give sh a CR in every line).
func TestCheckedOutWithLF(t *testing.T) {
	b, err := os.ReadFile("../.gitattributes")
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^hooks/\* +text +eol=lf$`).Match(b) {
		t.Errorf(".gitattributes lacks 'hooks/* text eol=lf':\n%s", b)
	}
}

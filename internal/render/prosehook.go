package render

import (
	"fmt"
	"io"
	"strings"
)

// ProseBreak is a reference of a memory's prose that a commit breaks.
type ProseBreak struct {
	Memory string // the memory file
	Line   int    // its line
	Text   string // the reference, as written
	Reason string // what the commit did to it
	// Fix is the reference's new text, when it can be rewritten (a path
	// or memory the commit renamed); Fixed: memcite.preCommit fix did.
	Fix   string
	Fixed bool
}

// ProseHookReport is the pre-commit hook's report on the prose.
type ProseHookReport struct {
	Hook       string
	Breaks     []ProseBreak
	Level      string // the prose setting
	Blocked    bool
	FixedFiles []FixedFile
	NotFixed   map[string]string
}

// ProsePreCommitText writes the pre-commit hook's report on the prose
// of the memories (docs/hooks.md).
func ProsePreCommitText(w io.Writer, r ProseHookReport) error {
	var b strings.Builder
	for _, f := range r.FixedFiles {
		fmt.Fprintf(&b, "git-memcite: rewrote %s in the prose of %s and added it to this commit (memcite.preCommit=fix)\n", plural(f.Citations, "reference"), Safe(f.Path))
	}
	for _, p := range sortedKeys(r.NotFixed) {
		fmt.Fprintf(&b, "git-memcite: prose not fixed: %s: %s\n", Safe(p), Safe(r.NotFixed[p]))
	}
	var open []ProseBreak
	for _, x := range r.Breaks {
		if !x.Fixed {
			open = append(open, x)
		}
	}
	if len(open) > 0 {
		verb := "warning: this commit breaks"
		if r.Blocked {
			verb = "this commit is blocked: it breaks"
		}
		fmt.Fprintf(&b, "git-memcite: %s %s in the prose of memories:\n", verb, plural(len(open), "reference"))
		moved := false
		for _, x := range open {
			fmt.Fprintf(&b, "  %s:%d: `%s`: %s\n", Safe(x.Memory), x.Line, Safe(x.Text), Safe(x.Reason))
			if x.Fix != "" {
				moved = true
				fmt.Fprintf(&b, "    fix: write `%s` for `%s`\n", Safe(x.Fix), Safe(x.Text))
			}
		}
		if moved {
			b.WriteString("  after the commit, git memcite relocate --prose --fix rewrites the moved paths and renamed memories\n")
		}
		if r.Blocked {
			fmt.Fprintf(&b, "  blocked (memcite.prose=block); correct those sentences, or bypass once: %s\n", HookBypass(r.Hook))
		} else if r.Level == "block" {
			b.WriteString("  the commit goes on (memcite.preCommit=warn)\n")
		} else {
			b.WriteString("  the commit goes on; to block such commits: git config memcite.prose block\n")
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/git-memcite/git-memcite/internal/hookrun"
	"github.com/git-memcite/git-memcite/internal/memfile"
	"github.com/git-memcite/git-memcite/internal/store"
)

// HookReport is what a hook run found, ready to print.
type HookReport struct {
	Hook    string
	Outcome *hookrun.Outcome
	// Policy decides what blocks (pre-commit and pre-merge-commit).
	Policy hookrun.PreCommitPolicy
	// Change names the change for post-* hooks: "the merge", "the rebase".
	Change string
	// Fixes holds what is known about fixing a stale citation; a citation
	// without one gets the generic "edit, then verify" advice.
	Fixes map[Key]Fix
	// Applied lists memory files rewritten in the working tree, and
	// ApplySkipped why nothing was applied (empty when not asked).
	Applied      []string
	ApplySkipped string
	// Fixed are the citations memcite.preCommit fix relocated and
	// staged, FixedFiles their memory files with how many each, and
	// NotFixed why a memory file was not rewritten (path: reason).
	Fixed      map[Key]bool
	FixedFiles []FixedFile
	NotFixed   map[string]string
}

// FixedFile is a memory file the pre-commit hook rewrote and staged.
type FixedFile struct {
	Path      string
	Citations int
}

// Key names one citation: memory file path and index in its list.
type Key struct {
	Memory string
	Index  int
}

// Fix is the advice for one stale citation.
type Fix struct {
	Where   string // where the cited lines are now ("src/a.go:4"), if known
	Why     string // how that was found ("the cited lines moved there")
	Command string // the command that fixes it
}

// PreCommitText writes the pre-commit report: every blocking stale
// citation with its reason and fix, one line for the others, and the
// bypass. It writes nothing when nothing is stale or broken.
func PreCommitText(w io.Writer, r HookReport) error {
	var b strings.Builder
	o := r.Outcome
	var block []hookrun.StaleCitation
	for _, s := range o.Blocking(r.Policy) {
		if !r.Fixed[Key{s.Memory.Path, s.Result.Citation.Index}] {
			block = append(block, s)
		}
	}
	var drifted []int // indexes in o.Drifted not fixed
	for i, it := range o.Drifted {
		if !r.Fixed[Key{it.Memory.Path, it.Citation.Index}] {
			drifted = append(drifted, i)
		}
	}
	for _, f := range r.FixedFiles {
		fmt.Fprintf(&b, "git-memcite: relocated %s in %s and added it to this commit (memcite.preCommit=fix)\n", plural(f.Citations, "citation"), Safe(f.Path))
	}
	for _, p := range sortedKeys(r.NotFixed) {
		fmt.Fprintf(&b, "git-memcite: not fixed: %s: %s\n", Safe(p), Safe(r.NotFixed[p]))
	}
	// A memory file that cannot be read blocks when the commit touches
	// it, or always under strict.
	var brokenNew, brokenOld int
	brokenBlocks := func(bm hookrun.BrokenMemory) bool { return bm.Changed || r.Policy == hookrun.Strict }
	for _, bm := range o.Broken {
		if brokenBlocks(bm) {
			brokenNew++
		} else {
			brokenOld++
		}
	}
	blocks := (len(block) > 0 || brokenNew > 0 || len(drifted) > 0) && r.Policy != hookrun.Warn
	shown := block
	if r.Policy == hookrun.Warn {
		shown = o.Blocking(hookrun.Block)
	}
	if len(shown) > 0 {
		verb := "blocks this commit"
		if len(shown) > 1 {
			verb = "block this commit"
		}
		if !blocks {
			verb = "would block this commit (memcite.preCommit=warn)"
		}
		fmt.Fprintf(&b, "git-memcite: %s %s:\n", plural(len(shown), "stale citation"), verb)
		for _, s := range shown {
			writeStale(&b, s, r.Fixes)
		}
	}
	for _, bm := range o.Broken {
		if brokenBlocks(bm) {
			fmt.Fprintf(&b, "git-memcite: %s cannot be read: %s\n", Safe(bm.Memory.Path), Safe(bm.Memory.Err.Error()))
		}
	}
	if len(drifted) > 0 {
		head := "git-memcite: this commit moves, edits or deletes the lines under %s; they would cite other code:\n"
		if r.Policy == hookrun.Warn {
			head = "git-memcite: warning: this commit moves, edits or deletes the lines under %s; they would cite other code (memcite.preCommit=warn):\n"
		}
		fmt.Fprintf(&b, head, plural(len(drifted), "citation"))
		for _, i := range drifted {
			it := o.Drifted[i]
			writeDrifted(&b, it.Memory, *it.Citation, r.Fixes)
		}
	}
	// a partial check knows the older stale citations of the files the
	// commit changes; the others only when a cache told it
	switch n, known := o.AlreadyStale(); {
	case r.Policy == hookrun.Strict:
	case known && n > 0:
		fmt.Fprintf(&b, "git-memcite: warning: %s already stale before this commit, in memory files it does not touch (list: git memcite verify-all --staged)\n", plural(n, "citation"))
	case !known && o.Count(hookrun.Preexisting) > 0:
		fmt.Fprintf(&b, "git-memcite: warning: %s already stale before this commit, citing files it changes (list: git memcite verify-all --staged)\n", plural(o.Count(hookrun.Preexisting), "citation"))
	}
	if brokenOld > 0 {
		fmt.Fprintf(&b, "git-memcite: warning: %s cannot be read (not touched by this commit)\n", plural(brokenOld, "memory file"))
	}
	if blocks {
		cmd := "git commit"
		if r.Hook == "pre-merge-commit" {
			cmd = "git merge"
		}
		fmt.Fprintf(&b, "Commit blocked. Fix the citations, or bypass once: %s --no-verify (or MEMCITE=0 %s ...)\n", cmd, cmd)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// PostText writes the post-merge/post-rewrite report: the citations the
// change made stale, with suggestions, and one line for older ones.
func PostText(w io.Writer, r HookReport) error {
	var b strings.Builder
	o := r.Outcome
	var made []hookrun.StaleCitation
	for _, s := range o.Stale {
		if s.Class != hookrun.Preexisting {
			made = append(made, s)
		}
	}
	if len(made) > 0 {
		fmt.Fprintf(&b, "git-memcite: %s made %s:\n", r.Change, plural(len(made), "citation")+" stale")
		for _, s := range made {
			writeStale(&b, s, r.Fixes)
		}
	}
	for _, bm := range o.Broken {
		if bm.Changed {
			fmt.Fprintf(&b, "git-memcite: %s cannot be read: %s\n", Safe(bm.Memory.Path), Safe(bm.Memory.Err.Error()))
		}
	}
	if len(o.Drifted) > 0 {
		fmt.Fprintf(&b, "git-memcite: %s moved, edited or deleted the lines under %s; they now cite other code:\n", r.Change, plural(len(o.Drifted), "citation"))
		for _, it := range o.Drifted {
			writeDrifted(&b, it.Memory, *it.Citation, r.Fixes)
		}
	}
	// a check of only what the change touches counts the others from the
	// summary of the tree before it
	n, known := o.AlreadyStale()
	if !known {
		n = o.Count(hookrun.Preexisting)
	}
	if n > 0 {
		fmt.Fprintf(&b, "git-memcite: %s already stale before %s (list: git memcite verify-all)\n", plural(n, "citation"), r.Change)
	}
	switch {
	case len(r.Applied) > 0:
		fmt.Fprintf(&b, "git-memcite: updated in the working tree (not staged): %s\n", strings.Join(r.Applied, ", "))
	case r.ApplySkipped != "":
		fmt.Fprintf(&b, "git-memcite: nothing applied: %s\n", r.ApplySkipped)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var classText = map[hookrun.Class]string{
	hookrun.Introduced:      "made stale by this change",
	hookrun.InChangedMemory: "in a memory file this change adds or edits",
	hookrun.NoHistory:       "first commit",
	hookrun.Preexisting:     "already stale before",
}

func writeStale(b *strings.Builder, s hookrun.StaleCitation, fixes map[Key]Fix) {
	c := s.Result.Citation
	fmt.Fprintf(b, "  %s:%d: %s (%s)\n", Safe(s.Memory.Path), c.SrcLine, Safe(c.Location()), classText[s.Class])
	fmt.Fprintf(b, "      %s\n", Safe(s.Result.Reason))
	writeFix(b, fixes[Key{s.Memory.Path, c.Index}],
		fmt.Sprintf("edit %s:%d, then check: git memcite verify %s", Safe(s.Memory.Path), c.SrcLine, Safe(ShellWord(s.Memory.ID))))
}

// writeDrifted lists a citation that still verifies but whose lines the
// change moved, edited or deleted. Without a fix command the advice is not
// "verify" (which cannot tell) but a snippet.
func writeDrifted(b *strings.Builder, m *store.Memory, c memfile.Citation, fixes map[Key]Fix) {
	fmt.Fprintf(b, "  %s:%d: %s (its lines moved; no snippet)\n", Safe(m.Path), c.SrcLine, Safe(c.Location()))
	writeFix(b, fixes[Key{m.Path, c.Index}],
		fmt.Sprintf("edit %s:%d to cite the code it meant", Safe(m.Path), c.SrcLine))
}

// writeFix prints where the lines are now and the fix command (fallback
// when the fix has none).
func writeFix(b *strings.Builder, fix Fix, fallback string) {
	switch {
	case fix.Where != "":
		fmt.Fprintf(b, "      now at: %s (%s)\n", Safe(fix.Where), fix.Why)
	case fix.Why != "":
		fmt.Fprintf(b, "      %s\n", fix.Why)
	}
	if fix.Command == "" {
		fix.Command = fallback
	}
	fmt.Fprintf(b, "      fix: %s\n", fix.Command)
}

// count writes n with the singular or plural noun: "1 memory", "2 memories".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// ShellWord quotes s for a POSIX shell when it needs it.
func ShellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// HookWarnings writes the warnings of the hooks' settings.
func HookWarnings(w io.Writer, warnings []string) {
	for _, s := range warnings {
		fmt.Fprintf(w, "git-memcite: warning: %s\n", s)
	}
}

// HookBypass is the command that skips a commit hook once.
func HookBypass(hook string) string {
	if hook == "pre-merge-commit" {
		return "git merge --no-verify"
	}
	return "git commit --no-verify"
}

// HookFailed reports a failure of git-memcite itself in a hook that lets
// git go on: for a commit hook (pre), a prominent warning that names the
// cause and the fix; for the others, one line.
func HookFailed(w io.Writer, hook string, pre bool, err error) {
	if !pre {
		fmt.Fprintf(w, "git-memcite: %s hook: %v (nothing changed)\n", hook, err)
		return
	}
	fmt.Fprintf(w, `git-memcite: WARNING: the %s hook could not check citations; the commit goes on unchecked.
  cause: %v
  check: git memcite doctor   (what fails, and how to fix it)
  to block commits when the check cannot run: git config memcite.onError block
`, hook, err)
}

// sortedKeys returns the keys of m, sorted.
func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

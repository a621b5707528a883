package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/gitblame"
)

// agentHookOutput is Claude Code's answer to a PostToolUse hook: text the
// agent reads along with the tool's result.
type agentHookOutput struct {
	HookSpecificOutput struct {
		HookEventName     string `json:"hookEventName"`
		AdditionalContext string `json:"additionalContext"`
	} `json:"hookSpecificOutput"`
}

// AgentHookJSON writes the agent hook's answer (docs/agent-hook.md): the
// stale citations of the memory the agent read, where their lines went
// and the command that fixes each; nothing for a valid memory, unless
// verbose asks for one line.
func AgentHookJSON(w io.Writer, a *agenthook.Answer, verbose bool) error {
	text := AgentHookText(a, verbose)
	if text == "" {
		return nil
	}
	var out agentHookOutput
	out.HookSpecificOutput.HookEventName = agenthook.PostToolUse
	out.HookSpecificOutput.AdditionalContext = text
	return writeJSON(w, out)
}

// AgentHookText is the text the agent reads ("" for nothing to say).
func AgentHookText(a *agenthook.Answer, verbose bool) string {
	m := a.Memory
	name := fmt.Sprintf("memory %q (%s)", Safe(m.ID), Safe(m.Path))
	arg := ShellWord(m.Path)
	switch {
	case m.Err != nil:
		return fmt.Sprintf("git-memcite: %s cannot be checked: %s. Its citations are unverified.", name, Safe(m.Err.Error()))
	case len(a.Stale) == 0 && !verbose:
		return ""
	case a.Exempt:
		return fmt.Sprintf("git-memcite: %s is exempt from verification.", name)
	case a.Total == 0:
		return fmt.Sprintf("git-memcite: %s has no citations to verify.", name)
	case len(a.Stale) == 0:
		return fmt.Sprintf("git-memcite: %s: %s valid (checked against the %s).", name, ofCitations(a.Valid, a.Total), a.Source)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "git-memcite: %s: %s stale (checked against the %s). Do not rely on %s as written:\n",
		name, ofCitations(len(a.Stale), a.Total), a.Source, pick(len(a.Stale) == 1, "it", "them"))
	for _, s := range a.Stale {
		b.WriteString("- ")
		b.WriteString(staleLine(s, arg))
		b.WriteByte('\n')
	}
	if a.NoHistory != "" {
		fmt.Fprintf(&b, "Where the cited lines went is not known: %s.\n", Safe(a.NoHistory))
	}
	fmt.Fprintf(&b, "After fixing, check: git memcite verify %s", arg)
	return b.String()
}

// ofCitations is "2 of 3 citations" or "the 1 citation".
func ofCitations(n, total int) string {
	switch {
	case total == 1:
		return "its 1 citation is"
	case n == total:
		return fmt.Sprintf("all %d citations are", total)
	case n == 1:
		return fmt.Sprintf("1 of %d citations is", total)
	}
	return fmt.Sprintf("%d of %d citations are", n, total)
}

func pick(c bool, a, b string) string {
	if c {
		return a
	}
	return b
}

// staleLine explains one stale citation: where its lines went and when,
// verification's reason, and the fix.
func staleLine(s agenthook.Stale, arg string) string {
	cited := "`" + Safe(s.Citation.Location()) + "`"
	reason := Safe(s.Reason)
	when := ""
	if s.Event != nil {
		when = " " + eventText(s.Event)
	}
	var what string
	switch s.Status {
	case gitblame.Moved:
		what = fmt.Sprintf("%s moved to %s%s (%s)", cited, locText(*s.Now), when, reason)
	case gitblame.Changed:
		what = fmt.Sprintf("%s was edited%s and is now %s (%s)", cited, when, locText(*s.Now), reason)
	case gitblame.Gone:
		what = fmt.Sprintf("%s was deleted%s (%s)", cited, when, reason)
	case gitblame.Ambiguous:
		var cands []string
		for _, c := range s.Candidates {
			cands = append(cands, locText(c))
		}
		what = fmt.Sprintf("%s can no longer be told apart%s; it may be %s (%s)", cited, strings.Replace(when, " in ", " after ", 1), strings.Join(cands, " or "), reason)
	case gitblame.Unchanged:
		what = fmt.Sprintf("%s: %s; its lines have not changed since the citation was written, so it was wrong from the start", cited, reason)
	default:
		what = fmt.Sprintf("%s: %s", cited, reason)
		if s.Note != "" {
			what += " (" + Safe(s.Note) + ")"
		}
	}
	if s.Prose != nil {
		return proseStaleLine(s, arg)
	}
	loc := ShellWord(s.Citation.Location())
	switch s.Fix {
	case agenthook.FixRelocate:
		return what + ". Fix: git memcite relocate --fix " + arg
	case agenthook.FixAcceptChanged:
		return what + ". Check the new text, then fix: git memcite relocate --accept-changed --fix " + arg
	case agenthook.FixRemove:
		return what + ". Fix: git memcite remove-citation " + arg + " " + loc +
			" (or cite where the code is now: git memcite add-citation " + arg + " <path>:<line>)"
	}
	return what + ". Fix: correct the citation in " + Safe(arg) + " by hand, or remove it: git memcite remove-citation " + arg + " " + loc
}

// locText is "`path:line`" or "`path:line-end`".
func locText(l gitblame.Location) string {
	s := fmt.Sprintf("%s:%d", l.Path, l.Line)
	switch {
	case l.Line == 0:
		s = l.Path // a whole file
	case l.LineEnd > l.Line:
		s += fmt.Sprintf("-%d", l.LineEnd)
	}
	return "`" + Safe(s) + "`"
}

// eventText is "in 1a2b3c4 'subject'", or the view the step went into.
func eventText(e *gitblame.Event) string {
	if e.Commit == nil {
		return "in the " + Safe(e.View) + " (not committed)"
	}
	return fmt.Sprintf("in %s '%s'", e.Commit.Hash.Short(), Safe(e.Commit.Subject))
}

package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/git-memcite/git-memcite/internal/agenthook"
	"github.com/git-memcite/git-memcite/internal/gitblame"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// agentHookOutput is the answer to an agent's hook: text the agent reads
// along with the tool's result, or at the start of its session. Claude
// Code (PostToolUse, SessionStart), Gemini CLI (AfterTool, SessionStart),
// Codex and VS Code take this shape, with the event's own name.
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
	return AgentContextJSON(w, agenthook.PostToolUse, AgentHookText(a, verbose))
}

// AgentContextJSON writes the answer to the hook event named event that
// gives text to the agent; nothing when text is empty.
func AgentContextJSON(w io.Writer, event, text string) error {
	if text == "" {
		return nil
	}
	var out agentHookOutput
	out.HookSpecificOutput.HookEventName = event
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

// AgentWrittenText is what an agent that just wrote or edited a memory is
// told ("" for nothing to say): each citation and prose reference that
// does not hold in the working tree, what is there instead, the nearest
// line holding the cited text, and the commands that check and pin the
// memory; and, with agent_hook: pin, the citations the hook pinned.
func AgentWrittenText(w *agenthook.Written, verbose bool) string {
	m := w.Memory
	name := fmt.Sprintf("memory %q (%s)", Safe(m.ID), Safe(m.Path))
	pinned := ""
	switch {
	case w.Pinned > 0:
		pinned = fmt.Sprintf("git-memcite: pinned %s of %s to commit %s (as git memcite verify --record does: commit and verified fields added); read the file again before editing it.",
			pick(w.Pinned == 1, "the 1 citation that holds", fmt.Sprintf("the %d citations that hold", w.Pinned)), name, Safe(shortCommit(w.PinCommit)))
	case verbose && w.PinNote != "":
		pinned = fmt.Sprintf("git-memcite: %s not pinned: %s.", name, Safe(w.PinNote))
	}
	body := writtenBody(w, name, verbose && pinned == "")
	switch {
	case pinned == "":
		return body
	case body == "":
		return pinned
	}
	return body + "\n" + pinned
}

// writtenBody is AgentWrittenText without what pinning did.
func writtenBody(w *agenthook.Written, name string, verbose bool) string {
	m := w.Memory
	arg := ShellWord(m.Path)
	switch {
	case m.Err != nil:
		return fmt.Sprintf("git-memcite: the %s just written cannot be read: %s. Its citations are not checked until it can.", name, Safe(m.Err.Error()))
	case len(w.Wrong) == 0 && !verbose:
		return ""
	case w.Exempt:
		return fmt.Sprintf("git-memcite: %s is exempt from verification.", name)
	case w.Total == 0:
		return fmt.Sprintf("git-memcite: %s has no citations to verify.", name)
	case len(w.Wrong) == 0:
		return fmt.Sprintf("git-memcite: %s as written: all %d citations and references hold in the working tree.", name, w.Total)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "git-memcite: %s as written: %d of %d citations and references do not hold in the working tree. Correct them now, while the code is in front of you:\n",
		name, len(w.Wrong), w.Total)
	for _, wr := range w.Wrong {
		b.WriteString("- ")
		b.WriteString(wrongLine(wr, arg))
		b.WriteByte('\n')
	}
	if w.Unpinned > 0 {
		fmt.Fprintf(&b, "Once they hold, pin them to the current commit: git memcite verify --record %s", arg)
	} else {
		fmt.Fprintf(&b, "Then check: git memcite verify %s", arg)
	}
	return b.String()
}

// shortCommit is a commit's name cut to 7 characters.
func shortCommit(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}

// wrongLine explains one citation or reference that does not hold.
func wrongLine(wr agenthook.Wrong, arg string) string {
	c := wr.Citation
	cited := "`" + Safe(c.Location()) + "`"
	if wr.Prose {
		cited = fmt.Sprintf("%s (in the text, line %d)", cited, wr.BodyLine)
	}
	var what string
	switch {
	case wr.Blank:
		what = fmt.Sprintf("%s names a blank line", cited)
	case wr.Kind == verify.KindNotFound:
		what = fmt.Sprintf("%s: no such file in the working tree", cited)
	case wr.Kind == verify.KindPastEOF:
		what = fmt.Sprintf("%s: %s has %d lines", cited, Safe(c.Path), wr.Lines)
	case wr.Kind == verify.KindSnippetMismatch && wr.Found != "":
		what = fmt.Sprintf("%s: the line holds '%s', not '%s'", cited, Safe(clip(wr.Found)), Safe(clip(firstLine(c.Snippet))))
	default:
		what = fmt.Sprintf("%s: %s", cited, Safe(wr.Reason))
	}
	if wr.Nearest > 0 {
		what += fmt.Sprintf("; the cited text is on line %d: cite `%s:%d`", wr.Nearest, Safe(c.Path), wr.Nearest)
	}
	if wr.Prose {
		return what + "; correct the reference in the text"
	}
	return what + "; correct it, or remove it: git memcite remove-citation " + arg + " " + ShellWord(c.Location())
}

// firstLine is the first non-blank line of s, trimmed.
func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(l); t != "" {
			return t
		}
	}
	return ""
}

// clip shortens a line of code to 80 characters.
func clip(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:77]) + "..."
	}
	return s
}

// surveyShown is how many stale memories a session start names.
const surveyShown = 5

// AgentSurveyText is what an agent starting a session is told ("" for
// nothing to say): how many memories have stale citations, the worst few
// with one line each, and the command that lists them all.
func AgentSurveyText(s *agenthook.Survey, verbose bool) string {
	if len(s.Stale) == 0 {
		if verbose && s.Memories > 0 {
			return fmt.Sprintf("git-memcite: %s (checked against the %s).", pick(s.Memories == 1, "the 1 memory holds", fmt.Sprintf("all %d memories hold", s.Memories)), s.Source)
		}
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "git-memcite: %s stale citations (%d in all; checked against the %s). Do not rely on what %s cite%s without checking",
		pick(s.Memories == 1, "the 1 memory has", fmt.Sprintf("%d of %d memories have", len(s.Stale), s.Memories)), s.Citations, s.Source,
		pick(len(s.Stale) == 1, "it", "they"), pick(len(s.Stale) == 1, "s", ""))
	if len(s.Stale) > surveyShown {
		fmt.Fprintf(&b, "; the %d worst:\n", surveyShown)
	} else {
		b.WriteString(":\n")
	}
	for i, sm := range s.Stale {
		if i == surveyShown {
			break
		}
		m := sm.Memory
		name := fmt.Sprintf("%q (%s)", Safe(m.ID), Safe(m.Path))
		if sm.Err != nil {
			fmt.Fprintf(&b, "- %s cannot be read: %s\n", name, Safe(sm.Err.Error()))
			continue
		}
		fmt.Fprintf(&b, "- %s: %s stale, first `%s` (%s)\n", name, ofCitations(sm.Stale, sm.Total), Safe(sm.First), Safe(sm.Reason))
	}
	b.WriteString("All of them: git memcite verify-all; where their lines went and the fix: git memcite relocate <memory>")
	return b.String()
}

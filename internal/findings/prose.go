package findings

import "github.com/git-memcite/git-memcite/internal/verify"

// Rule ids of stale references in the prose of memories
// (docs/prose-references.md).
const (
	RuleProsePath   = RulePrefix + "prose-path"   // a file the prose names was moved or deleted
	RuleProseLines  = RulePrefix + "prose-lines"  // lines the prose names changed
	RuleProseSymbol = RulePrefix + "prose-symbol" // a symbol the prose names is gone or moved
	RuleProseMemory = RulePrefix + "prose-memory" // a memory the prose links was renamed or deleted
)

// ProseRules are the rule ids of prose references.
var ProseRules = []string{RuleProsePath, RuleProseLines, RuleProseSymbol, RuleProseMemory}

func init() {
	Rules = append(Rules,
		Rule{RuleProsePath, "ProsePath", "File named in the prose was moved or deleted",
			"A file the memory's prose names (a path, a bare file name, a markdown link) existed when the sentence was written and has since been moved or deleted.",
			"Update the path in the memory (git memcite relocate --prose --fix rewrites a moved one), or the sentence.", Error},
		Rule{RuleProseLines, "ProseLines", "Lines named in the prose changed",
			"Lines the memory's prose names (path:17, path#L17, \"line 17\") no longer hold the text they held when the sentence was written.",
			"Check that the memory is still true and update the line numbers.", Error},
		Rule{RuleProseSymbol, "ProseSymbol", "Symbol named in the prose is gone",
			"A symbol the memory's prose names was in the code when the sentence was written and is not now.",
			"Check that the memory is still true and update the name.", Error},
		Rule{RuleProseMemory, "ProseMemory", "Memory linked from the prose was renamed or deleted",
			"Another memory the prose links (markdown link, wiki link, related:-style list, backticked name) existed when it was written and has since been renamed or deleted.",
			"Update the link to the new name (git memcite relocate --prose --fix), or remove it.", Error},
	)
}

// ProseRuleFor returns the rule id of a stale prose reference.
func ProseRuleFor(kind verify.Kind, ref *verify.ProseRef) string {
	switch kind {
	case verify.KindPathMoved, verify.KindPathDeleted:
		return RuleProsePath
	case verify.KindSymbolGone, verify.KindSymbolMoved:
		return RuleProseSymbol
	case verify.KindMemoryRenamed, verify.KindMemoryDeleted:
		return RuleProseMemory
	}
	if ref != nil && ref.Kind == "memory" {
		return RuleProseMemory
	}
	return RuleProseLines
}

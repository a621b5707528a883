package findings

// RulePrefix starts every rule id.
const RulePrefix = "memcite/"

// HelpURI is where the rules are documented.
const HelpURI = "https://github.com/git-memcite/git-memcite/blob/main/docs/ci.md#rules"

// Rule ids. They are part of the output formats: never rename one.
const (
	RuleFileNotFound     = RulePrefix + "file-not-found"
	RulePathTraversal    = RulePrefix + "path-traversal"
	RuleLineOutOfRange   = RulePrefix + "line-out-of-range"
	RuleSnippetMismatch  = RulePrefix + "snippet-mismatch"
	RuleUnreadable       = RulePrefix + "unreadable-file"
	RuleMalformedMemory  = RulePrefix + "malformed-memory"
	RuleMemoryWarning    = RulePrefix + "memory-warning"
	RuleStaleUnspecified = RulePrefix + "stale-citation"
	RuleLinesMoved       = RulePrefix + "lines-moved"
	RuleLinesEdited      = RulePrefix + "lines-edited"
	RuleLinesDeleted     = RulePrefix + "lines-deleted"
)

// Rule describes a rule for SARIF and the docs.
type Rule struct {
	ID    string
	Name  string // PascalCase name (SARIF reportingDescriptor.name)
	Short string // one line
	Full  string // a paragraph
	Help  string // how to fix it
	Level Level  // default level
}

// Rules lists every rule, in a stable order.
var Rules = []Rule{
	{RuleFileNotFound, "FileNotFound", "Cited file not found",
		"A citation of the memory names a file that does not exist in the checked content (or an empty path, or a directory).",
		"Find where the code went (git log --follow, or git memcite relocate) and update the citation's path, or delete the citation.", Error},
	{RulePathTraversal, "PathTraversal", "Cited path leaves the repository",
		"A citation names a path outside the repository or inside .git; it is never read.",
		"Cite a repository-relative path.", Error},
	{RuleLineOutOfRange, "LineOutOfRange", "Cited line is past the end of the file",
		"The cited line or range does not exist in the file (or the line number is invalid): the code moved or shrank.",
		"Update the citation's line (git memcite relocate can follow the code through history).", Error},
	{RuleSnippetMismatch, "SnippetMismatch", "Cited snippet no longer matches",
		"The snippet recorded with the citation is not found on the cited line(s): the code changed or moved.",
		"Check that the memory is still true, then update the citation's line or snippet.", Error},
	{RuleUnreadable, "UnreadableFile", "Cited file cannot be read line by line",
		"The cited file exists but cannot be read as text lines (binary, git-lfs pointer, invalid UTF-8, not a regular file).",
		"Cite the file without a line, or cite a text file.", Error},
	{RuleStaleUnspecified, "StaleCitation", "Stale citation",
		"A citation does not hold for a reason no other rule covers.",
		"Check the citation against the code and update it.", Error},
	{RuleMalformedMemory, "MalformedMemory", "Memory file cannot be parsed",
		"The memory file could not be read or its frontmatter is not valid; none of its citations were verified.",
		"Fix the frontmatter at the line shown (see schema/memory.schema.json).", Error},
	{RuleMemoryWarning, "MemoryWarning", "Memory frontmatter has a questionable value",
		"A frontmatter value was ignored or replaced with a default (for example a confidence outside 0 to 1).",
		"Fix the value at the line shown.", Warning},
	{RuleLinesMoved, "LinesMoved", "Cited lines moved",
		"The cited lines are unchanged at another place (other line numbers or another file) since the commit the citation was written against: the citation now points at other code.",
		"Run git memcite relocate --fix to move the citation to its lines.", Error},
	{RuleLinesEdited, "LinesEdited", "Cited lines were edited",
		"The cited lines were edited since the commit the citation was written against.",
		"Check that the memory is still true, then relocate --accept-changed --fix or update the citation.", Error},
	{RuleLinesDeleted, "LinesDeleted", "Cited lines were deleted",
		"The cited lines were deleted since the commit the citation was written against.",
		"Remove the citation (git memcite remove-citation) or cite where the behaviour lives now.", Error},
}

// RuleByID returns the rule with an id, or false.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

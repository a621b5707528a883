// Package memfile parses memory files (markdown with optional YAML
// frontmatter) and rewrites them without losing a byte the user wrote.
//
// Parsing is liberal where the meaning is clear and strict where it is not:
//
//   - a UTF-8 BOM, CRLF (or CR) line endings and blank lines before the
//     opening "---" are accepted;
//   - citations may be structured mappings {path, line, line_end, snippet,
//     verified, commit}, shorthand strings ("path", "path:17", "path:17-28",
//     "path#L17-L28") or URLs; a single string stands for a list of one;
//     `line: "3"` and `line: "2-3"` are accepted;
//   - a non-numeric confidence, a non-list tags value and unknown link types
//     are warnings (the default is used); unknown keys are kept untouched;
//   - malformed YAML, a non-UTF-8 file, a citation without a path, a
//     fractional line number and a citations mapping are errors
//     (*ParseError, naming the file and line).
//
// Rewriting never re-marshals YAML. Parse records the byte position of every
// node it may edit; the edit helpers (SetCitation, SetTop, AppendCitation,
// RemoveCitation) return []Edit that splice new bytes into the original, and
// Apply performs the splice. Comments, quoting, key order, unknown keys,
// line endings, the BOM and the markdown body are kept byte-for-byte.
// Rewrite applies edits, re-parses the result and checks that the body is
// unchanged and that the file still parses, so a faulty edit can never reach
// the disk. WriteFile replaces a file atomically.
package memfile

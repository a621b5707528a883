// Package symdef finds the definitions of a source file without a
// compiler: Go through go/parser, the other common languages through
// definition patterns per language (docs/prose-references.md). It reads
// bytes and returns values; it never touches files or git.
package symdef

import (
	"path"
	"strings"
)

// Kinds of definitions: what a name is defined as, coarsely.
const (
	KindFunc  = "func"  // function, method, macro
	KindType  = "type"  // class, struct, interface, enum, trait, module, type alias
	KindValue = "value" // constant, variable, field, property
)

// Def is one definition of a name in a file.
type Def struct {
	Name string
	Line int // 1-based
	// Container is the type (or class, module, impl) the name is defined
	// in, when the language tells: "Server" for func (s *Server) Run().
	Container string
	Kind      string
}

// Language returns the language of a file by its name ("" when no
// definitions are known for it).
func Language(p string) string {
	ext := strings.ToLower(path.Ext(p))
	if ext == "" {
		return ""
	}
	return langByExt[ext[1:]]
}

var langByExt = map[string]string{
	"go": "go",
	"py": "python", "pyi": "python",
	"ts": "typescript", "tsx": "typescript", "mts": "typescript", "cts": "typescript",
	"js": "typescript", "jsx": "typescript", "mjs": "typescript", "cjs": "typescript",
	"java": "java", "kt": "kotlin", "kts": "kotlin", "cs": "csharp",
	"c": "c", "h": "c", "cc": "c", "cpp": "c", "cxx": "c", "hpp": "c", "hh": "c", "hxx": "c",
	"rs": "rust", "rb": "ruby", "php": "php", "swift": "swift", "r": "r",
	"fs": "fsharp", "fsx": "fsharp", "fsi": "fsharp",
	"sh": "shell", "bash": "shell", "zsh": "shell",
	"ps1": "powershell", "psm1": "powershell",
}

// Definitions returns the definitions of the file p with content src, in
// the order of their lines; nil for a language it knows nothing of.
// Content that does not parse yields what could be read of it.
func Definitions(p string, src []byte) []Def {
	lang := Language(p)
	if lang == "" {
		return nil
	}
	if lang == "go" {
		return goDefs(src)
	}
	return patternDefs(lang, src)
}

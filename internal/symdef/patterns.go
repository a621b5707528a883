package symdef

import (
	"regexp"
	"strings"
	"sync"
)

// rule is one definition pattern of a language.
type rule struct {
	// hints: the line holds at least one of them (a cheap test before the
	// expression); none: every line is tried
	hints []string
	re    *regexp.Regexp // submatch 1 is the name
	kind  string         // "": the name opens a container but defines nothing (impl, extension)
	// opens: the name is a container (class, struct, impl) of the
	// definitions in its block
	opens bool
	// inside: only within a container's block (methods, fields)
	inside bool
	// noSemi: not on a line that ends with ";" (a declaration or a call)
	noSemi bool
	// shape, when set, is a test of the line the expression implies,
	// cheaper than the expression: a line it rejects is not tried (the
	// hints are not tested either). FuzzShapes holds it to that.
	shape func(line string) bool
}

// block is how a language delimits a container's block.
type block int

const (
	braces block = iota // { ... }
	indent              // by indentation (Python, Ruby, F#)
)

type language struct {
	block   block
	comment string // line comment
	rules   []rule
}

func r(re string, kind string, hints ...string) rule {
	return rule{hints: hints, re: regexp.MustCompile(re), kind: kind}
}

func (x rule) container() rule { x.opens = true; return x }
func (x rule) member() rule    { x.inside = true; return x }
func (x rule) body() rule      { x.noSemi = true; return x }

// shaped sets the rule's shape test.
func (x rule) shaped(f func(string) bool) rule { x.shape = f; return x }

// isSpace is the regexp package's \s: [\t\n\f\r ].
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func isIDStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isIDByte(c byte) bool { return isIDStart(c) || c >= '0' && c <= '9' }

// afterSpace returns s without its leading \s.
func afterSpace(s string) string {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// startsWithWord reports whether s, past its leading \s, begins with one
// of the words (as a prefix: "def" for "def f", and for "define").
func startsWithWord(s string, words ...string) bool {
	t := afterSpace(s)
	for _, w := range words {
		if strings.HasPrefix(t, w) {
			return true
		}
	}
	return false
}

// pyMember is the shape of Python's annotated member (^\s+id\s*:\s*[A-Za-z_]):
// white space, an identifier, white space, a colon, white space and the
// first letter of a type.
func pyMember(s string) bool {
	if s == "" || !isSpace(s[0]) {
		return false
	}
	t := afterSpace(s)
	if t == "" || !isIDStart(t[0]) {
		return false
	}
	i := 1
	for i < len(t) && isIDByte(t[i]) {
		i++
	}
	t = afterSpace(t[i:])
	if t == "" || t[0] != ':' {
		return false
	}
	t = afterSpace(t[1:])
	return t != "" && isIDStart(t[0])
}

const id = `([A-Za-z_][A-Za-z0-9_]*)`

// languages holds the definition patterns per language, compiled on
// first use: a command that reads no code (a commit hook, most agent-hook
// reads) compiles none of them.
var languages = sync.OnceValue(func() map[string]*language { return languagePatterns() })

func languagePatterns() map[string]*language {
	return map[string]*language{
		"python": {block: indent, comment: "#", rules: []rule{
			r(`^\s*(?:async\s+)?def\s+`+id, KindFunc, "def").shaped(func(s string) bool { return startsWithWord(s, "def", "async") }),
			r(`^\s*class\s+`+id, KindType, "class").container().shaped(func(s string) bool { return startsWithWord(s, "class") }),
			r(`^`+id+`\s*(?::[^=]*)?=[^=]`, KindValue, "=").shaped(func(s string) bool { return s != "" && isIDStart(s[0]) && strings.IndexByte(s, '=') > 0 }),
			r(`^\s+`+id+`\s*:\s*[A-Za-z_][\w\[\]., |"']*(?:=.*)?$`, KindValue, ":").member().shaped(pyMember),
		}},
		"typescript": {block: braces, comment: "//", rules: []rule{
			r(`^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:async\s+)?function\s*\*?\s*([A-Za-z_$][\w$]*)`, KindFunc, "function"),
			r(`^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?class\s+([A-Za-z_$][\w$]*)`, KindType, "class").container(),
			r(`^\s*(?:export\s+)?(?:declare\s+)?interface\s+([A-Za-z_$][\w$]*)`, KindType, "interface").container(),
			r(`^\s*(?:export\s+)?(?:declare\s+)?type\s+([A-Za-z_$][\w$]*)\s*(?:<.*>)?\s*=`, KindType, "type"),
			r(`^\s*(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+([A-Za-z_$][\w$]*)`, KindType, "enum").container(),
			r(`^\s*(?:export\s+)?(?:declare\s+)?(?:namespace|module)\s+([A-Za-z_$][\w$]*)`, KindType, "namespace", "module").container(),
			r(`^\s*(?:export\s+)?(?:declare\s+)?(?:const|let|var)\s+([A-Za-z_$][\w$]*)`, KindValue, "const", "let", "var"),
			r(`^\s*(?:(?:public|private|protected|static|readonly|async|override|abstract|get|set|declare)\s+)*\*?\s*#?([A-Za-z_$][\w$]*)\s*[?!]?\s*(?:<[^>]*>)?\s*\(`, KindFunc, "(").member().body(),
			r(`^\s*(?:(?:public|private|protected|static|readonly|override|declare|abstract)\s+)*#?([A-Za-z_$][\w$]*)\s*[?!]?\s*[:=]`, KindValue, ":", "=").member(),
		}},
		"java": {block: braces, comment: "//", rules: []rule{
			r(`\b(?:class|interface|enum|record)\s+`+id, KindType, "class", "interface", "enum", "record").container(),
			r(`^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|protected|static|final|abstract|synchronized|native|default|strictfp)\s+)*(?:<[^>]+>\s+)?[\w.<>\[\]?, ]+\s+`+id+`\s*\(`, KindFunc, "(").member().body(),
			r(`^\s*(?:(?:public|private|protected)\s+)`+id+`\s*\(`, KindFunc, "(").member().body(),
			r(`^\s*(?:(?:public|private|protected|static|final|transient|volatile)\s+)+[\w.<>\[\]?, ]+\s+`+id+`\s*(?:=|;)`, KindValue, "=", ";").member(),
		}},
		"csharp": {block: braces, comment: "//", rules: []rule{
			r(`\b(?:class|interface|enum|struct|record)\s+`+id, KindType, "class", "interface", "enum", "struct", "record").container(),
			r(`\bdelegate\s+[\w.<>\[\]?, ]+\s+`+id+`\s*[(<]`, KindType, "delegate"),
			r(`^\s*(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|virtual|override|abstract|sealed|async|new|extern|unsafe|partial|readonly)\s+)*(?:<[^>]+>\s+)?[\w.<>\[\]?, ()]+\s+`+id+`\s*(?:<[^>]*>)?\s*\(`, KindFunc, "(").member().body(),
			r(`^\s*(?:(?:public|private|protected|internal|static)\s+)+`+id+`\s*\(`, KindFunc, "(").member().body(),
			r(`^\s*(?:\[[^\]]*\]\s*)*(?:(?:public|private|protected|internal|static|virtual|override|abstract|sealed|new|required|readonly|const|volatile)\s+)+[\w.<>\[\]?, ()]+\s+`+id+`\s*(?:\{|=>|=|;|$)`, KindValue).member(),
		}},
		"kotlin": {block: braces, comment: "//", rules: []rule{
			r(`\b(?:class|interface|object)\s+`+id, KindType, "class", "interface", "object").container(),
			r(`\bfun\s+(?:<[^>]*>\s*)?(?:[\w.<>?]+\.)?`+id+`\s*\(`, KindFunc, "fun"),
			r(`^\s*(?:(?:private|public|internal|protected|override|const|lateinit|open|abstract)\s+)*(?:val|var)\s+(?:<[^>]*>\s*)?(?:[\w.<>?]+\.)?`+id, KindValue, "val", "var"),
			r(`\btypealias\s+`+id, KindType, "typealias"),
		}},
		"c": {block: braces, comment: "//", rules: []rule{
			r(`^\s*#\s*define\s+`+id, KindFunc, "define"),
			r(`^\s*(?:typedef\s+)?(?:template\s*<[^>]*>\s*)?(?:struct|class|union|enum(?:\s+class)?|namespace)\s+(?:[A-Z_][A-Z0-9_]*\s+)*`+id+`\s*(?:[:{]|final\b|$)`, KindType, "struct", "class", "union", "enum", "namespace").container(),
			r(`^\s*typedef\s+[^;(]*?\b`+id+`\s*(?:\[[^\]]*\]\s*)?;`, KindType, "typedef"),
			r(`^\s*}\s*`+id+`\s*;`, KindType, "}"),
			r(`^\s*using\s+`+id+`\s*=`, KindType, "using"),
			r(`^\s*(?:template\s*<[^>]*>\s*)?(?:[\w:*&<>,~]+\s+)+[*&]*((?:[A-Za-z_]\w*::)*~?[A-Za-z_]\w*)\s*\(`, KindFunc, "(").body(),
			r(`^(?:[A-Za-z_]\w*::)+~?`+id+`\s*\(`, KindFunc, "::").body(),
		}},
		"rust": {block: braces, comment: "//", rules: []rule{
			r(`^\s*(?:pub(?:\([^)]*\))?\s+)?(?:(?:const|async|unsafe|extern(?:\s+"[^"]*")?)\s+)*fn\s+`+id, KindFunc, "fn"),
			r(`^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:struct|enum|union|trait)\s+`+id, KindType, "struct", "enum", "union", "trait").container(),
			r(`^\s*(?:pub(?:\([^)]*\))?\s+)?type\s+`+id, KindType, "type"),
			r(`^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+`+id, KindType, "mod"),
			r(`^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const|static)\s+(?:mut\s+)?`+id+`\s*:`, KindValue, "const", "static"),
			r(`\bmacro_rules!\s*`+id, KindFunc, "macro_rules"),
			r(`^\s*(?:unsafe\s+)?impl(?:\s*<.*?>)?\s+(?:[\w:<>, &']+\s+for\s+)?(?:[\w]+::)*`+id, "", "impl").container(),
			r(`^\s*(?:pub(?:\([^)]*\))?\s+)?`+id+`\s*:\s*[^:]`, KindValue, ":").member(),
			r(`^\s*([A-Z][A-Za-z0-9_]*)\s*(?:[({,]|$)`, KindValue).member(),
		}},
		"ruby": {block: indent, comment: "#", rules: []rule{
			r(`^\s*def\s+(?:self\.)?([A-Za-z_]\w*[?!=]?)`, KindFunc, "def"),
			r(`^\s*(?:class|module)\s+(?:\w+::)*([A-Z]\w*)`, KindType, "class", "module").container(),
			r(`^\s*([A-Z][A-Z0-9_]*)\s*=[^=]`, KindValue, "="),
		}},
		"php": {block: braces, comment: "//", rules: []rule{
			r(`\bfunction\s+&?`+id, KindFunc, "function"),
			r(`^\s*(?:(?:abstract|final|readonly)\s+)*(?:class|interface|trait|enum)\s+`+id, KindType, "class", "interface", "trait", "enum").container(),
			r(`\bconst\s+`+id+`\s*=`, KindValue, "const"),
			r(`^\s*(?:(?:public|private|protected|static|readonly|var)\s+)+(?:\??[\w\\|]+\s+)?\$`+id, KindValue, "$").member(),
		}},
		"swift": {block: braces, comment: "//", rules: []rule{
			r(`\bfunc\s+`+id, KindFunc, "func"),
			r(`\b(?:class|struct|enum|protocol|actor)\s+`+id, KindType, "class", "struct", "enum", "protocol", "actor").container(),
			r(`^\s*(?:(?:public|private|fileprivate|internal|open|static|final|lazy|weak|override|@\w+)\s+)*(?:let|var)\s+`+id, KindValue, "let", "var"),
			r(`\btypealias\s+`+id, KindType, "typealias"),
			r(`^\s*(?:(?:public|private|fileprivate|internal|open)\s+)?extension\s+`+id, "", "extension").container(),
			r(`^\s*case\s+`+id, KindValue, "case").member(),
		}},
		"r": {block: braces, comment: "#", rules: []rule{
			r(`^\s*([A-Za-z_.][\w.]*)\s*(?:<-|<<-|=)\s*function\b`, KindFunc, "function"),
			r(`^([A-Za-z_.][\w.]*)\s*(?:<-|<<-)`, KindValue, "<-"),
			r(`\b(?:setClass|setRefClass|R6Class|setGeneric)\s*\(\s*["']([A-Za-z_.][\w.]*)`, KindType, "Class", "setGeneric"),
		}},
		"fsharp": {block: indent, comment: "//", rules: []rule{
			r(`^\s*(?:let|and)\s+(?:(?:rec|inline|private|internal|public|mutable)\s+)*`+id, KindFunc, "let", "and"),
			r(`^\s*type\s+(?:(?:private|internal|public)\s+)?`+id, KindType, "type").container(),
			r(`^\s*(?:static\s+)?(?:member|abstract|override|default)\s+(?:(?:val|private|inline|member)\s+)*(?:\w+\.)?`+id, KindFunc, "member", "abstract", "override", "default"),
			r(`^\s*module\s+(?:(?:private|internal|public|rec)\s+)*(?:[\w.]+\.)?`+id, KindType, "module"),
			r(`^\s*\|\s*([A-Z]\w*)\b[^>]*$`, KindValue, "|").member(),
		}},
		"shell": {block: braces, comment: "#", rules: []rule{
			r(`^\s*(?:function\s+)?([A-Za-z_][\w:.-]*)\s*\(\s*\)`, KindFunc, "()"),
			r(`^\s*function\s+([A-Za-z_][\w:.-]*)`, KindFunc, "function"),
			r(`^\s*(?:export\s+|readonly\s+|local\s+|declare\s+(?:-\w+\s+)*)?`+id+`=`, KindValue, "="),
		}},
		"powershell": {block: braces, comment: "#", rules: []rule{
			r(`(?i)^\s*(?:function|filter|workflow)\s+(?:(?:global|script|local|private):)?([A-Za-z_][\w-]*)`, KindFunc, "unction", "UNCTION", "ilter", "orkflow", "Function", "Filter"),
			r(`(?i)^\s*class\s+`+id, KindType, "class", "Class").container(),
			r(`(?i)^\s*enum\s+`+id, KindType, "enum", "Enum").container(),
			r(`(?i)^\s*(?:hidden\s+)?(?:static\s+)?(?:\[[^\]]+\]\s*)?`+id+`\s*\([^)]*\)\s*\{?\s*$`, KindFunc, "(").member(),
			r(`(?i)^\s*(?:(?:hidden|static)\s+)*(?:\[[^\]]+\]\s*)+\$`+id, KindValue, "$").member(),
		}},
	}
}

// notNames are keywords the looser patterns (methods, calls) catch.
var notNames = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`if for foreach while switch catch return function new else elif do try throw
		case when sizeof delete typeof await yield func var let using import from in of not and or with
		super this self def class struct enum interface public private protected static const
		constructor fn impl mod pub lock fixed checked unchecked elseif until unless fi done esac
		assert raise del pass lambda Some None Ok Err true false null nil`) {
		notNames[w] = true
	}
}

// notCallers are the words a line that calls (not defines) a function
// starts with: return foo(x), new Foo(x), await foo().
var notCallers = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`return new throw else case await yield delete typeof if while for foreach switch catch
		using lock echo print raise assert del not in elif elseif unless until do goto sizeof when`) {
		notCallers[w] = true
	}
}

// frame is an open container.
type frame struct {
	name   string
	level  int // brace depth or indentation at its definition
	opened bool
	body   int // indentation of its block's first line (-1: not seen yet)
}

// patternDefs applies the rules of lang to each line of src.
func patternDefs(lang string, src []byte) []Def {
	l := languages()[lang]
	if l == nil {
		return nil
	}
	var out []Def
	var stack []frame
	depth := 0
	inBlockComment := false
	line := 0
	text := string(src) // one copy; the lines are cut from it (a name kept is cloned)
	for len(text) > 0 {
		line++
		var raw string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			raw, text = text[:i], text[i+1:]
		} else {
			raw, text = text, ""
		}
		s := strings.TrimRight(raw, "\r")
		if l.block == braces && l.comment == "//" {
			// /* ... */ comments (approximately: whole lines)
			t := strings.TrimSpace(s)
			if inBlockComment {
				if strings.Contains(t, "*/") {
					inBlockComment = false
				}
				continue
			}
			if strings.HasPrefix(t, "/*") && !strings.Contains(t, "*/") {
				inBlockComment = true
				continue
			}
		}
		code := stripComment(s, l.comment)
		if strings.TrimSpace(code) == "" {
			continue
		}
		var level int
		if l.block == indent {
			level = indentOf(code)
			for len(stack) > 0 && stack[len(stack)-1].level >= level {
				stack = stack[:len(stack)-1]
			}
		} else {
			level = depth
			for len(stack) > 0 && (stack[len(stack)-1].opened && stack[len(stack)-1].level >= level) {
				stack = stack[:len(stack)-1]
			}
		}
		pushed := false
		container := ""
		atBody := true // the line is directly in its container's block
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			container = top.name
			if l.block == indent {
				if top.body < 0 {
					top.body = level
				}
				atBody = level == top.body
			} else {
				// directly in its braces, not in a method's body or a
				// nested block (a Rust use list: use a::{B, C})
				atBody = level == top.level+1
			}
		}
		for _, ru := range l.rules {
			if ru.inside && (container == "" || !atBody) {
				continue // a member is directly in the block (not a parameter of a method)
			}
			if ru.shape != nil {
				if !ru.shape(code) {
					continue
				}
			} else if !hinted(code, ru.hints) {
				continue
			}
			if ru.noSemi && strings.HasSuffix(strings.TrimSpace(code), ";") {
				continue
			}
			m := ru.re.FindStringSubmatch(code)
			if m == nil {
				continue
			}
			name := m[1]
			if notNames[name] || ru.noSemi && notCallers[firstWord(code)] {
				continue
			}
			cont := container
			if i := strings.LastIndex(name, "::"); i >= 0 {
				cont, name = name[:i], name[i+2:]
				if j := strings.LastIndex(cont, "::"); j >= 0 {
					cont = cont[j+2:]
				}
				name = strings.TrimPrefix(name, "~")
			}
			if name == "" || notNames[name] {
				continue
			}
			if ru.kind != "" {
				out = append(out, Def{Name: strings.Clone(name), Line: line, Container: strings.Clone(cont), Kind: ru.kind})
			}
			if ru.opens {
				if l.block == braces {
					for len(stack) > 0 && stack[len(stack)-1].level >= level {
						stack = stack[:len(stack)-1]
					}
				}
				if l.block == indent || !strings.HasSuffix(strings.TrimSpace(code), ";") {
					stack = append(stack, frame{name: name, level: level, body: -1})
					pushed = true
				}
			}
			break
		}
		if l.block == braces {
			opens, closes := countBraces(code)
			depth += opens - closes
			if depth < 0 {
				depth = 0
			}
			if pushed && opens > 0 && depth <= level {
				stack = stack[:len(stack)-1] // its block opened and closed on its line
			}
			for i := range stack {
				if depth > stack[i].level {
					stack[i].opened = true
				}
			}
			// a block closed on this very line (class X {})
			for len(stack) > 0 && stack[len(stack)-1].opened && stack[len(stack)-1].level >= depth {
				stack = stack[:len(stack)-1]
			}
		}
	}
	return out
}

func hinted(s string, hints []string) bool {
	if len(hints) == 0 {
		return true
	}
	for _, h := range hints {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}

func firstWord(s string) string {
	s = strings.TrimSpace(s)
	i := strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	})
	if i < 0 {
		return s
	}
	return s[:i]
}

func indentOf(s string) int {
	n := 0
	for _, c := range s {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 8 - n%8
		default:
			return n
		}
	}
	return n
}

// stripComment cuts a line comment that is not inside a string.
func stripComment(s, comment string) string {
	if comment == "" || !strings.Contains(s, comment) {
		return s
	}
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' && comment != "//":
			quote = c
		case strings.HasPrefix(s[i:], comment):
			if comment == "#" && i > 0 && (s[i-1] == '$' || s[i-1] == '<' || s[i-1] == '{') {
				continue // $#, <#, ${#x}: not a comment
			}
			return s[:i]
		}
	}
	return s
}

// countBraces counts the braces of a line outside double-quoted strings.
func countBraces(s string) (opens, closes int) {
	inStr := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inStr:
			if c == '\\' {
				i++
			} else if c == '"' {
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{':
			opens++
		case c == '}':
			closes++
		}
	}
	return opens, closes
}

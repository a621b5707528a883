package prose

import (
	"fmt"
	"strings"
	"testing"
)

// show renders a reference as "kind form target[:line[-end]]" (+ " bare").
func show(r Ref) string {
	s := fmt.Sprintf("%s %s %s", r.Kind, r.Form, r.Target)
	if r.Line > 0 {
		s += fmt.Sprintf(":%d", r.Line)
		if r.End > 0 {
			s += fmt.Sprintf("-%d", r.End)
		}
	}
	if r.Bare {
		s += " bare"
	}
	return s
}

func TestExtractBody(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		// paths
		{"backticked path", "read `src/app/state.py` first", []string{"path backticked src/app/state.py"}},
		{"backticked bare name", "the `docker-compose.yml` file", []string{"path backticked docker-compose.yml"}},
		{"bare path in prose", "see src/a/b.go for it", []string{"path bare src/a/b.go"}},
		{"bare file name", "edit dataset_state.py now", []string{"path bare dataset_state.py bare"}},
		{"a sentence's full stop is not part of the name", "It lives in main.go.", []string{"path bare main.go bare"}},
		{"unknown extensions are not files", "e.g. this, i.e. that, example.com", nil},
		{"Makefile without extension", "`Makefile` targets", []string{"path backticked Makefile"}},
		{"a suffix after a code extension", "apply `worktree_occupancy.py.patch` first", []string{"path backticked worktree_occupancy.py.patch"}},
		{"a bare one", "see app.ts.snap", []string{"path bare app.ts.snap bare"}},
		{"a dotted call is still a symbol", "`os.path.join()`", []string{"symbol symbol os.path.join"}},
		// line forms
		{"path:line", "at src/a.go:17 it", []string{"path path-line src/a.go:17"}},
		{"path:range", "(ui/app.py:30-32)", []string{"path path-line ui/app.py:30-32"}},
		{"en dash range", "ui/app.py:30–32", []string{"path path-line ui/app.py:30-32"}},
		{"backticked path:line", "`src/a.go:3`", []string{"path path-line src/a.go:3"}},
		{"anchor", "src/a.go#L17-L28", []string{"path anchor src/a.go:17-28"}},
		{"anchor single", "src/a.go#L17", []string{"path anchor src/a.go:17"}},
		{"anchor bare end", "src/a.go#L17-28", []string{"path anchor src/a.go:17-28"}},
		{"prose line", "`file.py` line 64 does it", []string{"path prose-line file.py:64"}},
		{"prose lines range", "`file.py` lines 64-70", []string{"path prose-line file.py:64-70"}},
		{"prose L form", "`src/x.ps1` L190", []string{"path prose-line src/x.ps1:190"}},
		{"prose L range", "`src/x.ps1` L190-L200", []string{"path prose-line src/x.ps1:190-200"}},
		{"parenthesised Lines", "`src/x.py` (Lines 350-370)", []string{"path prose-line src/x.py:350-370"}},
		{"japanese no Line", "`src/x.py` の Line 22", []string{"path prose-line src/x.py:22"}},
		{"japanese gyo", "`src/x.py` の22行目", []string{"path prose-line src/x.py:22"}},
		{"french ligne", "`src/x.py` ligne 22", []string{"path prose-line src/x.py:22"}},
		{"german Zeile", "`src/x.py`, Zeile 22", []string{"path prose-line src/x.py:22"}},
		{"spanish linea range", "`src/x.py` líneas 3 a 9", []string{"path prose-line src/x.py:3-9"}},
		{"line far away is not attached", "`src/x.py` is imported by the other module, line 22", []string{"path backticked src/x.py"}},
		{"a line number without a path", "see line 42", nil},
		// links
		{"markdown link to code with line", "[dataset_state.py](src/lorairo/gui/state/dataset_state.py:475)", []string{"path markdown-link src/lorairo/gui/state/dataset_state.py:475"}},
		{"markdown link with anchor", "[h](src/a.go#L3-L5)", []string{"path markdown-link src/a.go:3-5"}},
		{"markdown link to a memory", "[x](other.md)", []string{"memory markdown-link other.md"}},
		{"relative memory link", "[x](../topic/other.md)", []string{"memory markdown-link ../topic/other.md"}},
		{"memory link with heading", "[x](./modules/INDEX.md#usage)", []string{"memory markdown-link ./modules/INDEX.md"}},
		{"url links are external", "[docs](https://x.y/a.go) and https://x.y/b.go#L3", nil},
		{"in-page anchor", "[up](#top)", nil},
		{"wiki link", "see [[session-protocol]] and [[a/b|label]]", []string{"memory wiki-link session-protocol", "memory wiki-link a/b"}},
		// memory names
		{"backticked memory name", "follow `session-protocol` here", []string{"memory memory-name session-protocol"}},
		{"backticked memory file", "see `other-memory.md`", []string{"memory backticked other-memory.md"}},
		// symbols
		{"method call", "`SessionManager.restore_from_selection()`", []string{"symbol symbol SessionManager.restore_from_selection"}},
		{"function call", "`edit_model_notes()`", []string{"symbol symbol edit_model_notes"}},
		{"call with arguments", "`open(path, mode)`", []string{"symbol symbol open"}},
		{"CamelCase", "`GetFact` reads", []string{"symbol symbol GetFact"}},
		{"camelCase", "`getFact` reads", []string{"symbol symbol getFact"}},
		{"snake_case", "`load_config` reads", []string{"symbol symbol load_config"}},
		{"dotted name", "`graph.New` builds", []string{"symbol symbol graph.New"}},
		{"scoped name", "`Foo::bar` and `Foo#baz`", []string{"symbol symbol Foo::bar", "symbol symbol Foo#baz"}},
		{"rust macro", "`vec!`", nil},
		{"the standard library's macros are the language's", "never `todo!()`, `panic!()` or `unimplemented!()`; `assert_eq!(a, b)`", nil},
		{"a macro of the code is a symbol", "`define_id!` and `define_slug!(X)`", []string{"symbol symbol define_id", "symbol symbol define_slug"}},
		{"shell variables are not symbols", "`$PSScriptRoot` and `$env:HOME`", nil},
		{"english words are not symbols", "`true`, `Memory`, `the`, `README`, `HTTP`", nil},
		{"flags and commands are not symbols", "`--fix` and `git log -p`", nil},
		{"a file name is not a symbol", "`config.yaml`", []string{"path backticked config.yaml"}},
		{"route folders in a path", "`app/(shell)/ai-chat/page.tsx`, `app/(shell)/articles/[articleId]/page.tsx`, `app/@sidebar/page.tsx`, `pages/[...slug]/index.ts`",
			[]string{"path backticked app/(shell)/ai-chat/page.tsx", "path backticked app/(shell)/articles/[articleId]/page.tsx", "path backticked app/@sidebar/page.tsx", "path backticked pages/[...slug]/index.ts"}},
		{"a call with a path argument is no route", "`load(a/b.ts)` and `app/(shell)/**`", []string{"symbol symbol load"}},
		{"build and bundle files are files", "`build_windows.bat`, `Info.plist`, `main.qml`, `app.qrc`, `deps.cmake`",
			[]string{"path backticked build_windows.bat", "path backticked Info.plist", "path backticked main.qml", "path backticked app.qrc", "path backticked deps.cmake"}},
		{"a placeholder name is a pattern, not a symbol", "`GetXxxUseCase`, `xxx_handler()`, `useXXXQuery`, `Xxx.run()`", nil},
		{"x in a name is no placeholder", "`maxX`, `xxHash64`, `Proxxy`", []string{"symbol symbol maxX", "symbol symbol xxHash64"}},
		// structure
		{"several in order", "a.go:1, `b.py` and c/d.py:2-3", []string{"path path-line a.go:1", "path backticked b.py", "path path-line c/d.py:2-3"}},
		{"fenced code is skipped", "```\nsrc/a.go:3\n```\nsrc/b.go:4", []string{"path path-line src/b.go:4"}},
		{"tilde fences too", "~~~py\n`x_y()`\n~~~\n", nil},
		{"invalid UTF-8 line is skipped, others read", "\xff `a/b.go`\n`c/d.go`", []string{"path backticked c/d.go"}},
		{"opt out in the body", "<!-- memcite: ignore -->\n`a/b.go`", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "---\nid: m\n---\n" + tc.body + "\n"
			var got []string
			for _, r := range Extract([]byte(src), Options{}) {
				got = append(got, show(r))
				if r.MemLine < 4 {
					t.Errorf("%q on line %d; the body starts on line 4", r.Target, r.MemLine)
				}
				if src[r.Start:r.Stop] != r.Target {
					t.Errorf("%q: bytes %d-%d are %q", r.Target, r.Start, r.Stop, src[r.Start:r.Stop])
				}
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestExtractFrontmatter(t *testing.T) {
	src := "---\nid: m\nrelated: [alpha, \"beta-two\"]\nsupersedes:\n  - old/gamma.md\nsuperseded_by: delta\ntags: [x]\n" +
		// a section of a memory names the memory; a list written as one
		// scalar names each of its parts
		"references: [guides.md#qt-specific, ' #top']\ndepends_on: dev/qt.md,  dev/platforms.md ,\n---\nbody\n"
	var got []string
	for _, r := range Extract([]byte(src), Options{}) {
		got = append(got, show(r)+" "+r.Key)
		if r.Start < 0 || src[r.Start:r.Stop] != r.Target {
			t.Errorf("%q: offsets %d-%d", r.Target, r.Start, r.Stop)
		}
	}
	want := []string{"memory frontmatter alpha related", "memory frontmatter beta-two related",
		"memory frontmatter old/gamma.md supersedes", "memory frontmatter delta superseded_by",
		"memory frontmatter guides.md references",
		"memory frontmatter dev/qt.md depends_on", "memory frontmatter dev/platforms.md depends_on"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if refs := Extract([]byte("---\nmemcite: ignore\nrelated: [a]\n---\n`a/b.go`\n"), Options{}); len(refs) != 0 {
		t.Errorf("memcite: ignore: got %v", refs)
	}
}

func TestExtractFencesOption(t *testing.T) {
	src := "```\n`a/b.go`\n```\n"
	if n := len(Extract([]byte(src), Options{})); n != 0 {
		t.Errorf("fences skipped: got %d refs", n)
	}
	if n := len(Extract([]byte(src), Options{Fences: true})); n != 1 {
		t.Errorf("fences read: got %d refs", n)
	}
}

func TestExtractLineNumbers(t *testing.T) {
	src := "---\nid: m\n---\n\nfirst `a/b.go`\r\n\nthird `c/d.go:4`\n"
	refs := Extract([]byte(src), Options{})
	if len(refs) != 2 || refs[0].MemLine != 5 || refs[1].MemLine != 7 {
		t.Fatalf("got %+v", refs)
	}
}

func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"---\nid: m\nrelated: [a]\n---\n`src/a.go:3` [x](o.md) [[w]] `A.b()` a.go#L3-L4 `f.py` line 9\n",
		"```\n`x`\n```\n`y_z()` (Lines 1-2) の Line 3 [a](b.go:4)",
		"\xef\xbb\xbf---\r\nsupersedes: x\r\n---\r\n`a/b.go` L1-L2\r\n",
		"`app/(shell)/[id]/@slot/page.tsx:3` and `x/(a)/[[...b]]/c.ts`\n",
		"---\nreferences: [g.md#qt, '#top', \" a.md , b\"]\ndepends_on: dev/qt.md,  dev/p.md ,\n---\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range Extract([]byte(s), Options{}) {
			if r.Start < 0 {
				continue
			}
			if r.Start > r.Stop || r.Stop > len(s) || s[r.Start:r.Stop] != r.Target {
				t.Fatalf("%+v: bytes do not hold the target", r)
			}
			if r.Line < 0 || r.End < 0 || (r.End != 0 && r.End <= r.Line) {
				t.Fatalf("%+v: bad lines", r)
			}
		}
	})
}

func TestEachWord(t *testing.T) {
	var got []string
	eachWord([]byte("func x_1(a2 int) { $v := 3abc; ÿname }"), func(w []byte) { got = append(got, string(w)) })
	want := "func|x_1|a2|int|$v|name"
	if strings.Join(got, "|") != want {
		t.Errorf("got %q; want %q", strings.Join(got, "|"), want)
	}
}

// BenchmarkExtract: the references of a memory of 400 lines of prose
// (paths, backticked names and symbols, links, line forms), as a store's
// thousand memories are read on a cold run.
func BenchmarkExtract(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("---\nid: bench\nrelated: [other_memory]\n---\n\n# Notes\n\n")
	for i := range 50 {
		fmt.Fprintf(&sb, "The handler in `src/api/handler_%d.py` calls `Cart.total()` before `save_order()`; see line %d.\n", i, i+10)
		fmt.Fprintf(&sb, "Config lives in config/settings.yaml and scripts/run_%d.sh (Lines 3-9), not in the README.\n", i)
		fmt.Fprintf(&sb, "- [the design](../design/overview.md) and [code](src/app/main.py:%d) agree, per [[decisions]].\n", i+1)
		sb.WriteString("- Plain prose: nothing here names a file, a symbol, or another memory at all.\n")
		fmt.Fprintf(&sb, "- `PaymentService.charge` retries; `MAX_RETRIES` is 3 (see https://example.com/doc/%d).\n", i)
		sb.WriteString("\n```python\nx = compute(a, b)\n```\n")
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Extract(src, Options{})
	}
}

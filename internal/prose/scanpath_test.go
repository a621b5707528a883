package prose

import (
	"reflect"
	"regexp"
	"testing"
)

// bareRe is the expression bareMatches implements.
var bareRe = regexp.MustCompile(`(?:^|[\s(\[{"'*,;])(` + fileName + `)`)

func bareByRegexp(l string) [][2]int {
	var out [][2]int
	for _, m := range bareRe.FindAllStringSubmatchIndex(l, -1) {
		out = append(out, [2]int{m[2], m[3]})
	}
	return out
}

func TestBareMatchesRegexp(t *testing.T) {
	for _, l := range []string{
		"",
		"see src/a/b.go for it",
		"edit dataset_state.py now",
		"It lives in main.go.",
		"e.g. this, i.e. that, example.com",
		"a.b.c-d and x/y/z and x/y/z.md/ and a//b.go",
		"Makefile, (Dockerfile) [Jenkinsfile.groovy] *Procfile* x/Gemfile x/y.z/Rakefile",
		"-foo.bar -x.y .hidden.md ..a.go ../a/b.go ./c.go a./b.go",
		"\tv1.2.3 1.5x a.b1 a.1b a.b_c.d- _x.Y",
		"dir.d/sub.d/ dir.d/sub.d/x dir/.x dir/-x.go",
		"'quoted.py' \"q.go\" {br.ts} ;semi.rs ,comma.cs",
		"α a.go é b/c.py 日本.md x.go",
		"src/a.go:17 and b.go#L3",
		"MakefileX Makefile.am /abs/path.go",
	} {
		if got, want := bareMatches(l), bareByRegexp(l); !reflect.DeepEqual(got, want) {
			t.Errorf("%q: got %v; the regexp finds %v", l, got, want)
		}
	}
}

func FuzzBareMatches(f *testing.F) {
	for _, s := range []string{"see src/a/b.go, x.y", "a.b.c-d x/y/Makefile", "(a/b.c/d) 'q.py'"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if got, want := bareMatches(l), bareByRegexp(l); !reflect.DeepEqual(got, want) {
			t.Fatalf("%q: got %v; the regexp finds %v", l, got, want)
		}
		if got, want := isFileName(l), fileNameRe.MatchString(l); got != want {
			t.Fatalf("isFileName(%q) = %v; the expression says %v", l, got, want)
		}
		if got, want := codeSpans(l), codeRe.FindAllStringSubmatchIndex(l, -1); !reflect.DeepEqual(got, want) {
			t.Fatalf("codeSpans(%q) = %v; the expression finds %v", l, got, want)
		}
		if got, want := isIdentifier(l), identRe.MatchString(l); got != want {
			t.Fatalf("isIdentifier(%q) = %v; the expression says %v", l, got, want)
		}
		if routePathRe().MatchString(l) && !maybeRoutePath(l) {
			t.Fatalf("%q is a route path, and maybeRoutePath says it cannot be", l)
		}
	})
}

// The expressions isFileName and codeSpans do by hand.
var (
	fileNameRe = regexp.MustCompile(`^` + fileName + `$`)
	codeRe     = regexp.MustCompile("`([^`\n]+)`")
	identRe    = regexp.MustCompile(`^[A-Za-z_$][\w$]*$`)
)

func TestIsFileName(t *testing.T) {
	for _, s := range []string{"", "a", "a.go", "src/a.go", "a/b.c/d", "a//b.py", "x.tar.gz", "x.py-old",
		"Makefile", "Makefile.am", "Makefile_x", "dir/Dockerfile", ".x", "-x.go", "a.1b", "a.b1", "../a.go",
		"a/b.", "a/.b", "é.go", "a.go/", "/a.go", "a b.go", "x.Y"} {
		if got, want := isFileName(s), fileNameRe.MatchString(s); got != want {
			t.Errorf("isFileName(%q) = %v; the expression says %v", s, got, want)
		}
	}
}

func TestIsIdentifier(t *testing.T) {
	for _, s := range []string{"", "a", "_", "$", "$x", "a1", "1a", "a-b", "a.b", "é", "A_B$c9", " a"} {
		if got, want := isIdentifier(s), identRe.MatchString(s); got != want {
			t.Errorf("isIdentifier(%q) = %v; the expression says %v", s, got, want)
		}
	}
	for _, s := range []string{"app/(shell)/[id]/page.tsx", "x/[[...b]]/c.ts", "a/@slot/p.tsx", "a/b.ts"} {
		if routePathRe().MatchString(s) && !maybeRoutePath(s) {
			t.Errorf("%q is a route path, and maybeRoutePath says it cannot be", s)
		}
	}
}

func TestCodeSpans(t *testing.T) {
	for _, l := range []string{"", "`", "``", "```", "`a`", "``a`", "`a``b`", "x `a` y `b c` z", "`a\nb` `c`",
		"`unclosed", "`é`", "``` ```", "a`b`c`d"} {
		if got, want := codeSpans(l), codeRe.FindAllStringSubmatchIndex(l, -1); !reflect.DeepEqual(got, want) {
			t.Errorf("codeSpans(%q) = %v; the expression finds %v", l, got, want)
		}
	}
}

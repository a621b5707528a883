package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/git-memcite/git-memcite/internal/findings"
)

var update = flag.Bool("update", false, "update golden files in testdata/")

// sample is a report with one finding of each kind that needs escaping or
// a special case: a range, a whole-file citation, a path outside the
// repository, a parse error without a citation, a warning.
func sample() *findings.Report {
	fs := []findings.Finding{
		{RuleID: findings.RuleSnippetMismatch, Level: findings.Error, MemoryID: "auth", MemoryFile: ".serena/memories/auth.md",
			MemoryLine: 7, CitedPath: "src/auth.go", CitedLine: 12,
			Message: "stale citation of src/auth.go:12: Snippet mismatch at line 12. Expected 'a, b: 100%', got 'x'"},
		{RuleID: findings.RuleLineOutOfRange, Level: findings.Error, MemoryID: "auth", MemoryFile: ".serena/memories/auth.md",
			MemoryLine: 10, CitedPath: "src/auth.go", CitedLine: 50, CitedEndLine: 60,
			Message: "stale citation of src/auth.go:50-60: Line 60 exceeds file length (40)"},
		{RuleID: findings.RulePathTraversal, Level: findings.Error, MemoryID: "odd, name", MemoryFile: ".serena/memories/odd, name: x.md",
			MemoryLine: 4, CitedPath: "../outside.txt",
			Message: "stale citation of ../outside.txt: Path traversal blocked: ../outside.txt"},
		{RuleID: findings.RuleMalformedMemory, Level: findings.Error, MemoryID: "broken", MemoryFile: ".serena/memories/broken.md",
			MemoryLine: 3, Message: "memory cannot be parsed: invalid YAML: did not find expected key\r\nsecond line"},
		{RuleID: findings.RuleMemoryWarning, Level: findings.Warning, MemoryID: "warn", MemoryFile: ".serena/memories/warn.md",
			MemoryLine: 2, Message: `confidence 7 is outside 0 to 1; using 0.5 | <b>`},
		{RuleID: findings.RuleFileNotFound, Level: findings.Note, MemoryID: "gone", MemoryFile: ".serena/memories/gone.md",
			MemoryLine: 0, CitedPath: "docs/old guide.md",
			Message: "stale citation of docs/old guide.md: File not found: docs/old guide.md"},
	}
	for i := range fs {
		fs[i].Fingerprint = findings.Fingerprint(fs[i].RuleID, fs[i].MemoryFile, fs[i].CitedLocation()+fs[i].Message)
	}
	r := &findings.Report{Command: "verify-all", Source: "working tree", Findings: fs,
		Summary: findings.Summary{Memories: 5, Citations: 9, Baselined: 1, DurationMS: 1.5}}
	findings.Sort(r.Findings)
	r.Count()
	return r
}

var tool = Tool{Name: "git-memcite", Version: "1.2.3", URI: "https://github.com/git-memcite/git-memcite"}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the output:\ngot:\n%s\nwant:\n%s", p, got, want)
	}
}

func TestFindingsGolden(t *testing.T) {
	empty := &findings.Report{Command: "verify", Source: "index", Findings: []findings.Finding{}}
	for _, tc := range []struct {
		name, format string
		r            *findings.Report
	}{
		{"findings.json", "json", sample()},
		{"findings.github", "github", sample()},
		{"findings.sarif", "sarif", sample()},
		{"findings.gitlab.json", "gitlab", sample()},
		{"empty.json", "json", empty},
		{"empty.github", "github", empty},
		{"empty.sarif", "sarif", empty},
		{"empty.gitlab.json", "gitlab", empty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Findings(&b, tc.format, tc.r, tool); err != nil {
				t.Fatal(err)
			}
			golden(t, tc.name, b.Bytes())
		})
	}
	var b bytes.Buffer
	if err := StepSummary(&b, sample()); err != nil {
		t.Fatal(err)
	}
	golden(t, "findings.summary.md", b.Bytes())
}

func TestUnknownFormat(t *testing.T) {
	if err := Findings(&bytes.Buffer{}, "xml", sample(), tool); err == nil {
		t.Fatal("no error for an unknown format")
	}
}

// TestSARIFSchema validates SARIF output against the SARIF 2.1.0 schema and
// checks what GitHub code scanning needs beyond it.
func TestSARIFSchema(t *testing.T) {
	c := jsonschema.NewCompiler()
	f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	c.AssertFormat()
	sch, err := c.Compile("sarif.json")
	if err != nil {
		t.Fatal(err)
	}
	for name, r := range map[string]*findings.Report{
		"sample": sample(),
		"empty":  {Command: "verify", Source: "index", Findings: []findings.Finding{}},
	} {
		t.Run(name, func(t *testing.T) {
			var b bytes.Buffer
			if err := SARIF(&b, r, tool); err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			if err := sch.Validate(inst); err != nil {
				t.Fatalf("SARIF output is not valid: %v", err)
			}
			var log struct {
				Runs []struct {
					Tool struct {
						Driver struct {
							Rules []struct {
								ID   string `json:"id"`
								Help *struct {
									Text string `json:"text"`
								} `json:"help"`
								Full *struct {
									Text string `json:"text"`
								} `json:"fullDescription"`
							} `json:"rules"`
						} `json:"driver"`
					} `json:"tool"`
					Results []struct {
						RuleID    string `json:"ruleId"`
						Locations []struct {
							PhysicalLocation struct {
								Region struct {
									StartLine int `json:"startLine"`
								} `json:"region"`
							} `json:"physicalLocation"`
						} `json:"locations"`
						PartialFingerprints map[string]string `json:"partialFingerprints"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(b.Bytes(), &log); err != nil {
				t.Fatal(err)
			}
			run := log.Runs[0]
			if len(run.Tool.Driver.Rules) != len(findings.Rules) {
				t.Errorf("%d rules, want %d", len(run.Tool.Driver.Rules), len(findings.Rules))
			}
			for _, ru := range run.Tool.Driver.Rules {
				if ru.Help == nil || ru.Help.Text == "" || ru.Full == nil || ru.Full.Text == "" {
					t.Errorf("rule %s lacks help or a full description", ru.ID)
				}
			}
			if len(run.Results) != len(r.Findings) {
				t.Fatalf("%d results, want %d", len(run.Results), len(r.Findings))
			}
			for i, res := range run.Results {
				if len(res.Locations) != 1 || res.Locations[0].PhysicalLocation.Region.StartLine < 1 {
					t.Errorf("result %d (%s): region.startLine missing", i, res.RuleID)
				}
				if res.PartialFingerprints[sarifFingerprintKey] != r.Findings[i].Fingerprint {
					t.Errorf("result %d: partialFingerprints %v, want %s", i, res.PartialFingerprints, r.Findings[i].Fingerprint)
				}
			}
		})
	}
}

func TestGitHubEscaping(t *testing.T) {
	for _, tc := range []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"a\nb", "a%0Ab", "a%0Ab"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"a:b,c", "a:b,c", "a%3Ab%2Cc"},
		{"%0A", "%250A", "%250A"}, // an escape in the input is not decoded by GitHub
		{"::error::x", "::error::x", "%3A%3Aerror%3A%3Ax"},
	} {
		if got := EscapeData(tc.in); got != tc.data {
			t.Errorf("EscapeData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := EscapeProperty(tc.in); got != tc.prop {
			t.Errorf("EscapeProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}

func TestGitHubCommand(t *testing.T) {
	for _, tc := range []struct {
		f    findings.Finding
		want string
	}{
		{findings.Finding{RuleID: "memcite/x", Level: findings.Error, MemoryFile: "m/a.md", MemoryLine: 3, Message: "m"},
			"::error file=m/a.md,line=3,endLine=3,title=memcite/x::m"},
		{findings.Finding{RuleID: "memcite/x", Level: findings.Warning, MemoryFile: "m/a,b:c.md", Message: "1\n2"},
			"::warning file=m/a%2Cb%3Ac.md,title=memcite/x::1%0A2"},
		{findings.Finding{RuleID: "memcite/x", Level: findings.Note, MemoryFile: "a.md", MemoryLine: 1, Message: "50%"},
			"::notice file=a.md,line=1,endLine=1,title=memcite/x::50%25"},
	} {
		if got := GitHubCommand(tc.f); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
}

// TestGitHubLimit checks that at most GitHubLimit annotations of each level
// are emitted, errors first, and that the rest is listed and counted.
func TestGitHubLimit(t *testing.T) {
	r := &findings.Report{Command: "verify-all", Source: "working tree"}
	for i := 0; i < 13; i++ {
		r.Findings = append(r.Findings,
			findings.Finding{RuleID: "memcite/w", Level: findings.Warning, MemoryFile: "w.md", MemoryLine: i + 1, Message: "w"},
			findings.Finding{RuleID: "memcite/e", Level: findings.Error, MemoryFile: "e.md", MemoryLine: i + 1, Message: "e"},
			findings.Finding{RuleID: "memcite/n", Level: findings.Note, MemoryFile: "n.md", MemoryLine: i + 1, Message: "n"})
	}
	findings.Sort(r.Findings)
	r.Count()
	var b bytes.Buffer
	if err := GitHub(&b, r); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "::error "); n != GitHubLimit {
		t.Errorf("%d error annotations, want %d", n, GitHubLimit)
	}
	if n := strings.Count(out, "::warning "); n != GitHubLimit {
		t.Errorf("%d warning annotations, want %d", n, GitHubLimit)
	}
	if n := strings.Count(out, "::notice "); n != GitHubLimit {
		t.Errorf("%d notices with the summary, want %d", n, GitHubLimit)
	}
	if first := strings.SplitN(out, "\n", 2)[0]; !strings.HasPrefix(first, "::error file=e.md,line=1,") {
		t.Errorf("first line %q, want the first error", first)
	}
	if !strings.Contains(out, "10 more finding(s)") || !strings.Contains(out, "10 not shown as annotations") {
		t.Errorf("no count of the findings not annotated:\n%s", out)
	}
	if !strings.Contains(out, "  e.md:13 [error] e\n") || !strings.Contains(out, "  w.md:13 [warning] w\n") {
		t.Errorf("findings past the limit not listed:\n%s", out)
	}
}

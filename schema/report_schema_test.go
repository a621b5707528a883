package schema_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/git-memcite/git-memcite/internal/findings"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/schema"
)

// TestReportSchema validates the JSON report against its schema: the
// golden report of internal/render, and one built here with every rule.
func TestReportSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema.Report))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("report.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("report.json")
	if err != nil {
		t.Fatal(err)
	}
	r := &findings.Report{Command: "verify-all", Source: "index"}
	for i, ru := range findings.Rules {
		f := findings.Finding{RuleID: ru.ID, Level: ru.Level, MemoryFile: "m/a.md", MemoryLine: i + 1, Message: ru.Short,
			Fingerprint: findings.Fingerprint(ru.ID, "m/a.md", "k")}
		if i%2 == 0 {
			f.CitedPath, f.CitedLine, f.CitedEndLine = "a.go", 3, 5
		}
		r.Findings = append(r.Findings, f)
	}
	r.Count()
	var b bytes.Buffer
	if err := render.FindingsJSON(&b, r, render.Tool{Name: "git-memcite", Version: "dev"}); err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{"built": b.Bytes()}
	for _, g := range []string{"findings.json", "empty.json"} {
		data, err := os.ReadFile(filepath.Join("..", "internal", "render", "testdata", g))
		if err != nil {
			t.Fatal(err)
		}
		docs[g] = data
	}
	for name, data := range docs {
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(inst); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	// and the schema is not vacuous
	bad, _ := jsonschema.UnmarshalJSON(bytes.NewReader([]byte(`{"schemaVersion": 2, "findings": []}`)))
	if s.Validate(bad) == nil {
		t.Error("the schema accepts a report of another version")
	}
}

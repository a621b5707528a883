package app

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-memcite/git-memcite/internal/findings"
	"github.com/git-memcite/git-memcite/internal/gitrepo"
	"github.com/git-memcite/git-memcite/internal/trace"
)

// Policy is how a run judges and orders its findings: the configured level
// of each rule, the baseline of known findings, and the revision whose
// changes are listed first.
type Policy struct {
	Levels   map[string]findings.Level // rule (without "memcite/") → level; Off drops it
	Baseline findings.Baseline         // known findings: neither reported nor failing
	// ChangedSince lists first the findings on files changed since this
	// revision (git diff REV...HEAD). With ChangedSinceGiven false (a
	// default such as a pull request's base) an unknown revision only
	// leaves the order as it is.
	ChangedSince      string
	ChangedSinceGiven bool
}

// Apply applies p to fr: levels, counts, the order, the baseline.
func Apply(ctx context.Context, repo *gitrepo.Repo, fr *findings.Report, p Policy) error {
	fr.Findings = findings.Severities(fr.Findings, p.Levels)
	fr.Count()
	changed, err := ChangedFiles(ctx, repo, p.ChangedSince, p.ChangedSinceGiven)
	if err != nil {
		return err
	}
	findings.SortChangedFirst(fr.Findings, changed)
	p.Baseline.Filter(fr)
	return nil
}

// ChangedFiles lists the files changed between rev and HEAD (git diff
// rev...HEAD); nil for no rev or no repository. When git cannot tell
// (a shallow clone without the base), it is an error only if required.
func ChangedFiles(ctx context.Context, repo *gitrepo.Repo, rev string, required bool) (map[string]bool, error) {
	if rev == "" || repo == nil {
		return nil, nil
	}
	out, err := repo.Run(ctx, "diff", "--name-only", "-z", "--no-renames", rev+"...HEAD")
	if err != nil {
		if required {
			return nil, fmt.Errorf("--changed-since: %w", err)
		}
		trace.Printf("changed files since %s unknown (a shallow clone?): %v", rev, err)
		return nil, nil
	}
	changed := map[string]bool{}
	for _, p := range strings.Split(out, "\x00") {
		if p != "" {
			changed[p] = true
		}
	}
	trace.Printf("%d file(s) changed since %s", len(changed), rev)
	return changed, nil
}

// ReportOptions are the choices of a findings report: the flags of the
// commands that report findings.
type ReportOptions struct {
	Format       string            // --format; "" for the configured one (or --output's extension)
	Output       string            // --output: a file, "" or "-" for standard output
	FailOn       string            // --fail-on
	ChangedSince string            // --changed-since; "" for a pull request's base, if any
	Baseline     findings.Baseline // --baseline, read
}

// Judge settles a findings report: it resolves the format and --fail-on
// in cfg (flags over configuration; a format from --output's extension),
// then applies the configured levels, the order and the baseline (Apply).
// It returns the format to write.
func Judge(ctx context.Context, ws *Workspace, fr *findings.Report, o ReportOptions) (string, error) {
	cfg := ws.Cfg
	format := o.Format
	if format == "" && o.Output != "" {
		switch strings.ToLower(filepath.Ext(o.Output)) {
		case ".json":
			format = "json"
		case ".sarif":
			format = "sarif"
		}
	}
	if err := cfg.Set("format", "--format", format); err != nil {
		return "", err
	}
	if err := cfg.Set("fail-on", "--fail-on", o.FailOn); err != nil {
		return "", err
	}
	format = cfg.Get("format").First()
	since := o.ChangedSince
	if since == "" && os.Getenv("GITHUB_BASE_REF") != "" {
		since = "origin/" + os.Getenv("GITHUB_BASE_REF") // a pull request's base
	}
	levels := cfg.Levels()
	if ws.ProseLevel() == "warn" {
		for _, r := range findings.ProseRules {
			levels[r] = findings.Warning
		}
	}
	policy := Policy{Levels: levels, Baseline: o.Baseline, ChangedSince: since, ChangedSinceGiven: o.ChangedSince != ""}
	if err := Apply(ctx, ws.Repo, fr, policy); err != nil {
		return "", err
	}
	trace.Printf("%d finding(s), %d in the baseline; format %s (%s); fail-on %s (%s)", len(fr.Findings),
		fr.Summary.Baselined, format, cfg.Get("format").Origin, cfg.Get("fail-on").First(), cfg.Get("fail-on").Origin)
	return format, nil
}

// ReadBaseline reads a baseline: a report written with --format json.
func ReadBaseline(p string) (findings.Baseline, error) {
	trace.Printf("read baseline %s", p)
	file, err := os.Open(p)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	defer file.Close()
	b, err := findings.ReadBaseline(file)
	if err != nil {
		return nil, fmt.Errorf("--baseline %s: %w", p, err)
	}
	return b, nil
}

// StepSummaryFile is the file GitHub Actions shows as the step's summary
// ($GITHUB_STEP_SUMMARY), "" outside a workflow.
func StepSummaryFile() string { return os.Getenv("GITHUB_STEP_SUMMARY") }

// AppendStepSummary appends a rendered summary to StepSummaryFile.
func AppendStepSummary(data []byte) error {
	p := StepSummaryFile()
	trace.Printf("append step summary %s", p)
	if err := AppendFile(p, data); err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	return nil
}

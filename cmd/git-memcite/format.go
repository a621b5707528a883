package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"

	"github.com/git-memcite/git-memcite/internal/app"
	"github.com/git-memcite/git-memcite/internal/findings"
	"github.com/git-memcite/git-memcite/internal/outcome"
	"github.com/git-memcite/git-memcite/internal/render"
	"github.com/git-memcite/git-memcite/internal/trace"
	"github.com/git-memcite/git-memcite/internal/verify"
)

// FormatFlags choose the report format of the commands that report
// findings (verify and verify-all).
type FormatFlags struct {
	Format   string `name:"format" xor:"format" placeholder:"FORMAT" help:"Report format: text, json (versioned findings report), github (workflow annotations), sarif (2.1.0, for code scanning), gitlab (code quality). Default: from --output's extension (.json, .sarif), else MEMCITE_FORMAT, git config memcite.format, .memcite.yaml, else text."`
	Output   string `name:"output" short:"o" placeholder:"FILE" help:"Write the report to FILE instead of standard output."`
	Baseline string `name:"baseline" placeholder:"FILE" help:"A report written with --format json: the findings it lists are known and neither reported nor failing the run; new ones are."`
	FailOn   string `name:"fail-on" placeholder:"LEVEL" help:"Lowest finding level that makes the run exit 1: error (default), warning, note, never."`
	known    findings.Baseline
	Since    string `name:"changed-since" placeholder:"REV" help:"List first the findings on memories or cited files changed since REV (git diff REV...HEAD), as GitHub annotates only the first 10 errors. Default in a pull request: origin/$GITHUB_BASE_REF when it exists."`
}

// toolInfo names git-memcite in machine-readable reports.
var toolInfo = render.Tool{Name: "git-memcite", URI: "https://github.com/git-memcite/git-memcite"}

// report writes the findings of a verification in the chosen format and
// returns the run's outcome: app.Judge applies the configured rule
// levels, the ordering and the baseline and settles the format and
// --fail-on. text writes the command's human output. failed says that
// some arguments could not be resolved (exit 2).
func (f *FormatFlags) report(ctx context.Context, g *Globals, env *Env, ws *workspace, command string,
	rep *verify.Report, failed bool, text func(w io.Writer, st render.Style) error) error {
	b, err := f.baseline()
	if err != nil {
		return err
	}
	findings.MarkKnown(rep, b)
	fr := findings.FromVerify(command, rep)
	hardErr := failed || rep.Summary().Errors > 0 // exit 2: unreadable input, bad arguments
	format, err := app.Judge(ctx, ws, fr, app.ReportOptions{Format: f.Format, Output: f.Output, FailOn: f.FailOn, ChangedSince: f.Since, Baseline: b})
	if err != nil {
		return err
	}
	w, st, done, err := f.writer(env, g)
	if err != nil {
		return err
	}
	if format == "text" {
		warn(env, rep)
		err = text(w, st)
	} else {
		t := toolInfo
		t.Version = version
		err = render.Findings(w, format, fr, t)
	}
	if cerr := done(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if format == "github" {
		if err := stepSummary(fr); err != nil {
			return err
		}
	}
	switch {
	case hardErr:
		return outcome.Reported(outcome.BadInput)
	case findings.AtLeast(fr.Findings, ws.Cfg.FailOn()):
		return outcome.Reported(outcome.Stale)
	}
	return nil
}

// writer opens --output (or stdout, buffered: a report of a thousand
// findings is a few writes, not thousands) and a function that closes
// (flushes) it.
func (f *FormatFlags) writer(env *Env, g *Globals) (io.Writer, render.Style, func() error, error) {
	if f.Output == "" || f.Output == "-" {
		out := bufio.NewWriterSize(env.Stdout, 64<<10)
		return out, g.style(env.Stdout), out.Flush, nil
	}
	trace.Printf("write report %s", f.Output)
	var buf bytes.Buffer // written whole, atomically, once complete
	return &buf, render.Style{}, func() error {
		if err := app.WriteReport(f.Output, buf.Bytes()); err != nil {
			return fmt.Errorf("--output: %w", err)
		}
		return nil
	}, nil
}

// baseline reads --baseline once (nil without it).
func (f *FormatFlags) baseline() (findings.Baseline, error) {
	if f.Baseline == "" || f.known != nil {
		return f.known, nil
	}
	b, err := app.ReadBaseline(f.Baseline)
	if err != nil {
		return nil, outcome.With(outcome.BadInput, err)
	}
	f.known = b
	return b, nil
}

// stepSummary appends the findings as a markdown table to the file
// $GITHUB_STEP_SUMMARY names, when it is set.
func stepSummary(fr *findings.Report) error {
	if app.StepSummaryFile() == "" {
		return nil
	}
	var b bytes.Buffer
	if err := render.StepSummary(&b, fr); err != nil {
		return fmt.Errorf("GITHUB_STEP_SUMMARY: %w", err)
	}
	return app.AppendStepSummary(b.Bytes())
}

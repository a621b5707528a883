package render

import (
	"io"
	"net/url"
	"strings"

	"github.com/git-memcite/git-memcite/internal/findings"
)

// SARIF 2.1.0, as GitHub code scanning reads it: one run, the rules with
// descriptions and help, every result with region.startLine and
// partialFingerprints (docs.github.com, "SARIF support for code scanning").

const sarifSchema = "https://json.schemastore.org/sarif-2.1.0.json"

// sarifFingerprintKey names our fingerprint in partialFingerprints.
const sarifFingerprintKey = "memcite/v1"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool              sarifTool               `json:"tool"`
	Results           []sarifResult           `json:"results"`
	Invocations       []sarifInvocation       `json:"invocations"`
	Properties        map[string]any          `json:"properties,omitempty"`
	AutomationDetails *sarifAutomationDetails `json:"automationDetails,omitempty"`
}

type sarifAutomationDetails struct {
	ID string `json:"id"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool `json:"executionSuccessful"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version,omitempty"`
	InformationURI string      `json:"informationUri,omitempty"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string            `json:"id"`
	Name                 string            `json:"name"`
	ShortDescription     sarifText         `json:"shortDescription"`
	FullDescription      sarifText         `json:"fullDescription"`
	Help                 sarifMultiformat  `json:"help"`
	HelpURI              string            `json:"helpUri,omitempty"`
	DefaultConfiguration sarifRuleConfig   `json:"defaultConfiguration"`
	Properties           map[string]string `json:"properties,omitempty"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifMultiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	RelatedLocations    []sarifLocation   `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	ID               *int          `json:"id,omitempty"`
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
	Message          *sarifText    `json:"message,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtLoc  `json:"artifactLocation"`
	Region           *sarifRegion `json:"region,omitempty"`
}

type sarifArtLoc struct {
	URI       string `json:"uri,omitempty"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
	EndLine   int `json:"endLine,omitempty"`
}

// SARIF writes a SARIF 2.1.0 log of the findings.
func SARIF(w io.Writer, r *findings.Report, t Tool) error {
	rules := make([]sarifRule, 0, len(findings.Rules))
	index := map[string]int{}
	for i, ru := range findings.Rules {
		index[ru.ID] = i
		rules = append(rules, sarifRule{
			ID: ru.ID, Name: ru.Name,
			ShortDescription:     sarifText{ru.Short},
			FullDescription:      sarifText{ru.Full},
			Help:                 sarifMultiformat{Text: ru.Help, Markdown: ru.Help + "\n\nSee [the rules of git-memcite](" + findings.HelpURI + ")."},
			HelpURI:              findings.HelpURI,
			DefaultConfiguration: sarifRuleConfig{sarifLevel(ru.Level)},
		})
	}
	result := func(i int) any {
		f := r.Findings[i]
		res := sarifResult{
			RuleID: f.RuleID, RuleIndex: index[f.RuleID], Level: sarifLevel(f.Level),
			Message: sarifText{f.Message},
			Locations: []sarifLocation{{PhysicalLocation: sarifPhysical{
				ArtifactLocation: sarifArtLoc{URI: sarifURI(f.MemoryFile), URIBaseID: "%SRCROOT%"},
				Region:           &sarifRegion{StartLine: max(f.MemoryLine, 1)},
			}}},
			PartialFingerprints: map[string]string{sarifFingerprintKey: f.Fingerprint},
		}
		if _, ok := index[f.RuleID]; !ok {
			res.RuleIndex = -1
		}
		if cited := sarifCited(f); cited != nil {
			res.RelatedLocations = []sarifLocation{*cited}
		}
		return res
	}
	// the results are written one by one in place of the nil Results
	log := sarifLog{Schema: sarifSchema, Version: "2.1.0", Runs: []sarifRun{{
		Tool:              sarifTool{Driver: sarifDriver{Name: t.Name, Version: t.Version, InformationURI: t.URI, Rules: rules}},
		Invocations:       []sarifInvocation{{ExecutionSuccessful: true}},
		AutomationDetails: &sarifAutomationDetails{ID: "git-memcite/" + r.Command + "/"},
		Properties:        map[string]any{"source": r.Source, "baselined": r.Summary.Baselined},
	}}}
	return writeJSONList(w, log, "results", 3, len(r.Findings), result)
}

// sarifCited is the cited location as a related location, for paths that
// stay inside the repository.
func sarifCited(f findings.Finding) *sarifLocation {
	p := f.CitedPath
	if p == "" || strings.HasPrefix(p, "/") || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/..") {
		return nil
	}
	id := 1
	loc := &sarifLocation{ID: &id, PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtLoc{URI: sarifURI(p), URIBaseID: "%SRCROOT%"}},
		Message: &sarifText{"cited location " + f.CitedLocation()}}
	if f.CitedLine > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.CitedLine}
		if f.CitedEndLine > f.CitedLine {
			loc.PhysicalLocation.Region.EndLine = f.CitedEndLine
		}
	}
	return loc
}

// sarifURI escapes a repo-relative path as a relative URI reference.
func sarifURI(p string) string {
	u := url.URL{Path: p}
	s := u.EscapedPath()
	if i := strings.IndexByte(s, ':'); i >= 0 && !strings.Contains(s[:i], "/") {
		s = "./" + s // a colon before the first slash would read as a scheme
	}
	return s
}

func sarifLevel(l findings.Level) string {
	switch l {
	case findings.Error:
		return "error"
	case findings.Warning:
		return "warning"
	case findings.Note:
		return "note"
	}
	return "none"
}

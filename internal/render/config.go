package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/git-memcite/git-memcite/internal/config"
	"github.com/git-memcite/git-memcite/internal/findings"
)

// ConfigText writes every setting of cfg, its value and where it came
// from (the hook settings among them: git config only), then each rule's level and
// the configuration file read (source names the content it was looked
// for in).
func ConfigText(w io.Writer, cfg *config.Config, source string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, k := range config.Keys {
		v := cfg.Get(k.Name)
		fmt.Fprintf(tw, "%s\t%s\t(%s)\n", k.Name, orNone(v.String()), Safe(v.Origin))
	}
	levels := cfg.Levels()
	for _, r := range findings.Rules {
		origin := "default"
		l := r.Level
		for _, s := range cfg.Severities {
			if s.Rule == r.ID {
				l, origin = levels[r.ID], s.Origin
			}
		}
		fmt.Fprintf(tw, "severity.%s\t%s\t(%s)\n", strings.TrimPrefix(r.ID, findings.RulePrefix), l, origin)
	}
	file := cfg.FileName
	if file == "" {
		file = "none (" + config.FileName + " not found in the " + source + ")"
	}
	fmt.Fprintf(tw, "config file\t%s\n", file)
	return tw.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

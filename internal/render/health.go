package render

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/git-memcite/git-memcite/internal/health"
)

// HealthJSON writes the health report as one JSON document.
func HealthJSON(w io.Writer, r *health.Report) error { return writeJSON(w, r) }

// pctOf writes a of b as a percentage from the counts themselves (the
// report's shares are rounded to two decimals): a share that is not
// nothing is never shown as 0%, nor one that is not all as 100%.
func pctOf(a, b int) string {
	if b <= 0 || a <= 0 {
		return "0%"
	}
	if a >= b {
		return "100%"
	}
	x := float64(a) / float64(b) * 100
	switch {
	case x < 0.1:
		return "<0.1%"
	case x > 99.9:
		return ">99.9%"
	case x < 1 || x > 99:
		return fmt.Sprintf("%.1f%%", x)
	}
	return fmt.Sprintf("%.0f%%", x)
}

// HealthMarkdown writes the report as markdown (a "Memory Health
// Report"): totals, what got worse (with --since), the ranked table, the
// per-folder breakdown, dangling links and orphans.
func HealthMarkdown(w io.Writer, r *health.Report) error {
	var b strings.Builder
	t := r.Totals
	b.WriteString("# Memory Health Report\n\n")
	fmt.Fprintf(&b, "Source: %s\n\n", mdCell(r.Source))
	b.WriteString("## Summary\n\n| Metric | Value |\n| --- | --- |\n")
	rows := [][2]string{
		{"Memories", fmt.Sprint(t.Memories)},
		{"With ≥ 1 citation (coverage)", fmt.Sprintf("%d (%s)", t.WithCitations, pctOf(t.WithCitations, t.Memories))},
		{"Citations (valid / stale)", fmt.Sprintf("%d (%d / %d)", t.Citations, t.ValidCitations, t.StaleCitations)},
		{"Citations per cited memory", fmt.Sprintf("%.2f", t.CitationsPerMemory)},
		{"Citations without a snippet (line number only)", fmt.Sprint(t.LineOnly)},
		{"Healthy / stale memories", fmt.Sprintf("%d / %d", t.Healthy, t.Stale)},
		{"Stale share (of cited memories)", pctOf(t.Stale, t.WithCitations)},
		{"Never verified", fmt.Sprint(t.NeverVerified)},
		{"All citations in deleted files", fmt.Sprint(t.AllDeleted)},
		{"Uncited / exempt / errors", fmt.Sprintf("%d / %d / %d", t.Uncited, t.Exempt, t.Errors)},
		{"Dangling links / orphans", fmt.Sprintf("%d / %d", t.DanglingLinks, t.Orphans)},
	}
	for _, row := range rows {
		fmt.Fprintf(&b, "| %s | %s |\n", row[0], row[1])
	}
	if s := r.Since; s != nil {
		fmt.Fprintf(&b, "\n## Since %s (%s)\n\n", mdCell(s.Rev), s.Commit[:min(len(s.Commit), 12)])
		fmt.Fprintf(&b, "Stale memories: %d → %d; stale citations: %d → %d; memories: %d → %d.\n\n",
			s.Before.Stale, t.Stale, s.Before.StaleCitations, t.StaleCitations, s.Before.Memories, t.Memories)
		if len(s.Worse) == 0 {
			b.WriteString("Nothing got worse.\n")
		} else {
			b.WriteString("### Worse\n\n| Memory | Then | Now | New problems |\n| --- | --- | --- | --- |\n")
			for _, c := range s.Worse {
				fmt.Fprintf(&b, "| %s | %s %d/%d | %s %d/%d | %s |\n", mdCell(c.ID), c.Before, c.ValidThen, c.TotalThen, c.After, c.ValidNow, c.TotalNow, mdCell(strings.Join(c.NewReasons, "; ")))
			}
		}
		if len(s.Better) > 0 {
			b.WriteString("\n### Better\n\n")
			for _, c := range s.Better {
				fmt.Fprintf(&b, "- %s: %s %d/%d → %s %d/%d\n", mdCell(c.ID), c.Before, c.ValidThen, c.TotalThen, c.After, c.ValidNow, c.TotalNow)
			}
		}
		if len(s.Added)+len(s.Removed) > 0 {
			fmt.Fprintf(&b, "\nAdded: %s. Removed: %s.\n", mdList(s.Added), mdList(s.Removed))
		}
	}
	b.WriteString("\n## Memories (worst first)\n\n| Memory | Status | Citations | Confidence | Last verified | Staleness |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, m := range r.Memories {
		lv := m.LastVerified
		if lv == "" {
			lv = "never"
		}
		cites := "–"
		if m.Total > 0 {
			cites = fmt.Sprintf("%d/%d", m.Valid, m.Total)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f | %s | %s |\n", mdCell(m.ID), m.Status, cites, m.Confidence, mdCell(lv), mdCell(m.Staleness()))
	}
	b.WriteString("\n## Folders\n\n| Folder | Memories | Cited | Stale | Stale share |\n| --- | --- | --- | --- | --- |\n")
	for _, f := range r.Folders {
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", mdCell(f.Folder), f.Memories, f.WithCitations, f.Stale, pctOf(f.Stale, f.WithCitations))
	}
	if len(r.Dangling) > 0 {
		b.WriteString("\n## Dangling links\n\n")
		for _, l := range r.Dangling {
			fmt.Fprintf(&b, "- %s:%d: %s %s → %s (%s)\n", mdCell(l.FromPath), l.Line, mdCell(l.From), l.Type, mdCell(l.Target), mdCell(l.Reason))
		}
	}
	if len(r.Orphans) > 0 {
		fmt.Fprintf(&b, "\n## Orphans (no links in or out)\n\n%s\n", mdList(r.Orphans))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func mdList(ids []string) string {
	if len(ids) == 0 {
		return "none"
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = mdCell(id)
	}
	return strings.Join(out, ", ")
}

// bar is one bar of the per-folder chart.
type bar struct {
	Folder       string
	Y, W, TextY  int
	Share        string
	Stale, Cited int
}

// HealthHTML writes the report as one self-contained page: no network
// requests, inline CSS, a sortable table (click a header) and an inline SVG
// bar chart of the stale share per folder. A script stamps
// data-ready="N rows" and data-first (the first row's memory) on <body>
// once the table is set up, which the browser test reads; #sort=N in the
// URL sorts by column N first.
func HealthHTML(w io.Writer, r *health.Report) error {
	// the chart shows folders with cited memories, worst first; folders
	// without any (a stale share of 0/0) would only push the table down
	charted := make([]health.Folder, 0, len(r.Folders))
	for _, f := range r.Folders {
		if f.WithCitations > 0 {
			charted = append(charted, f)
		}
	}
	sort.SliceStable(charted, func(i, j int) bool {
		if charted[i].StaleShare != charted[j].StaleShare {
			return charted[i].StaleShare > charted[j].StaleShare
		}
		return charted[i].Stale > charted[j].Stale
	})
	more := 0
	if len(charted) > maxBars {
		charted, more = charted[:maxBars], len(charted)-maxBars
	}
	bars := make([]bar, 0, len(charted))
	for i, f := range charted {
		bars = append(bars, bar{Folder: f.Folder, Y: 8 + i*22, W: int(f.StaleShare*300 + 0.5), TextY: 8 + i*22 + 14, Share: pctOf(f.Stale, f.WithCitations), Stale: f.Stale, Cited: f.WithCitations})
	}
	data := struct {
		R       *health.Report
		Bars    []bar
		Height  int
		Uncited int // folders without cited memories, not charted
		More    int // folders with cited memories beyond maxBars
	}{r, bars, 16 + 22*len(bars), len(r.Folders) - len(charted) - more, more}
	return healthTmpl().Execute(w, data)
}

// maxBars is the most folders the chart shows; the table lists them all.
const maxBars = 40

// healthTmpl is parsed when first used (not when any command starts).
var healthTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("health").Funcs(template.FuncMap{
		"pctOf": pctOf,
		"safe":  Safe,
		"count": count,
		"ratio": func(v, t int) string {
			if t == 0 {
				return "–"
			}
			return fmt.Sprintf("%d/%d", v, t)
		},
		"short": func(s string) string { return s[:min(len(s), 12)] },
	}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
<title>Memory Health Report</title>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 2em; color: #111; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th[data-sort] { cursor: pointer; background: #f3f4f6; }
th[data-sort]:after { content: " ⇅"; color: #999; }
tr.stale td.status { color: #b91c1c; font-weight: bold; }
tr.error td.status { color: #7f1d1d; font-weight: bold; }
tr.healthy td.status { color: #15803d; }
.num { text-align: right; }
svg text { font: 12px system-ui, sans-serif; }
</style>
</head>
<body data-ready="">
<h1>Memory Health Report</h1>
<p>Source: {{safe .R.Source}}</p>
<h2>Summary</h2>
<table id="summary">
<tr><th>Memories</th><td class="num">{{.R.Totals.Memories}}</td></tr>
<tr><th>With ≥ 1 citation (coverage)</th><td class="num">{{.R.Totals.WithCitations}} ({{pctOf .R.Totals.WithCitations .R.Totals.Memories}})</td></tr>
<tr><th>Citations (valid / stale)</th><td class="num">{{.R.Totals.Citations}} ({{.R.Totals.ValidCitations}} / {{.R.Totals.StaleCitations}})</td></tr>
<tr><th>Citations per cited memory</th><td class="num">{{printf "%.2f" .R.Totals.CitationsPerMemory}}</td></tr>
<tr><th>Citations without a snippet (line number only)</th><td class="num">{{.R.Totals.LineOnly}}</td></tr>
<tr><th>Stale share (of cited memories)</th><td class="num">{{pctOf .R.Totals.Stale .R.Totals.WithCitations}}</td></tr>
<tr><th>Never verified</th><td class="num">{{.R.Totals.NeverVerified}}</td></tr>
<tr><th>All citations in deleted files</th><td class="num">{{.R.Totals.AllDeleted}}</td></tr>
<tr><th>Uncited / exempt / errors</th><td class="num">{{.R.Totals.Uncited}} / {{.R.Totals.Exempt}} / {{.R.Totals.Errors}}</td></tr>
<tr><th>Dangling links / orphans</th><td class="num">{{.R.Totals.DanglingLinks}} / {{.R.Totals.Orphans}}</td></tr>
</table>
{{with .R.Since}}<h2>Since {{safe .Rev}} ({{short .Commit}})</h2>
{{if .Worse}}<table id="worse"><tr><th>Memory</th><th>Then</th><th>Now</th><th>New problems</th></tr>
{{range .Worse}}<tr><td>{{safe .ID}}</td><td>{{.Before}} {{ratio .ValidThen .TotalThen}}</td><td>{{.After}} {{ratio .ValidNow .TotalNow}}</td><td>{{range .NewReasons}}{{safe .}}<br>{{end}}</td></tr>
{{end}}</table>{{else}}<p>Nothing got worse.</p>{{end}}
{{end}}<h2>Stale share per folder</h2>
{{if .Bars}}<svg id="chart" role="img" aria-label="Stale share per folder" width="640" height="{{.Height}}" xmlns="http://www.w3.org/2000/svg">
{{range .Bars}}<text x="0" y="{{.TextY}}">{{safe .Folder}}</text>
<rect x="200" y="{{.Y}}" width="300" height="16" fill="#e5e7eb"/>
<rect class="bar" x="200" y="{{.Y}}" width="{{.W}}" height="16" fill="#dc2626"><title>{{safe .Folder}}: {{.Stale}} of {{.Cited}} cited memories stale</title></rect>
<text x="510" y="{{.TextY}}">{{.Share}} ({{.Stale}}/{{.Cited}})</text>
{{end}}</svg>{{else}}<p>No folder has cited memories.</p>{{end}}{{if or .Uncited .More}}
<p id="chart-note">Worst first. Not charted (see the Folders table):{{if .More}} {{count .More "more folder" "more folders"}} with cited memories{{if .Uncited}};{{end}}{{end}}{{if .Uncited}} {{count .Uncited "folder" "folders"}} without cited memories{{end}}.</p>{{end}}
<h2>Memories (worst first)</h2>
<table id="memories">
<thead><tr><th data-sort="text">Memory</th><th data-sort="text">Folder</th><th data-sort="text">Status</th><th data-sort="num">Valid</th><th data-sort="num">Total</th><th data-sort="num">Confidence</th><th data-sort="text">Last verified</th><th>Staleness</th></tr></thead>
<tbody>
{{range .R.Memories}}<tr class="{{.Status}}"><td>{{safe .ID}}</td><td>{{safe .Folder}}</td><td class="status">{{.Status}}</td><td class="num">{{.Valid}}</td><td class="num">{{.Total}}</td><td class="num">{{printf "%.2f" .Confidence}}</td><td>{{if .LastVerified}}{{safe .LastVerified}}{{else}}never{{end}}</td><td>{{safe .Staleness}}</td></tr>
{{end}}</tbody>
</table>
<h2>Folders</h2>
<table id="folders"><tr><th>Folder</th><th>Memories</th><th>Cited</th><th>Stale</th><th>Stale share</th></tr>
{{range .R.Folders}}<tr><td>{{safe .Folder}}</td><td class="num">{{.Memories}}</td><td class="num">{{.WithCitations}}</td><td class="num">{{.Stale}}</td><td class="num">{{pctOf .Stale .WithCitations}}</td></tr>
{{end}}</table>
{{if .R.Dangling}}<h2>Dangling links</h2><ul id="dangling">
{{range .R.Dangling}}<li>{{safe .FromPath}}:{{.Line}}: {{safe .From}} {{.Type}} → {{safe .Target}} ({{safe .Reason}})</li>
{{end}}</ul>{{end}}
{{if .R.Orphans}}<h2>Orphans</h2><p id="orphans">{{range $i, $o := .R.Orphans}}{{if $i}}, {{end}}{{safe $o}}{{end}}</p>{{end}}
<script>
(function () {
  var table = document.getElementById("memories");
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    var kind = th.getAttribute("data-sort");
    if (!kind) { return; }
    th.addEventListener("click", function () {
      var asc = th.getAttribute("data-dir") !== "asc";
      th.setAttribute("data-dir", asc ? "asc" : "desc");
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = a.cells[col].textContent, y = b.cells[col].textContent;
        var c = kind === "num" ? parseFloat(x) - parseFloat(y) : x.localeCompare(y);
        return asc ? c : -c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
  // #sort=N clicks header N once (N from 0), so tests can check sorting.
  var m = /^#sort=(\d+)$/.exec(location.hash);
  if (m && heads[+m[1]]) { heads[+m[1]].click(); }
  document.body.setAttribute("data-first", body.rows.length ? body.rows[0].cells[0].textContent : "");
  document.body.setAttribute("data-ready", body.rows.length + " rows");
})();
</script>
</body>
</html>
`))
})

// Health writes the health report in format: json, html, else markdown.
func Health(w io.Writer, format string, r *health.Report) error {
	switch format {
	case "json":
		return HealthJSON(w, r)
	case "html":
		return HealthHTML(w, r)
	}
	return HealthMarkdown(w, r)
}

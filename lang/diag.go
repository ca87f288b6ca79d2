package lang

import (
	"fmt"
	"sort"
	"strings"
)

// Diagnostic is one problem found in a source, with an optional chain of
// related positions (the steps of a reference cycle, an earlier definition).
type Diagnostic struct {
	Pos   Pos
	Msg   string
	Notes []Note
}

// Note is a secondary position attached to a Diagnostic.
type Note struct {
	Pos Pos
	Msg string
}

// Errorf builds a Diagnostic at pos.
func Errorf(pos Pos, format string, args ...any) *Diagnostic {
	return &Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// Error renders the diagnostic as "file:line:col: message", the source line
// and a caret under the column, followed by its notes.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	writeSnippet(&b, d.Pos, d.Msg)
	for _, n := range d.Notes {
		writeSnippet(&b, n.Pos, n.Msg)
	}
	return strings.TrimRight(b.String(), "\n")
}

func writeSnippet(b *strings.Builder, p Pos, msg string) {
	if !p.IsValid() && p.Src == nil {
		fmt.Fprintf(b, "%s\n", msg) // no position: the message names its subject
		return
	}
	fmt.Fprintf(b, "%s: %s\n", p, msg)
	if !p.IsValid() || p.Src == nil {
		return
	}
	line := p.Src.Line(p.Line)
	if line == "" {
		return
	}
	runes := []rune(strings.ReplaceAll(line, "\t", " "))
	pad := min(p.Col-1, len(runes))
	// Show a window of a long line around the column.
	const width = 100
	if len(runes) > width {
		start := max(0, min(pad-width/2, len(runes)-width))
		end := min(len(runes), start+width)
		prefix, suffix := "", ""
		if start > 0 {
			prefix = "…"
		}
		if end < len(runes) {
			suffix = "…"
		}
		runes = []rune(prefix + string(runes[start:end]) + suffix)
		pad = pad - start + len([]rune(prefix))
	}
	fmt.Fprintf(b, "    %s\n", string(runes))
	fmt.Fprintf(b, "    %s^\n", strings.Repeat(" ", pad))
}

// Diagnostics collects every problem found in a stage; it is an error when
// non-empty.
type Diagnostics []*Diagnostic

// Add appends a diagnostic built from format.
func (ds *Diagnostics) Add(pos Pos, format string, args ...any) *Diagnostic {
	d := Errorf(pos, format, args...)
	*ds = append(*ds, d)
	return d
}

// Append adds err: a *Diagnostic, Diagnostics, or any other error (without a
// position).
func (ds *Diagnostics) Append(err error) {
	switch e := err.(type) {
	case nil:
	case *Diagnostic:
		*ds = append(*ds, e)
	case Diagnostics:
		*ds = append(*ds, e...)
	default:
		*ds = append(*ds, &Diagnostic{Msg: err.Error()})
	}
}

// Err returns ds as an error, or nil when it is empty. Diagnostics are
// sorted by position and exact repeats are dropped.
func (ds Diagnostics) Err() error {
	if len(ds) == 0 {
		return nil
	}
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i].Pos, ds[j].Pos
		an, bn := srcName(a), srcName(b)
		if an != bn {
			return an < bn
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	out := ds[:0]
	seen := map[string]bool{}
	for _, d := range ds {
		k := d.Pos.String() + "\x00" + d.Msg
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

func srcName(p Pos) string {
	if p.Src == nil {
		return ""
	}
	return p.Src.Name
}

func (ds Diagnostics) Error() string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = d.Error()
	}
	return strings.Join(parts, "\n")
}

// Suggest returns the candidate closest to name by edit distance when it is
// close enough to be a likely typo, or "".
func Suggest(name string, candidates []string) string {
	best, bestD := "", 1<<30
	limit := len(name)/3 + 1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	if bestD <= limit {
		return best
	}
	return ""
}

// DidYouMean formats Suggest's answer as a message suffix.
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

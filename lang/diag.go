package lang

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Diagnostic is one problem found in a source, with an optional chain of
// related positions (the steps of a reference cycle, an earlier definition).
// Pos is where the caret goes; End, when set on the same line, ends the
// range the snippet underlines (^~~~), one past its last column.
type Diagnostic struct {
	Pos      Pos
	End      Pos
	Severity Severity
	Msg      string
	Notes    []Note
}

// Severity says whether a diagnostic fails the input (Error) or points at
// a value that is legal but suspicious (Warning).
type Severity uint8

const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// Warningf builds a warning at pos.
func Warningf(pos Pos, format string, args ...any) *Diagnostic {
	d := Errorf(pos, format, args...)
	d.Severity = Warning
	return d
}

// Span sets the end of the diagnostic's range and returns it.
func (d *Diagnostic) Span(end Pos) *Diagnostic {
	d.End = end
	return d
}

// Note is a secondary position attached to a Diagnostic.
type Note struct {
	Pos Pos
	Msg string
}

// Errorf builds a Diagnostic at pos. A string or error argument longer than
// MaxArgLen runes is cut to an excerpt, so a message that echoes user text
// (a 100,000-digit literal, a long identifier, a line of a binary file)
// stays readable; sites that quote a name use Excerpt for a shorter one.
func Errorf(pos Pos, format string, args ...any) *Diagnostic {
	return &Diagnostic{Pos: pos, Msg: fmt.Sprintf(format, boundArgs(args)...)}
}

// MaxArgLen bounds each string Errorf formats; MaxExcerpt bounds a quoted
// name or literal (Excerpt).
const (
	MaxArgLen  = 400
	MaxExcerpt = 60
)

func boundArgs(args []any) []any {
	var out []any
	for i, a := range args {
		var s string
		switch a := a.(type) {
		case string:
			s = a
		case error:
			s = a.Error()
		default:
			continue
		}
		if len(s) <= MaxArgLen {
			continue // shorter in bytes, so in runes too
		}
		if cut := excerpt(s, MaxArgLen); cut != s {
			if out == nil {
				out = append([]any(nil), args...)
			}
			out[i] = cut
		}
	}
	if out == nil {
		return args
	}
	return out
}

// Excerpt returns s, or when it is longer than MaxExcerpt runes its start
// and end joined by "…", for quoting user text in a message.
func Excerpt(s string) string { return excerpt(s, MaxExcerpt) }

// excerpt cuts s to at most n runes: the first three quarters and the last
// quarter, around "…". It looks only at the ends of s, so a megabyte
// costs no more than a word.
func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	tail := n / 4
	head := n - tail - 1
	// Find where the head ends, counting runes from the start.
	i, k := 0, 0
	for k < head && i < len(s) {
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
		k++
	}
	// Find where the tail starts, counting runes from the end.
	j, t := len(s), 0
	for t < tail && j > i {
		_, w := utf8.DecodeLastRuneInString(s[:j])
		j -= w
		t++
	}
	if _, w := utf8.DecodeRuneInString(s[i:j]); w >= j-i {
		return s // at most one rune would be cut: keep it whole
	}
	return s[:i] + "…" + s[j:]
}

// Error renders the diagnostic as "file:line:col: message", the source line
// and a caret under the column, followed by its notes.
func (d *Diagnostic) Error() string {
	var b strings.Builder
	msg := d.Msg
	if d.Severity == Warning {
		msg = "warning: " + msg
	}
	writeSnippet(&b, d.Pos, d.End, msg)
	for _, n := range d.Notes {
		writeSnippet(&b, n.Pos, Pos{}, n.Msg)
	}
	return strings.TrimRight(b.String(), "\n")
}

// snippetWidth is how many columns of a source line an error shows around
// its caret.
const snippetWidth = 100

func writeSnippet(b *strings.Builder, p, end Pos, msg string) {
	if !p.IsValid() && p.Src == nil {
		fmt.Fprintf(b, "%s\n", msg) // no position: the message names its subject
		return
	}
	fmt.Fprintf(b, "%s: %s\n", PosString(p), msg)
	if !p.IsValid() || p.Src == nil {
		return
	}
	line := p.Src.Line(p.Line)
	if line == "" {
		return
	}
	text, pad := window(line, p.Col-1, snippetWidth)
	// The underline runs to the range's end, within what the window shows.
	tildes := 0
	if end.Src.Same(p.Src) && end.Line == p.Line && end.Col > p.Col+1 {
		shown := utf8.RuneCountInString(text)
		if strings.HasSuffix(text, "…") {
			shown--
		}
		tildes = max(0, min(end.Col-p.Col-1, shown-pad-1))
	}
	fmt.Fprintf(b, "    %s\n", text)
	fmt.Fprintf(b, "    %s^%s\n", strings.Repeat(" ", pad), strings.Repeat("~", tildes))
}

// PosString prints a position as diagnostics show it: "file:line:col", or
// for text given on the command line (a source named after its flag, such
// as "--set delta=2 us") "--set delta=2 us: line:col", so the flag and its
// value read as one name.
func PosString(p Pos) string {
	if p.Src != nil && p.IsValid() && IsFlagSource(p.Src.Name) {
		return fmt.Sprintf("%s: %d:%d", p.Src.Name, p.Line, p.Col)
	}
	return p.String()
}

// IsFlagSource reports whether a source name is a command-line flag or a
// REPL command with its value ("--set delta=2us", ":set delta=2us")
// rather than a file.
func IsFlagSource(name string) bool {
	return (strings.HasPrefix(name, "--") || strings.HasPrefix(name, ":")) && strings.ContainsAny(name, " =")
}

// window cuts a source line longer than width runes to width runes around
// column col (0-based, in runes), marking each cut end with "…", and
// returns the text and the caret's column in it. A tab shows as one space,
// as columns count it as one rune. The line is never copied whole, so a
// megabyte line (a binary file, a generated expression) costs one scan.
func window(line string, col, width int) (string, int) {
	total := utf8.RuneCountInString(line)
	pad := min(max(col, 0), total)
	start, end := 0, total
	if total > width {
		start = max(0, min(pad-width/2, total-width))
		end = start + width
	}
	var b strings.Builder
	if start > 0 {
		b.WriteString("…")
	}
	k := 0
	for _, r := range line {
		if k >= end {
			break
		}
		if k >= start {
			if r == '\t' {
				r = ' '
			}
			b.WriteRune(r)
		}
		k++
	}
	if end < total {
		b.WriteString("…")
	}
	pad -= start
	if start > 0 {
		pad++ // the leading "…"
	}
	return b.String(), pad
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

// Split separates errors from warnings, keeping their order.
func (ds Diagnostics) Split() (errs, warns Diagnostics) {
	for _, d := range ds {
		if d.Severity == Warning {
			warns = append(warns, d)
		} else {
			errs = append(errs, d)
		}
	}
	return errs, warns
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
// close enough to be a likely typo, or "". Its cost is bounded whatever the
// input: names longer than maxSuggestLen get no suggestion, candidates
// whose length alone puts them too far are skipped, and the distance stops
// as soon as it exceeds what could still be suggested.
func Suggest(name string, candidates []string) string {
	n := utf8.RuneCountInString(name)
	if n > maxSuggestLen {
		return ""
	}
	lower := []rune(strings.ToLower(name))
	limit := n/3 + 1
	best, bestD := "", limit+1
	var buf distBuf
	for _, c := range candidates {
		if c == name {
			continue
		}
		m := utf8.RuneCountInString(c)
		if m-n > bestD || n-m > bestD {
			continue
		}
		d := buf.within(lower, []rune(strings.ToLower(c)), bestD)
		if d < bestD || (d == bestD && d <= limit && c < best) {
			best, bestD = c, d
		}
	}
	if bestD <= limit {
		return best
	}
	return ""
}

// maxSuggestLen is the longest name Suggest considers; nobody mistypes a
// name that long by a letter or two.
const maxSuggestLen = 64

// DidYouMean formats Suggest's answer as a message suffix.
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return fmt.Sprintf(" (did you mean %q?)", s)
	}
	return ""
}

// distBuf holds the rows of the edit distance, reused across candidates.
type distBuf struct{ prev, cur []int }

// within is the edit distance of a and b, or limit+1 as soon as it is
// certain to exceed limit: only the band of cells within limit of the
// diagonal can hold such a distance, and each row's minimum never
// decreases.
func (d *distBuf) within(a, b []rune, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	inf := limit + 1
	if cap(d.prev) < len(b)+1 {
		d.prev, d.cur = make([]int, len(b)+1), make([]int, len(b)+1)
	}
	prev, cur := d.prev[:len(b)+1], d.cur[:len(b)+1]
	for j := range prev {
		prev[j] = min(j, inf)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-limit), min(len(b), i+limit)
		cur[0] = min(i, inf)
		if lo > 1 {
			cur[lo-1] = inf
		}
		rowMin := cur[0]
		if lo > 1 {
			rowMin = inf
		}
		for j := lo; j <= hi; j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, inf)
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if hi < len(b) {
			cur[hi+1] = inf
		}
		if rowMin > limit {
			return inf
		}
		prev, cur = cur, prev
	}
	return min(prev[len(b)], inf)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

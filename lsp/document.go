package lsp

import (
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// document is one open document at one version, with what is known of it.
type document struct {
	uri     protocol.DocumentUri
	path    string // the file it is, for eval (uriPath)
	version protocol.Integer
	text    string
	lines   lines
	s       *server

	// file is the text parsed, nil when it does not parse.
	file *lang.File
	// machines are the document's machines loaded, by name, made on first
	// use (hover, completion); a machine that does not load is absent.
	machines map[string]*eval.Machine
	loaded   bool
	// skipped are the lines left out to load the machines (machine).
	skipped []int
}

func newDocument(uri protocol.DocumentUri, version protocol.Integer, text string, s *server) *document {
	d := &document{uri: uri, path: uriPath(uri), version: version, text: text, lines: lineStarts(text), s: s}
	d.file, _ = parser.ParseFile(d.path, text)
	return d
}

// options are eval's options for this document, reading text as its
// content: other open documents are read as the editor holds them, other
// files from disk.
func (d *document) options(text string, more ...eval.Option) []eval.Option {
	return d.optionsWith(text, func(path string) (string, bool) {
		if o := d.s.openAt(path); o != nil {
			return o.text, true
		}
		return "", false
	}, more...)
}

// optionsWith is options with open giving the text of an open document.
func (d *document) optionsWith(text string, open func(path string) (string, bool), more ...eval.Option) []eval.Option {
	read := func(path string) ([]byte, error) {
		if filepath.Clean(path) == filepath.Clean(d.path) {
			return []byte(text), nil
		}
		if t, ok := open(path); ok {
			return []byte(t), nil
		}
		return eval.ReadInput(path, d.s.opts.MaxMemory)
	}
	return append([]eval.Option{eval.WithReadFile(read), eval.WithMaxMemory(d.s.opts.MaxMemory)}, more...)
}

// openAt is the open document whose file is path, or nil.
func (s *server) openAt(path string) *document {
	if d := s.docs[pathURI(path)]; d != nil {
		return d
	}
	for _, d := range s.docs { // a URI that is no file: its name is the path
		if filepath.Clean(d.path) == filepath.Clean(path) {
			return d
		}
	}
	return nil
}

// maxRepairs bounds how many times loading a document's machines drops
// the statements in error and tries again.
const maxRepairs = 4

// machine is the loaded machine called name, or the document's first when
// name is "" (statements outside any machine), or nil.
//
// A machine with an error in one field (a misspelt name, a bad unit)
// still has values worth showing: the statements in error are blanked
// (spaces, so every offset and line stays where it is) and the machines
// loaded again, a few times at most. The hover says which lines were left
// out (d.skipped).
func (d *document) machine(name string) *eval.Machine {
	if d.loaded {
		return d.machines[name]
	}
	d.loaded = true
	d.machines = map[string]*eval.Machine{}
	text := d.text
	for try := 0; try <= maxRepairs; try++ {
		names, err := eval.MachineNames(d.path, d.options(text)...)
		if err != nil {
			break
		}
		var failed []error
		for _, n := range names {
			if d.machines[n] != nil {
				continue
			}
			m, err := eval.Load(d.path, d.options(text, eval.WithMachine(n))...)
			if err != nil {
				failed = append(failed, err)
				continue
			}
			d.machines[n] = m
		}
		if len(failed) == 0 || try == maxRepairs {
			break
		}
		patched := d.blankErrors(text, failed)
		if patched == text {
			break
		}
		text = patched
	}
	for _, n := range d.order() {
		if m := d.machines[n]; m != nil && d.machines[""] == nil {
			d.machines[""] = m
		}
	}
	if len(d.machines) > 0 {
		d.s.lastGood[d.uri] = d.machines
	}
	return d.machines[name]
}

// order lists the document's machines in the order they are written.
func (d *document) order() []string {
	var out []string
	if d.file != nil {
		for _, st := range d.file.Stmts {
			if m, ok := st.(*lang.Machine); ok {
				out = append(out, m.Name)
			}
		}
	}
	return out
}

// blankErrors is text with the lines of each field an error of errs
// points at replaced by spaces, and records them in d.skipped.
func (d *document) blankErrors(text string, errs []error) string {
	if d.file == nil {
		return text
	}
	b := []byte(text)
	for _, err := range errs {
		var ds lang.Diagnostics
		var one *lang.Diagnostic
		switch {
		case errors.As(err, &ds):
		case errors.As(err, &one):
			ds = lang.Diagnostics{one}
		}
		for _, g := range ds {
			if !d.here(g.Pos) || g.Pos.Offset >= len(b) {
				continue
			}
			sp := locate(d.file, g.Pos.Offset)
			if sp.field == nil || sp.field.Value == nil {
				continue
			}
			a := strings.LastIndexByte(text[:sp.field.Pos.Offset], '\n') + 1
			end := lang.End(sp.field.Value)
			if !end.IsValid() {
				continue
			}
			z := end.Offset
			for z < len(text) && text[z] != '\n' {
				z++
			}
			if strings.ContainsAny(text[a:z], "{}") {
				continue // the line holds more than the field
			}
			for i := a; i < z; i++ {
				if b[i] != '\n' && b[i] != '\r' {
					b[i] = ' '
				}
			}
			d.skipped = append(d.skipped, g.Pos.Line)
		}
	}
	return string(b)
}

// diagnose is what `parasol check` says of the document: eval.InspectFile
// on its text, errors and warnings with their ranges, with open giving the
// other open documents' texts. A diagnostic in another file (an import) is
// shown at the start of the document, naming where it is. It reads only
// what does not change once the document is made, so it may run beside
// the request loop.
func (d *document) diagnose(open map[string]string) []protocol.Diagnostic {
	_, ds := eval.InspectFile(d.path, d.optionsWith(d.text, func(path string) (string, bool) {
		t, ok := open[filepath.Clean(path)]
		return t, ok
	})...)
	out := []protocol.Diagnostic{}
	for _, g := range ds {
		out = append(out, d.diagnostic(g))
	}
	return out
}

var source = "parasol"

func (d *document) diagnostic(g *lang.Diagnostic) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityError
	if g.Severity == lang.Warning {
		sev = protocol.DiagnosticSeverityWarning
	}
	pd := protocol.Diagnostic{Severity: &sev, Source: &source, Message: g.Msg}
	if d.here(g.Pos) {
		pd.Range = d.rangeOf(g.Pos, g.End)
	} else {
		pd.Message = lang.PosString(g.Pos) + ": " + g.Msg
	}
	for _, n := range g.Notes {
		if n.Pos.Src == nil || !n.Pos.IsValid() {
			pd.Message += "\n" + n.Msg
			continue
		}
		loc := protocol.Location{URI: pathURI(n.Pos.Src.Name), Range: d.rangeOf(n.Pos, lang.Pos{})}
		if d.here(n.Pos) {
			loc.URI = d.uri
		} else {
			loc.Range = foreignRange(n.Pos)
		}
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{Location: loc, Message: n.Msg})
	}
	if w := didYouMean(g.Msg); w != "" && d.here(g.Pos) {
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: d.uri, Range: pd.Range}, Message: "did you mean " + w + "? (a quick fix replaces it)"})
	}
	return pd
}

// here reports whether p is a position in this document.
func (d *document) here(p lang.Pos) bool {
	return p.Src != nil && p.IsValid() && (p.Src.Name == d.path || p.Src.Text == d.text)
}

// rangeOf is the range of a diagnostic at p: to end when it is set, else
// the name at p, else the rest of p's line.
func (d *document) rangeOf(p, end lang.Pos) protocol.Range {
	start := d.lines.fromPos(d.text, p)
	a := d.lines.offset(d.text, start)
	if end.IsValid() && (end.Src == p.Src || end.Src != nil && end.Src.Name == p.Src.Name) {
		b := d.lines.offset(d.text, d.lines.fromPos(d.text, end))
		if b > a {
			return d.lines.span(d.text, a, b)
		}
	}
	if _, b := wordAt(d.text, a); b > a {
		return d.lines.span(d.text, a, b)
	}
	b := a
	for b < len(d.text) && d.text[b] != '\n' {
		b++
	}
	return d.lines.span(d.text, a, b)
}

// foreignRange is p's line and column in a file that is not open.
func foreignRange(p lang.Pos) protocol.Range {
	at := protocol.Position{Line: protocol.UInteger(max(p.Line-1, 0)), Character: protocol.UInteger(max(p.Col-1, 0))}
	return protocol.Range{Start: at, End: at}
}

// suggestion matches the end lang.DidYouMean gives a message.
var suggestion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(did you mean "([^"]+)"\?\)`) })

// didYouMean is the name a message suggests, or "".
func didYouMean(msg string) string {
	if m := suggestion().FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
}

// codeActions are the quick fixes for the diagnostics the client shows:
// each that suggests a name gets one replacing its range by the name.
func codeActions(d *document, ds []protocol.Diagnostic) []protocol.CodeAction {
	out := []protocol.CodeAction{}
	kind := protocol.CodeActionKindQuickFix
	for _, g := range ds {
		w := didYouMean(g.Message)
		if w == "" {
			continue
		}
		out = append(out, protocol.CodeAction{
			Title: "Change to " + w, Kind: &kind, Diagnostics: []protocol.Diagnostic{g}, IsPreferred: &protocol.True,
			Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentUri][]protocol.TextEdit{d.uri: {{Range: g.Range, NewText: w}}}},
		})
	}
	return out
}

package lsp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The contract: initialize advertises hover, completion, definition,
// references, formatting and document symbols.
func TestInitializeAdvertisesTheFeatures(t *testing.T) {
	c := start(t)
	caps := c.initialize()
	for _, k := range []string{"hoverProvider", "completionProvider", "definitionProvider",
		"referencesProvider", "documentFormattingProvider", "documentSymbolProvider", "codeActionProvider"} {
		if v, ok := caps[k]; !ok || v == false {
			t.Errorf("capabilities lack %s: %v", k, caps)
		}
	}
	sync, _ := caps["textDocumentSync"].(map[string]any)
	if sync["openClose"] != true || sync["change"] != float64(1) {
		t.Errorf("textDocumentSync = %v, want open/close and full changes", sync)
	}
}

// The contract: a topology with swiching = wormhole publishes a
// diagnostic whose message names switching, with the range of the
// misspelt name, and a quick fix that writes switching there.
func TestMisspeltFieldIsADiagnosticWithAQuickFix(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	ds := c.open(uri, text)
	if len(ds) != 1 {
		t.Fatalf("got %d diagnostics, want 1 (as parasol check): %+v", len(ds), ds)
	}
	d := ds[0]
	if !strings.Contains(d.Message, "switching") || d.Severity != 1 {
		t.Errorf("diagnostic = %+v, want an error naming switching", d)
	}
	want := span{Start: find(t, text, "swiching", 0, 0), End: find(t, text, "swiching", 0, len("swiching"))}
	if d.Range != want {
		t.Errorf("range = %+v, want %+v (the misspelt name, line 12)", d.Range, want)
	}
	var actions []struct {
		Title string `json:"title"`
		Edit  struct {
			Changes map[string][]textEdit `json:"changes"`
		} `json:"edit"`
	}
	c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": d.Range, "context": map[string]any{"diagnostics": []any{d}}}, &actions)
	if len(actions) != 1 || len(actions[0].Edit.Changes[uri]) != 1 {
		t.Fatalf("code actions = %+v, want one edit", actions)
	}
	if e := actions[0].Edit.Changes[uri][0]; e.NewText != "switching" || e.Range != want {
		t.Errorf("quick fix = %+v, want switching over %+v", e, want)
	}
	// Applying the fix leaves what check says of the fixed file: only the
	// warning that shortest routing on a torus can deadlock under
	// wormhole switching.
	fixed := strings.Replace(text, "swiching", "switching", 1)
	ds = c.change(uri, fixed, 2)
	if len(ds) != 1 || ds[0].Severity != 2 || !strings.Contains(ds[0].Message, "can deadlock") {
		t.Errorf("after the fix: %+v, want the deadlock warning", ds)
	}
	// An error introduced by typing is published at the next change.
	ds = c.change(uri, strings.Replace(fixed, "delta + n", "delta + nn", 1), 3)
	if len(ds) == 0 || !strings.Contains(ds[0].Message, "nn") {
		t.Errorf("after typing nn: %+v, want an error naming nn", ds)
	}
}

// The contract: hover on a parameter's name gives its value with its
// unit, even while another line of the machine is in error. The values
// are worked by hand: delta = 2us; t_send = MPI.send(1KB, 0, 1) = delta +
// 1000 B / (1e9 B/s) = 2us + 1us = 3us; diameter of a 4×4 torus = 2 + 2 =
// 4; both = h_off (400ns, imported) + delta = 2.4us.
func TestHoverGivesValuesWithUnits(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	c.open(uri, text)
	for _, tt := range []struct {
		what       string
		at         position
		want, also string
	}{
		{"a param's name", find(t, text, "delta =", 0, 1), "`2us`", "time"},
		{"a param whose value calls a primitive", find(t, text, "t_send", 0, 0), "`3us`", "time"},
		{"a primitive call", find(t, text, "MPI.send(size", 0, 5), "MPI.send(size, 0, 1)` = `3us`", "function MPI.send(n, src, dst) = `delta + n / 1GB/s`"},
		{"a derived index", find(t, text, "diameter", 0, 2), "`diameter` = `4`", "derived index: largest processor-to-processor distance"},
		{"a param over an imported one", find(t, text, "both", 0, 0), "`2.4us`", "without line 12"},
		{"a name in an expression", find(t, text, "h_off", 0, 1), "`h_off` = `400ns`", ""},
		{"a function's parameter", find(t, text, "+ n /", 0, 2), "a parameter of send: B", ""},
		{"a primitive called with a local", find(t, text, "MPI.send(n, 0, 1)", 0, 5), "depends on n, which is local", "function MPI.send(n, src, dst) = `delta + n / 1GB/s`"},
		{"a field's name", find(t, text, "latency", 0, 0), "`2us`", "time, in s: link latency"},
		{"a topology's label", find(t, text, "topology t", 0, 9), "**topology t**", "nodes and links"},
		{"a block field naming a param", find(t, text, "send_overhead", 0, 0), "= `2us`", "sender software cost"},
	} {
		got := c.hover(uri, tt.at)
		if !strings.Contains(got, tt.want) || !strings.Contains(got, tt.also) {
			t.Errorf("hover on %s at %+v = %q, want %q and %q", tt.what, tt.at, got, tt.want, tt.also)
		}
	}
}

// Hover on a word a field takes gives the registry's line for it, and on
// a topology's generator its signature and what it builds.
func TestHoverOnWordsAndGenerators(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	text = strings.Replace(text, "swiching", "switching", 1)
	c.open(uri, text)
	if h := c.hover(uri, find(t, text, "wormhole", 0, 1)); !strings.HasPrefix(h, "**wormhole**: flits move on at once") {
		t.Errorf("hover on wormhole = %q, want the registry's line for it", h)
	}
	if h := c.hover(uri, find(t, text, "torus(", 0, 1)); !strings.Contains(h, "torus(d1, d2, ...): a grid with wrap-around") {
		t.Errorf("hover on torus(n, n) = %q, want the generator's signature and line", h)
	}
	if h := c.hover(uri, find(t, text, "delta =", 0, 1)); strings.Contains(h, "without line") {
		t.Errorf("hover on delta = %q: the fixed machine loads whole, nothing is left out", h)
	}
}

// Completion offers what fits where the cursor is: the words switching
// takes, units after a number, a model section's primitives after its
// name and a dot, the topology's fields at the start of a line, the
// machine's params in an expression, the standard machines in an import.
func TestCompletionInContext(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	c.open(uri, strings.Replace(text, "swiching", "switching", 1))
	type probe struct {
		what, insert string
		want         []string
	}
	for _, tt := range []probe{
		{"the words of switching", "\t\tswitching = ", []string{"wormhole", "saf", "vct", "circuit"}},
		{"units after a number", "\t\tlatency = 20", []string{"ns", "us", "MB/s"}},
		{"a model section's primitives", "\tparam x = MPI.", []string{"send"}},
		{"a topology's fields", "\t\tarb", []string{"arbitration", "buffering", "flit"}},
		{"params in an expression", "\tparam y = 2 * ", []string{"delta", "size", "diameter", "t_send", "h_off"}},
		{"standard machines in an import", "import \"std:", []string{"std:xmp64"}},
		{"node types", "\t\tnode = ", []string{"q", "p"}},
		{"processor types in a reference", "\tparam z = processor(", []string{"q", "p"}},
		{"topologies in a reference", "\tparam z = topology(", []string{"t"}},
		{"the routings a send names", "\t\tsend(8B, to: 1, routing: ", []string{"shortest", "first-ready", "valiant"}},
	} {
		// Insert a line before the topology's closing brace (or at the
		// top for an import) and complete at its end.
		at := strings.Index(text, "\t\tnode = q\n") + len("\t\tnode = q\n")
		if strings.HasPrefix(tt.insert, "\tparam") {
			at = strings.Index(text, "\tparam hops")
		}
		if strings.HasPrefix(tt.insert, "import") {
			at = 0
		}
		c.checkCompletion(t, uri, text, at, tt.what, tt.insert, tt.want)
	}
}

func at2(uri string, p position) map[string]any { return at(uri, p) }

// Definition and references: a param, a model section's primitive, a
// processor type, a machine named by extends, an import.
func TestDefinitionAndReferences(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	c.open(uri, text)
	baseURI, baseText := fixture(t, "base.machine")
	loc := func(u, txt, word string, n int) location {
		p := find(t, txt, word, n, 0)
		return location{URI: u, Range: span{Start: p, End: position{Line: p.Line, Character: p.Character + len(word)}}}
	}
	for _, tt := range []struct {
		what string
		at   position
		want location
	}{
		{"a param used in a block", find(t, text, "= delta\n", 0, 3), loc(uri, text, "delta", 0)},
		{"a primitive called", find(t, text, "MPI.send(size", 0, 5), loc(uri, text, "send(n", 0)},
		{"a processor type", find(t, text, "node = q", 0, 7), loc(uri, text, "q {", 0)},
		{"an imported param", find(t, text, "h_off", 0, 0), loc(baseURI, baseText, "h_off", 0)},
		{"the machine extended", find(t, text, `"base"`, 0, 2), loc(baseURI, baseText, "base", 0)},
		{"a function's parameter", find(t, text, "+ n /", 0, 2), loc(uri, text, "n: B", 0)},
	} {
		var got []location
		c.call("textDocument/definition", at(uri, tt.at), &got)
		if len(got) != 1 || got[0].URI != tt.want.URI || got[0].Range.Start != tt.want.Range.Start {
			t.Errorf("definition of %s = %+v, want %+v", tt.what, got, tt.want)
		}
	}
	var imp []location
	c.call("textDocument/definition", at(uri, find(t, text, "import", 0, 2)), &imp)
	if len(imp) != 1 || imp[0].URI != baseURI {
		t.Errorf("definition of the import = %+v, want %s", imp, baseURI)
	}
	// delta: its param, the processor's send_overhead, the topology's
	// latency and the primitive's body: 4 with the declaration. n: the
	// machine's param and torus(n, n), not the primitive's own n.
	for _, tt := range []struct {
		word string
		n    int
		want []position
	}{
		{"delta", 0, []position{find(t, text, "delta", 0, 0), find(t, text, "delta", 1, 0), find(t, text, "delta", 2, 0), find(t, text, "delta", 3, 0), find(t, text, "delta", 4, 0)}},
		{"n =", 0, []position{find(t, text, "n =", 0, 0), find(t, text, "(n, n)", 0, 1), find(t, text, "(n, n)", 0, 4)}},
	} {
		var got []location
		c.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": find(t, text, tt.word, tt.n, 0), "context": map[string]any{"includeDeclaration": true}}, &got)
		var starts []position
		for _, l := range got {
			starts = append(starts, l.Range.Start)
		}
		if len(starts) != len(tt.want) {
			t.Errorf("references of %s = %+v, want %+v", tt.word, starts, tt.want)
			continue
		}
		for i := range starts {
			if starts[i] != tt.want[i] {
				t.Errorf("references of %s = %+v, want %+v", tt.word, starts, tt.want)
				break
			}
		}
	}
}

// Formatting is one edit giving what the formatter prints; a formatted
// document needs none.
func TestFormatting(t *testing.T) {
	c := start(t)
	c.initialize()
	uri := "file:///tmp/parasol-lsp-test/fmt.machine"
	messy := "machine \"m\" {\n  param   a=1+2\n processor p {clock=1GHz}\n}\n"
	c.open(uri, messy)
	var edits []textEdit
	c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri},
		"options": map[string]any{"tabSize": 4, "insertSpaces": false}}, &edits)
	want := "machine \"m\" {\n\tparam a = 1 + 2\n\tprocessor p {\n\t\tclock = 1GHz\n\t}\n}\n"
	if len(edits) != 1 || edits[0].NewText != want {
		t.Fatalf("formatting = %+v, want one edit to %q", edits, want)
	}
	if e := edits[0].Range; e.Start != (position{}) || e.End != (position{Line: 4}) {
		t.Errorf("edit range = %+v, want the whole text", e)
	}
	c.change(uri, want, 2)
	c.call("textDocument/formatting", map[string]any{"textDocument": map[string]any{"uri": uri},
		"options": map[string]any{"tabSize": 4, "insertSpaces": false}}, &edits)
	if len(edits) != 0 {
		t.Errorf("formatting a formatted document = %+v, want no edit", edits)
	}
}

// Document symbols: machines with their params, functions, processors,
// topologies, model sections (with their primitives) and programs.
func TestDocumentSymbols(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	c.open(uri, text)
	var syms []symbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	got := flatten(syms, "")
	want := "import:base.machine m m/n m/delta m/size m/q m/t m/MPI m/MPI/send m/MPI/twice m/t_send m/hops m/both"
	if got != want {
		t.Errorf("symbols = %s\nwant      %s", got, want)
	}
}

// flatten lists symbols as parent/name, imports as import:PATH.
func flatten(syms []symbol, parent string) string {
	var out []string
	for _, s := range syms {
		name := parent + s.Name
		if s.Kind == 1 { // File
			name = "import:" + s.Name
		}
		out = append(out, name)
		if len(s.Children) > 0 {
			out = append(out, flatten(s.Children, name+"/"))
		}
	}
	return strings.Join(out, " ")
}

// A Parasol I file gets diagnostics, hover and symbols. examples/
// parasol1.machine's processor(1) has createjob = 48 (nanoseconds in
// Parasol I).
func TestParasolIFiles(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "../../examples/parasol1.machine")
	if ds := c.open(uri, text); len(ds) != 0 {
		t.Errorf("examples/parasol1.machine: %+v, want no diagnostics (check passes it)", ds)
	}
	var syms []symbol
	c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": uri}}, &syms)
	if len(syms) == 0 {
		t.Fatal("no symbols in a Parasol I file")
	}
	p := find(t, text, "createjob", 0, 0)
	if h := c.hover(uri, p); !strings.Contains(h, "createjob") || !strings.Contains(h, "starting a job") {
		t.Errorf("hover on createjob = %q, want its value and documentation", h)
	}
	bad := strings.Replace(text, "createjob", "createjobb", 1)
	ds := c.change(uri, bad, 2)
	if len(ds) == 0 || !strings.Contains(ds[0].Message, "createjob") {
		t.Errorf("a misspelt Parasol I field: %+v, want an error suggesting createjob", ds)
	}
}

// Requests about a document that is not open, and unknown methods, are
// errors; the server goes on answering.
func TestErrorsLeaveTheServerRunning(t *testing.T) {
	c := start(t)
	c.initialize()
	if err := c.try("textDocument/hover", at("file:///nowhere.machine", position{}), nil); err == nil || !strings.Contains(err.Error(), "not open") {
		t.Errorf("hover on a document not open: %v", err)
	}
	if err := c.try("workspace/nonsense", map[string]any{}, nil); err == nil {
		t.Error("an unknown method answered without error")
	}
	var res json.RawMessage
	c.call("shutdown", nil, &res)
}

// Semantic tokens: each token of a small machine with its type, decoded
// from the protocol's relative numbers and compared with the types
// written out by hand.
func TestSemanticTokens(t *testing.T) {
	c := start(t)
	caps := c.initialize()
	if caps["semanticTokensProvider"] == nil {
		t.Fatal("semantic tokens not advertised")
	}
	uri := "file:///tmp/parasol-lsp-test/sem.machine"
	text := "machine \"m\" { # é\n\tparam d = 20ns\n\ttopology t = ring(4) {\n\t\tswitching = wormhole\n\t\tlatency = d\n\t}\n\tparam x = MPI.send(1KB, 0, 1) and true\n}\n"
	c.open(uri, text)
	var res struct {
		Data []int `json:"data"`
	}
	c.call("textDocument/semanticTokens/full", map[string]any{"textDocument": map[string]any{"uri": uri}}, &res)
	if len(res.Data)%5 != 0 {
		t.Fatalf("%d numbers, not five a token", len(res.Data))
	}
	var got []string
	line, col := 0, 0
	for i := 0; i < len(res.Data); i += 5 {
		if res.Data[i] > 0 {
			line, col = line+res.Data[i], 0
		}
		col += res.Data[i+1]
		got = append(got, fmt.Sprintf("%d:%d+%d %s", line, col, res.Data[i+2], tokenTypes[res.Data[i+3]]))
	}
	want := []string{
		"0:0+7 keyword", "0:8+3 string", "0:14+3 comment", // "# é" is three UTF-16 units
		"1:1+5 keyword", "1:7+1 variable", "1:11+4 number",
		"2:1+8 keyword", "2:10+1 variable", "2:14+4 function", "2:19+1 number",
		"3:2+9 property", "3:14+8 enumMember",
		"4:2+7 property", "4:12+1 variable",
		"6:1+5 keyword", "6:7+1 variable", "6:11+3 variable", "6:15+4 function", "6:20+3 number", "6:25+1 number", "6:28+1 number", "6:31+3 operator", "6:35+4 keyword",
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("semantic tokens:\n got %s\nwant %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
}

// An edit of an open file that another open file imports is seen by the
// importer: its diagnostics are published again, from the editor's text
// of the import, not the file on disk.
func TestAnEditOfAnImportIsSeenByTheImporter(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	c.open(uri, strings.Replace(text, "swiching", "switching", 1))
	baseURI, baseText := fixture(t, "base.machine")
	c.open(baseURI, baseText)
	// Opening base.machine checks typo.machine again, against the same
	// text: the deadlock warning only.
	if ds := c.published(uri); len(ds) != 1 || ds[0].Severity != 2 {
		t.Errorf("typo.machine once base.machine is open: %+v, want the warning only", ds)
	}
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": baseURI, "version": 2},
		"contentChanges": []any{map[string]any{"text": strings.Replace(baseText, "h_off", "h_of", 1)}}})
	if ds := c.published(baseURI); len(ds) != 0 {
		t.Errorf("base.machine: %+v, want none", ds)
	}
	ds := c.published(uri)
	if len(ds) == 0 || !strings.Contains(ds[0].Message, "h_off") {
		t.Errorf("typo.machine after h_off was renamed in base.machine: %+v, want an error naming h_off", ds)
	}
}

// In a program, hover says what a name is: a parameter with its unit and
// default, a let with its value, the loop variable with its bounds, rank.
func TestHoverInAProgram(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "../../examples/programs/ring.machine")
	c.open(uri, text)
	for _, tt := range []struct {
		at   position
		want string
	}{
		{find(t, text, "send(n", 0, 5), "**n**: a parameter of program ring: B, by default 1KB"},
		{find(t, text, "to: right", 0, 4), "**right**: let right = mod(rank + 1, ranks)"},
		{find(t, text, "tag: i", 0, 5), "**i**: the loop variable, 1 .. iters"},
		{find(t, text, "mod(rank, 2)", 0, 4), "**rank**: the rank running the program, from 0"},
	} {
		if got := c.hover(uri, tt.at); got != tt.want {
			t.Errorf("hover at %+v = %q, want %q", tt.at, got, tt.want)
		}
	}
}

// Edits sent faster than they are checked: the diagnostics published
// come in the order of the texts, the last for the last text, and a
// closed document's list is left empty.
func TestQuickEditsArePublishedInOrder(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	c.open(uri, text)
	for v := 2; v <= 6; v++ {
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{map[string]any{"text": strings.Replace(text, "swiching", fmt.Sprintf("swiching%d", v), 1)}}})
	}
	last := 1
	for last < 6 {
		p := c.publishedFor(uri)
		if p.Version <= last {
			t.Fatalf("diagnostics of version %d published after those of version %d", p.Version, last)
		}
		last = p.Version
		if len(p.Diagnostics) != 1 || !strings.Contains(p.Diagnostics[0].Message, fmt.Sprintf("swiching%d", last)) {
			t.Errorf("version %d: %+v, want the error of its own text", last, p.Diagnostics)
		}
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	if ds := c.published(uri); len(ds) != 0 {
		t.Errorf("after close: %+v, want none", ds)
	}
}

// References reach across imports: h_off, defined in base.machine and
// used in typo.machine, is found in both from either, when both are open.
func TestReferencesAcrossImports(t *testing.T) {
	c := start(t)
	c.initialize()
	uri, text := fixture(t, "typo.machine")
	c.open(uri, text)
	baseURI, baseText := fixture(t, "base.machine")
	c.open(baseURI, baseText)
	want := []location{
		{URI: uri, Range: span{Start: find(t, text, "h_off", 0, 0), End: find(t, text, "h_off", 0, 5)}},
		{URI: baseURI, Range: span{Start: find(t, baseText, "h_off", 0, 0), End: find(t, baseText, "h_off", 0, 5)}},
	}
	for _, from := range []struct {
		uri string
		at  position
	}{{uri, find(t, text, "h_off", 0, 2)}, {baseURI, find(t, baseText, "h_off", 0, 2)}} {
		var got []location
		c.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": from.uri},
			"position": from.at, "context": map[string]any{"includeDeclaration": true}}, &got)
		if len(got) != 2 || !slices.Contains(got, want[0]) || !slices.Contains(got, want[1]) {
			t.Errorf("references of h_off from %s = %+v, want %+v", from.uri, got, want)
		}
	}
}

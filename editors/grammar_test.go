// Package editors holds the syntax-highlighting grammars for editors; its
// tests hold them to the language: lang's keyword and unit tables, the
// registry's generators and the example machine files.
package editors

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/registry"
)

// rule is a TextMate grammar rule, as much of one as the grammar uses.
type rule struct {
	Name     string             `json:"name"`
	Match    string             `json:"match"`
	Include  string             `json:"include"`
	Captures map[string]capture `json:"captures"`
	Patterns []rule             `json:"patterns"`
	Begin    string             `json:"begin"`
	End      string             `json:"end"`
}

type capture struct {
	Name string `json:"name"`
}

type grammar struct {
	Name       string          `json:"name"`
	ScopeName  string          `json:"scopeName"`
	FileTypes  []string        `json:"fileTypes"`
	Patterns   []rule          `json:"patterns"`
	Repository map[string]rule `json:"repository"`
}

// compiled is a match rule ready to run: anchored forms for a match at the
// start of a line and for one after a character of context, so that \b
// sees the character before the match as Oniguruma does.
type compiled struct {
	rule
	atStart, after *regexp.Regexp
}

func loadGrammar(t *testing.T) (*grammar, []compiled) {
	t.Helper()
	data, err := os.ReadFile("vscode/syntaxes/parasol.tmLanguage.json")
	if err != nil {
		t.Fatal(err)
	}
	// Every field must be one the test runs, so that a rule it does not
	// understand cannot pass unchecked.
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatalf("the grammar is not JSON: %v", err)
	}
	delete(raw, "$schema")
	clean, err := json.Marshal(raw)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(clean)))
	dec.DisallowUnknownFields()
	var g grammar
	if err := dec.Decode(&g); err != nil {
		t.Fatalf("the grammar has a field this test does not know (teach the test what it means): %v", err)
	}
	if g.ScopeName != "source.parasol" || len(g.Patterns) == 0 {
		t.Fatalf("scopeName %q with %d patterns, want source.parasol with some", g.ScopeName, len(g.Patterns))
	}
	var rules []compiled
	var flatten func(rs []rule, depth int)
	flatten = func(rs []rule, depth int) {
		if depth > 10 {
			t.Fatal("includes nest too deep (a cycle?)")
		}
		for _, r := range rs {
			switch {
			case r.Include != "":
				name, ok := strings.CutPrefix(r.Include, "#")
				inc, found := g.Repository[name]
				if !ok || !found {
					t.Fatalf("include %q names no repository entry", r.Include)
				}
				flatten(inc.Patterns, depth+1)
				if inc.Match != "" {
					flatten([]rule{inc}, depth+1)
				}
			case r.Begin != "" || r.End != "":
				t.Fatalf("rule %q uses begin/end, which this test does not run; teach it, or use match", r.Name)
			case r.Match != "":
				// Go's regexp and Oniguruma agree on what the grammar
				// uses: no look-around, no backreferences.
				if _, err := regexp.Compile(r.Match); err != nil {
					t.Fatalf("rule %q: %v", r.Name, err)
				}
				rules = append(rules, compiled{r,
					regexp.MustCompile(`^(?:` + r.Match + `)`),
					regexp.MustCompile(`^(?s:.)(?:` + r.Match + `)`)})
			default:
				flatten(r.Patterns, depth+1)
			}
		}
	}
	flatten(g.Patterns, 0)
	return &g, rules
}

// span is a stretch of a line with one scope.
type span struct {
	start, end int
	scope      string
}

// highlight runs the rules over a line as a TextMate engine does: at each
// position the earliest match wins, the first rule among those starting
// there; a match's scope covers it, its captures their parts.
func highlight(rules []compiled, line string) []span {
	var out []span
	pos := 0
	for pos < len(line) {
		found := false
		for s := pos; s < len(line) && !found; s++ {
			for _, r := range rules {
				var m []int
				if s == 0 {
					m = r.atStart.FindStringSubmatchIndex(line)
				} else if m = r.after.FindStringSubmatchIndex(line[s-1:]); m != nil {
					for i := range m {
						if m[i] >= 0 {
							m[i] += s - 1
						}
					}
					m[0] = s
				}
				if m == nil || m[1] <= s {
					continue
				}
				if r.Name != "" {
					out = append(out, span{s, m[1], r.Name})
				}
				for k, c := range r.Captures {
					i, _ := strconv.Atoi(k)
					if 2*i+1 < len(m) && m[2*i] >= 0 && m[2*i+1] > m[2*i] {
						out = append(out, span{m[2*i], m[2*i+1], c.Name})
					}
				}
				pos, found = m[1], true
				break
			}
		}
		if !found {
			break
		}
	}
	return out
}

// scopeAt is the innermost scope at byte i of the line ("" when none).
func scopeAt(spans []span, i int) string {
	scope := ""
	for _, s := range spans {
		if s.start <= i && i < s.end {
			scope = s.scope // captures come after their match
		}
	}
	return scope
}

func units() []string {
	us := lang.UnitNames()
	sort.Strings(us)
	return us
}

func isKeywordScope(s string) bool {
	return strings.HasPrefix(s, "keyword.") || strings.HasPrefix(s, "constant.language.")
}

// keywordScopes is the scope the TextMate grammar gives each kind of
// keyword.
var keywordScopes = map[lang.KeywordKind]string{
	lang.Control:      "keyword.control.",
	lang.WordOperator: "keyword.operator.",
	lang.Constant:     "constant.language.",
	lang.Declaration:  "keyword.other.declaration.",
}

func TestGrammarHighlightsEveryKeywordOfTheLexer(t *testing.T) {
	_, rules := loadGrammar(t)
	for _, kw := range lang.Keywords() {
		kind, _ := lang.Keyword(kw)
		want := keywordScopes[kind]
		for _, line := range []string{kw, "x " + kw + " y", kw + "(a)", "(" + kw + ")"} {
			i := strings.Index(line, kw)
			for j := i; j < i+len(kw); j++ {
				if s := scopeAt(highlight(rules, line), j); !strings.HasPrefix(s, want) {
					t.Errorf("in %q, %s keyword %s has scope %q at byte %d, want %s*", line, kind, kw, s, j, want)
					break
				}
			}
		}
		// A longer name that starts with a keyword is a name.
		if s := scopeAt(highlight(rules, kw+"s_2"), 0); isKeywordScope(s) {
			t.Errorf("%ss_2 is scoped %q, as if it were the keyword %s", kw, s, kw)
		}
	}
}

func TestGrammarHighlightsEveryUnit(t *testing.T) {
	_, rules := loadGrammar(t)
	for _, u := range units() {
		for _, num := range []string{"4", "1.5", "2e-3", ".5"} {
			line := "x = " + num + u + " + 1"
			spans := highlight(rules, line)
			start := len("x = ")
			for j := start; j < start+len(num); j++ {
				if s := scopeAt(spans, j); !strings.HasPrefix(s, "constant.numeric.") {
					t.Errorf("in %q, the number has scope %q at byte %d, want constant.numeric.*", line, s, j)
					break
				}
			}
			for j := start + len(num); j < start+len(num)+len(u); j++ {
				if s := scopeAt(spans, j); s != "keyword.other.unit.parasol" {
					t.Errorf("in %q, unit %s has scope %q at byte %d, want keyword.other.unit.parasol", line, u, s, j)
					break
				}
			}
		}
	}
}

func TestGrammarHighlightsEveryGenerator(t *testing.T) {
	_, rules := loadGrammar(t)
	for _, gen := range registry.GeneratorNames() {
		line := "topology t = " + gen + "(4)"
		if s := scopeAt(highlight(rules, line), strings.Index(line, gen)); s != "support.function.generator.parasol" {
			t.Errorf("generator %s is scoped %q, want support.function.generator.parasol", gen, s)
		}
	}
}

// tok is a token of a machine file as the lexer reads it.
type tok struct {
	kind       string // comment, string, number, word, punct
	line       int    // 1-based
	start, end int    // byte offsets in the line
	text       string
}

// lexLine splits a line into tokens by the lexer's rules (see
// parser/lexer.go scanToken), which the test checks against the parser:
// comments against File.Comments, numbers against lang.ParseQuantity.
func lexLine(n int, line string) []tok {
	var out []tok
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isLetter := func(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	i := 0
	for i < len(line) {
		c := line[i]
		start := i
		kind := "punct"
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '#' || strings.HasPrefix(line[i:], "//"):
			kind, i = "comment", len(line)
		case c == '"':
			kind = "string"
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
			i = min(i+1, len(line))
		case isDigit(c) || c == '.' && i+1 < len(line) && isDigit(line[i+1]):
			kind = "number"
			for i < len(line) && isDigit(line[i]) {
				i++
			}
			if i+1 < len(line) && line[i] == '.' && isDigit(line[i+1]) {
				for i++; i < len(line) && isDigit(line[i]); i++ {
				}
			}
			if i < len(line) && (line[i] == 'e' || line[i] == 'E') {
				m := i + 1
				if m < len(line) && (line[m] == '+' || line[m] == '-') {
					m++
				}
				if m < len(line) && isDigit(line[m]) {
					for i = m; i < len(line) && isDigit(line[i]); i++ {
					}
				}
			}
			if i < len(line) && line[i] == '%' {
				i++
				break
			}
			u := i
			for u < len(line) {
				r, size := utf8.DecodeRuneInString(line[u:])
				if r < utf8.RuneSelf && isLetter(line[u]) && line[u] != '_' || r == 'µ' || r == 'μ' {
					u += size
					continue
				}
				break
			}
			// a unit over a unit (20Mbit/s, 6ns/B) when the whole is one
			if u > i && u+1 < len(line) && line[u] == '/' && isLetter(line[u+1]) {
				v := u + 1
				for v < len(line) && (isLetter(line[v]) || isDigit(line[v])) {
					v++
				}
				if _, ok := lang.LookupUnit(line[i:v]); ok {
					u = v
				}
			}
			i = u
		case isLetter(c):
			kind = "word"
			for i < len(line) && (isLetter(line[i]) || isDigit(line[i])) {
				i++
			}
		default:
			i = start + max(1, lang.Symbol(line[start:]))
		}
		out = append(out, tok{kind, n, start, i, line[start:i]})
	}
	return out
}

func TestGrammarScopesTheExampleFilesTokenByToken(t *testing.T) {
	_, rules := loadGrammar(t)
	keywords := map[string]bool{}
	for _, kw := range lang.Keywords() {
		keywords[kw] = true
	}
	// The examples, and the standard machines for more of the language.
	files, err := filepath.Glob("../examples/*.machine")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example files: %v", err)
	}
	std, _ := filepath.Glob("../stdlib/machines/*.machine")
	files = append(files, std...)
	checked := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		if parser.IsLegacy(text) {
			continue // the Parasol I format is line-oriented key = value, not this grammar's
		}
		f, err := parser.ParseFile(path, text)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		var comments []string
		for _, c := range f.Comments {
			comments = append(comments, strconv.Itoa(c.Pos.Line)+":"+strconv.Itoa(c.Pos.Col))
		}
		var lexed []string
		for n, line := range strings.Split(text, "\n") {
			spans := highlight(rules, line)
			for _, tk := range lexLine(n+1, line) {
				want := ""
				switch tk.kind {
				case "comment":
					lexed = append(lexed, strconv.Itoa(tk.line)+":"+strconv.Itoa(utf8.RuneCountInString(line[:tk.start])+1))
					want = "comment."
				case "string":
					want = "string."
				case "number":
					if _, err := lang.ParseQuantity(tk.text); err != nil {
						t.Errorf("%s:%d: %q is not a number the language reads (the test's lexer is wrong): %v", path, tk.line, tk.text, err)
					}
					want = "constant.numeric."
				case "word":
					if !keywords[tk.text] {
						if s := scopeAt(spans, tk.start); isKeywordScope(s) {
							t.Errorf("%s:%d: name %s is scoped %q, as a keyword", path, tk.line, tk.text, s)
						}
						continue
					}
					want = "keyword."
				default:
					continue
				}
				checked++
				// The first byte carries the token's scope (a unit after
				// a number has its own), and no byte is left unscoped.
				if s := scopeAt(spans, tk.start); !strings.HasPrefix(s, want) && !(want == "keyword." && isKeywordScope(s)) {
					t.Errorf("%s:%d: %s %q is scoped %q, want %s*", path, tk.line, tk.kind, tk.text, s, want)
				}
				for j := tk.start; j < tk.end; j++ {
					if scopeAt(spans, j) == "" {
						t.Errorf("%s:%d: byte %d of %s %q has no scope", path, tk.line, j-tk.start, tk.kind, tk.text)
						break
					}
				}
			}
		}
		if strings.Join(lexed, " ") != strings.Join(comments, " ") {
			t.Errorf("%s: the test's lexer finds comments at %v, the parser at %v", path, lexed, comments)
		}
	}
	if checked < 1000 {
		t.Errorf("only %d tokens checked in the examples", checked)
	}
}

func TestVSCodeExtensionUsesTheGrammar(t *testing.T) {
	data, err := os.ReadFile("vscode/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		Contributes struct {
			Languages []struct {
				ID            string   `json:"id"`
				Extensions    []string `json:"extensions"`
				Configuration string   `json:"configuration"`
			} `json:"languages"`
			Grammars []struct {
				Language, ScopeName, Path string
			} `json:"grammars"`
		} `json:"contributes"`
	}
	if err := json.Unmarshal(data, &pkg); err != nil {
		t.Fatalf("package.json: %v", err)
	}
	c := pkg.Contributes
	if len(c.Languages) != 1 || c.Languages[0].ID != "parasol" || !slices.Equal(c.Languages[0].Extensions, []string{".machine"}) {
		t.Errorf("languages = %+v, want parasol for .machine", c.Languages)
	}
	if len(c.Grammars) != 1 || c.Grammars[0].Language != "parasol" || c.Grammars[0].ScopeName != "source.parasol" {
		t.Errorf("grammars = %+v, want source.parasol for parasol", c.Grammars)
	}
	for _, p := range []string{c.Grammars[0].Path, c.Languages[0].Configuration} {
		data, err := os.ReadFile(filepath.Join("vscode", p))
		if err != nil {
			t.Errorf("package.json names %s: %v", p, err)
			continue
		}
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			t.Errorf("%s is not JSON: %v", p, err)
		}
	}
}

// vimPattern turns the very-magic Vim patterns the syntax file uses into
// Go's syntax.
func vimPattern(p string) string {
	p = strings.TrimPrefix(p, `\v`)
	return strings.NewReplacer(`\%`, `%`, `\/`, `/`, `%(`, `(?:`, `<`, `\b`, `>`, `\b`).Replace(p)
}

// vimGroups are the Vim syntax groups each kind of keyword may be in.
var vimGroups = map[lang.KeywordKind][]string{
	lang.Control:      {"parasolConditional", "parasolRepeat"},
	lang.WordOperator: {"parasolOperator"},
	lang.Constant:     {"parasolBoolean"},
	lang.Declaration:  {"parasolKeyword"},
}

func TestVimSyntaxHasEveryKeywordAndUnit(t *testing.T) {
	data, err := os.ReadFile("vim/syntax/parasol.vim")
	if err != nil {
		t.Fatal(err)
	}
	vimKeywords := map[string]string{} // word → syntax group
	patterns := map[string]string{}
	matchLine := regexp.MustCompile(`^syn match (\w+)(?: contained)? "(.*)"`)
	for _, line := range strings.Split(string(data), "\n") {
		fields := strings.Fields(line)
		if len(fields) > 2 && fields[0] == "syn" && fields[1] == "keyword" {
			for _, w := range fields[3:] {
				vimKeywords[w] = fields[2]
			}
		}
		if m := matchLine.FindStringSubmatch(line); m != nil {
			patterns[m[1]] = m[2]
		}
	}
	for _, kw := range lang.Keywords() {
		kind, _ := lang.Keyword(kw)
		if g := vimKeywords[kw]; !slices.Contains(vimGroups[kind], g) {
			t.Errorf("%s keyword %s is in Vim group %q, want one of %v", kind, kw, g, vimGroups[kind])
		}
	}
	for _, gen := range registry.GeneratorNames() {
		if vimKeywords[gen] == "" {
			t.Errorf("generator %s is in no syn keyword line", gen)
		}
	}
	num, err := regexp.Compile(`^(?:` + vimPattern(patterns["parasolNumber"]) + `)`)
	if err != nil {
		t.Fatalf("parasolNumber: %v", err)
	}
	unit, err := regexp.Compile(`^(?:` + vimPattern(patterns["parasolUnit"]) + `)`)
	if err != nil {
		t.Fatalf("parasolUnit: %v", err)
	}
	for _, u := range units() {
		for _, n := range []string{"4", "1.5", "2e-3", ".5"} {
			m := num.FindString(n + u)
			if m != n || unit.FindString(u) != u {
				t.Errorf("%s%s: Vim reads number %q and unit %q", n, u, m, unit.FindString(u))
			}
		}
	}
}

// TestVimScopesTheExampleFilesTokenByToken loads the syntax file into Vim,
// when it is installed, and asks the syntax group of every token.
func TestVimScopesTheExampleFilesTokenByToken(t *testing.T) {
	vim, err := exec.LookPath("vim")
	if err != nil {
		t.Skip("no vim")
	}
	keywords := map[string]bool{}
	for _, kw := range lang.Keywords() {
		keywords[kw] = true
	}
	groups := map[string][]string{
		"comment": {"parasolComment"},
		"string":  {"parasolString"},
		"number":  {"parasolNumber"},
		"keyword": {"parasolConditional", "parasolRepeat", "parasolOperator", "parasolBoolean", "parasolKeyword"},
	}
	dir := t.TempDir()
	runtimeDir, err := filepath.Abs("vim")
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../examples/*.machine")
	checked := 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if parser.IsLegacy(string(data)) {
			continue
		}
		abs, _ := filepath.Abs(path)
		var want []tok
		script := []string{"set nocompatible", "let &runtimepath = " + strconv.Quote(runtimeDir) + " . ',' . &runtimepath",
			"filetype plugin on", "syntax on", "edit " + abs, "let out = [&filetype]"}
		for n, line := range strings.Split(string(data), "\n") {
			for _, tk := range lexLine(n+1, line) {
				if tk.kind == "word" && keywords[tk.text] {
					tk.kind = "keyword"
				}
				if groups[tk.kind] == nil {
					continue
				}
				want = append(want, tk)
				script = append(script, fmt.Sprintf("call add(out, synIDattr(synID(%d, %d, 1), 'name'))", tk.line, tk.start+1))
			}
		}
		result := filepath.Join(dir, "out.txt")
		script = append(script, "call writefile(out, "+strconv.Quote(result)+")", "qa!")
		scriptFile := filepath.Join(dir, "check.vim")
		if err := os.WriteFile(scriptFile, []byte(strings.Join(script, "\n")+"\n"), 0o666); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(vim, "-N", "-u", "NONE", "-i", "NONE", "-es", "-S", scriptFile)
		cmd.Env = append(os.Environ(), "HOME="+dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("vim: %v: %s", err, out)
		}
		got, err := os.ReadFile(result)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimRight(string(got), "\n"), "\n")
		if lines[0] != "parasol" || len(lines) != len(want)+1 {
			t.Fatalf("%s: Vim says filetype %q and %d groups, want parasol and %d", path, lines[0], len(lines)-1, len(want))
		}
		for i, tk := range want {
			if g := lines[i+1]; !slices.Contains(groups[tk.kind], g) {
				t.Errorf("%s:%d: %s %q is in Vim group %q, want one of %v", path, tk.line, tk.kind, tk.text, g, groups[tk.kind])
			}
			checked++
		}
	}
	if checked < 50 {
		t.Errorf("only %d tokens checked", checked)
	}
}

package eval

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/stdlib"
)

// FuzzMisspeltNames misspells one name of a valid machine file (the
// examples and the standard machines) by one letter: it drops a letter,
// swaps two neighbours or inserts one, at any occurrence of any name the
// file writes (a field, a param, a function, a parameter, a reference, a
// label, a built-in, a generator, a word such as wormhole). The result must
// fail to load with every diagnostic at a position in some source, or
// load because the misspelling is harmless. (A mutation that leaves no name
// is not a misspelling and is not tried: dropping the p of p - 1 leaves
// - 1, the k of k5 a number.) A load is harmless exactly when
//
//   - the occurrence declares a name of the user's own: a param, a
//     function or primitive, a function parameter, a loop or sum variable,
//     a block label, a field of a block whose names are all the user's
//     (a model section, a timing subsection, combinations), or a free word
//     such as fp type's value; renaming a declaration no one refers to
//     changes nothing the user can be warned of; or
//   - the new name is one the file could already mean: a name written in
//     the file or in the standard library it imports, or a name the
//     language knows (a schema field, a built-in, a derived index, a
//     registry word, a generator, a kind of block, processortypeK).
//
// Anything else that loads is a silent wrong answer: a misspelt reference
// or schema field that the resolver let through.
func FuzzMisspeltNames(f *testing.F) {
	files := misspellCorpus(f)
	for i := range files {
		for k := 0; k < 40; k += 7 {
			f.Add(uint8(i), uint16(k*13+i), uint8(k), uint8(k*3), byte('a'+k%26))
		}
	}
	f.Fuzz(func(t *testing.T, file uint8, occ uint16, op, at uint8, letter byte) {
		src := files[int(file)%len(files)]
		if len(src.names) == 0 {
			return
		}
		n := src.names[int(occ)%len(src.names)]
		mutated, ok := misspell(n.name, op, at, letter)
		if !ok || mutated == n.name || !lang.IsIdent(mutated) {
			return // no longer a name: p - 1 became - 1, k5 became 5
		}
		text := src.text[:n.offset] + mutated + src.text[n.offset+len(n.name):]
		_, err := CheckSource(src.name, text, WithReadFile(noFilesForFuzz))
		if err == nil {
			if n.decl || src.known[mutated] {
				return
			}
			t.Fatalf("%s: %s misspelt as %s at offset %d loads without an error", src.name, n.name, mutated, n.offset)
		}
		var ds lang.Diagnostics
		ds.Append(err)
		for _, d := range ds {
			if !d.Pos.IsValid() || d.Pos.Src == nil {
				t.Fatalf("%s: %s misspelt as %s: an error without a position: %v", src.name, n.name, mutated, d)
			}
		}
	})
}

func noFilesForFuzz(string) ([]byte, error) { return nil, os.ErrNotExist }

// misspell drops the letter at `at`, swaps it with the next, or inserts
// letter before it.
func misspell(name string, op, at uint8, letter byte) (string, bool) {
	i := int(at) % (len(name) + 1)
	switch op % 3 {
	case 0:
		if i >= len(name) {
			return "", false
		}
		return name[:i] + name[i+1:], true
	case 1:
		if i+1 >= len(name) {
			return "", false
		}
		return name[:i] + name[i+1:i+2] + name[i:i+1] + name[i+2:], true
	}
	c := 'a' + letter%26
	if letter%7 == 0 {
		c = '_'
	}
	return name[:i] + string(rune(c)) + name[i:], true
}

// misspellSource is a file of the corpus with its name occurrences.
type misspellSource struct {
	name, text string
	names      []nameAt
	known      map[string]bool
}

// nameAt is one occurrence of a name in a source, and whether it declares
// a name of the user's own.
type nameAt struct {
	offset int
	name   string
	decl   bool
}

var misspellFiles struct {
	once  sync.Once
	files []misspellSource
}

func misspellCorpus(f *testing.F) []misspellSource {
	misspellFiles.once.Do(func() {
		var srcs [][2]string
		paths, _ := filepath.Glob("../examples/*.machine")
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err == nil {
				srcs = append(srcs, [2]string{filepath.Base(p), string(data)})
			}
		}
		for _, n := range stdlib.MachineNames() {
			text, _ := stdlib.Machine(n)
			srcs = append(srcs, [2]string{n + ".machine", text})
		}
		library := map[string]bool{}
		for _, lib := range []string{"models", "analytic"} {
			if text, ok := stdlib.Machine(lib); ok {
				for _, n := range nameOccurrences(lib, text) {
					library[n.name] = true
				}
			}
		}
		for _, s := range srcs {
			names := nameOccurrences(s[0], s[1])
			known := languageNames()
			for n := range library {
				known[n] = true
			}
			for _, n := range names {
				known[n.name] = true
			}
			misspellFiles.files = append(misspellFiles.files, misspellSource{name: s[0], text: s[1], names: names, known: known})
		}
	})
	if len(misspellFiles.files) == 0 {
		f.Fatal("no machine files to misspell")
	}
	return misspellFiles.files
}

// languageNames are the names the language itself knows.
func languageNames() map[string]bool {
	out := map[string]bool{}
	for _, b := range blocks {
		for n := range b.fields {
			out[n] = true
		}
	}
	for n := range builtins {
		out[n] = true
	}
	for n := range indexes {
		out[n] = true
	}
	for _, e := range registry.Enums() {
		for _, w := range e.Spellings() {
			out[w] = true
		}
	}
	for _, g := range registry.Generators {
		out[g.Name] = true
	}
	for _, k := range blockKinds {
		out[k] = true
	}
	for _, w := range []string{"processortype", "processornumber", "compcomm", "true", "false", "yes", "no"} {
		out[w] = true
	}
	return out
}

// nameOccurrences lists every name a source writes, by walking its syntax
// tree, with the offset where the name stands.
func nameOccurrences(name, text string) []nameAt {
	file, err := parser.ParseFile(name, text)
	if err != nil || file == nil {
		return nil
	}
	w := &nameWalker{text: text}
	for _, s := range file.Stmts {
		w.stmt(s, "machine")
	}
	sort.Slice(w.out, func(i, j int) bool { return w.out[i].offset < w.out[j].offset })
	return w.out
}

type nameWalker struct {
	text string
	out  []nameAt
}

// add records name at pos when the source holds it there as written
// (quoted names and legacy keys with spaces are left alone).
func (w *nameWalker) add(pos lang.Pos, name string, decl bool) {
	if !pos.IsValid() || !lang.IsIdent(name) || !strings.HasPrefix(w.text[pos.Offset:], name) {
		return
	}
	w.out = append(w.out, nameAt{offset: pos.Offset, name: name, decl: decl})
}

// addAfter records name at its first occurrence after pos and skip bytes
// (a loop variable after "for").
func (w *nameWalker) addAfter(pos lang.Pos, skip int, name string) {
	if !pos.IsValid() || pos.Offset+skip > len(w.text) {
		return
	}
	if i := strings.Index(w.text[pos.Offset+skip:], name); i >= 0 {
		w.add(pos.Src.PosAt(pos.Offset+skip+i), name, true)
	}
}

func (w *nameWalker) stmts(ss []lang.Stmt, kind string) {
	for _, s := range ss {
		w.stmt(s, kind)
	}
}

func (w *nameWalker) stmt(s lang.Stmt, kind string) {
	switch s := s.(type) {
	case *lang.Machine:
		w.stmts(s.Body, "machine")
	case *lang.Field:
		b := blocks[kind]
		own := s.IsParam || s.IsFunc() || b != nil && b.own
		w.add(s.Pos, s.Name, own)
		for _, p := range s.Params {
			w.add(p.Pos, p.Name, true)
		}
		spec, _ := fieldSpecOf(kind, s.Name)
		if id, ok := s.Value.(*lang.Ident); ok && !s.IsFunc() && spec.enum == nil && s.Name != "node" &&
			(spec.typ == tString || spec.typ == tSymbol || spec.typ == tAny && kind != "modelsection") {
			w.add(id.Pos, id.Name, true) // a free word: fp type = floating
			return
		}
		w.expr(s.Value)
	case *lang.Block:
		w.add(s.Pos, s.Kind, false)
		w.add(s.LabelPos, s.Label, true)
		if s.Gen != nil {
			w.expr(s.Gen)
		}
		for _, p := range s.Params {
			w.add(p.Pos, p.Name, true)
		}
		w.stmts(s.Body, s.Kind)
	case *lang.Link:
		for _, e := range s.Ends {
			w.expr(e)
		}
		w.stmts(s.Body, "link")
	case *lang.Node:
		w.expr(s.From)
		if s.To != nil {
			w.expr(s.To)
		}
		w.add(s.TypePos, s.Type, false)
	case *lang.For:
		w.addAfter(s.Pos, len("for"), s.Var)
		w.expr(s.From)
		w.expr(s.To)
		w.stmts(s.Body, kind)
	case *lang.If:
		w.expr(s.Cond)
		w.stmts(s.Then, kind)
		w.stmts(s.Else, kind)
	}
}

func (w *nameWalker) expr(e lang.Expr) {
	lang.Inspect(e, func(e lang.Expr) bool {
		switch e := e.(type) {
		case *lang.Ident:
			w.add(e.Pos, e.Name, false)
		case *lang.Select:
			w.expr(e.X) // the names before the dot come first
			w.add(e.Pos, e.Name, false)
			return false
		case *lang.Sum:
			w.addAfter(e.Pos, len("sum"), e.Var)
		}
		return true
	})
}

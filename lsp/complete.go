package lsp

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/registry"
	"github.com/parasol-lang/parasol/stdlib"
	protocol "github.com/tliron/glsp/protocol_3_16"
)

// Completion reads the text before the cursor, not the AST: a file being
// typed seldom parses. The block the cursor is in is found by its braces;
// the words offered come from the schema (fields, and the registry's words
// for a field that takes one), the standard library, the machine as last
// loaded (params, functions, primitives, derived indexes, built-in
// functions) and lang's units.

var (
	importString  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bimport\s+"([^"]*)$`) })
	extendsString = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bextends\s+"([^"]*)$`) })
	afterNumber   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^\w.])\d[\d.]*(?:[eE][-+]?\d+)?([A-Za-z/]*)$`) })
	afterField    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(\w+)\s*=\s*(\w*)$`) })
	afterSelect   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`([A-Za-z_]\w*(?:\([^()]*\))?)\.(\w*)$`) })
	statementHead = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(\w*)$`) })
	blockRef      = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b(processor|nic|switch|topology)\(\s*(\w*)$`) })
	// sendRouting is a send's routing: argument, which takes a routing's
	// name as a topology's routing field does.
	sendRouting = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\brouting:\s*([\w-]*)$`) })
)

// complete lists what may be written at off.
func (s *server) complete(d *document, off int) protocol.CompletionList {
	start := strings.LastIndexByte(d.text[:off], '\n') + 1
	pre := d.text[start:off]
	kind, machine := enclosing(d.text[:off])
	var items []protocol.CompletionItem
	add := func(label string, k protocol.CompletionItemKind, detail string) {
		it := protocol.CompletionItem{Label: label, Kind: ptr(k)}
		if detail != "" {
			it.Detail = ptr(detail)
		}
		items = append(items, it)
	}
	m := d.machine(machine)
	if m == nil {
		m = s.lastGood[d.uri][machine]
	}
	switch {
	case importString().MatchString(pre):
		for _, n := range stdlib.MachineNames() {
			add("std:"+n, protocol.CompletionItemKindModule, "standard machine")
		}
		dir := filepath.Dir(d.path)
		if entries, err := os.ReadDir(dir); err == nil {
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".machine") && filepath.Join(dir, e.Name()) != filepath.Clean(d.path) {
					add(e.Name(), protocol.CompletionItemKindFile, "machine file")
				}
			}
		}
	case extendsString().MatchString(pre):
		for _, f := range d.filesSeen() {
			for _, st := range f.Stmts {
				if mc, ok := st.(*lang.Machine); ok && mc.Name != machine {
					add(mc.Name, protocol.CompletionItemKindModule, "machine")
				}
			}
		}
	case afterNumber().MatchString(pre):
		for _, u := range lang.UnitNames() {
			v, _ := lang.LookupUnit(u)
			add(u, protocol.CompletionItemKindUnit, v.Dim.Name())
		}
	case sendRouting().MatchString(pre):
		for _, w := range registry.Routing.Entries {
			add(w.Name, protocol.CompletionItemKindEnumMember, w.Doc)
		}
	case afterField().MatchString(pre) && fieldWords(kind, afterField().FindStringSubmatch(pre)[1]) != nil:
		field := afterField().FindStringSubmatch(pre)[1]
		for _, w := range fieldWords(kind, field) {
			add(w.Name, protocol.CompletionItemKindEnumMember, w.Doc)
		}
	case field(pre) == "node":
		for _, t := range labels(d, "processor", "switch") {
			add(t, protocol.CompletionItemKindClass, "node type")
		}
	case field(pre) == "nic" && kind == "processor":
		for _, t := range labels(d, "nic") {
			add(t, protocol.CompletionItemKindClass, "nic")
		}
	case blockRef().MatchString(pre):
		kind := blockRef().FindStringSubmatch(pre)[1]
		for _, t := range labels(d, kind) {
			add(t, protocol.CompletionItemKindClass, kind)
		}
	case afterSelect().MatchString(pre):
		prefix := afterSelect().FindStringSubmatch(pre)[1] + "."
		if m != nil {
			for _, n := range m.Names() {
				if rest, ok := strings.CutPrefix(n, prefix); ok && !strings.Contains(rest, ".") {
					k := protocol.CompletionItemKindField
					if strings.HasSuffix(rest, "(") {
						k, rest = protocol.CompletionItemKindFunction, strings.TrimSuffix(rest, "(")
					}
					add(rest, k, n)
				}
			}
		}
	case statementHead().MatchString(pre):
		for _, f := range eval.FieldsOf(kind) {
			detail := f.Type
			if f.Unit != "" {
				detail += " (" + f.Unit + ")"
			}
			add(f.Name, protocol.CompletionItemKindField, detail+": "+f.Doc)
		}
		if kind == "machine" {
			for _, k := range eval.BlockKinds() {
				add(k, protocol.CompletionItemKindKeyword, eval.BlockDoc(k))
			}
		}
		for _, w := range lang.Keywords() {
			if k, _ := lang.Keyword(w); k == lang.Declaration {
				add(w, protocol.CompletionItemKindKeyword, "")
			}
		}
	default:
		if m != nil {
			for _, n := range m.Names() {
				if strings.Contains(n, ".") {
					continue
				}
				k := protocol.CompletionItemKindVariable
				detail := ""
				if strings.HasSuffix(n, "(") {
					k, n = protocol.CompletionItemKindFunction, strings.TrimSuffix(n, "(")
				} else if doc, ok := eval.IndexDoc(n); ok {
					k, detail = protocol.CompletionItemKindValue, doc
				} else if v, err := m.Param(n); err == nil {
					detail = v.String()
				}
				add(n, k, detail)
			}
		}
		for _, w := range lang.Keywords() {
			if k, _ := lang.Keyword(w); k != lang.Declaration {
				add(w, protocol.CompletionItemKindKeyword, "")
			}
		}
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].Label < items[j].Label })
	if items == nil {
		items = []protocol.CompletionItem{}
	}
	return protocol.CompletionList{Items: items}
}

// field is the name of the field a line assigns, when the cursor is
// after its "=".
func field(pre string) string {
	if m := afterField().FindStringSubmatch(pre); m != nil {
		return m[1]
	}
	return ""
}

// fieldWords are the words a field of a kind of block may take, nil when
// it takes no fixed set.
func fieldWords(kind, name string) []registry.Entry {
	if f, ok := eval.FieldOf(kind, name); ok {
		return f.Enum
	}
	return nil
}

// labels are the labels of the blocks of the kinds given in the
// document's files (the processor and switch types, the topologies).
func labels(d *document, kinds ...string) []string {
	var out []string
	var walk func([]lang.Stmt)
	walk = func(list []lang.Stmt) {
		for _, st := range list {
			switch st := st.(type) {
			case *lang.Machine:
				walk(st.Body)
			case *lang.Block:
				if slices.Contains(kinds, st.Kind) && st.Label != "" {
					out = append(out, st.Label)
				}
			}
		}
	}
	for _, f := range d.filesSeen() {
		walk(f.Stmts)
	}
	return out
}

// enclosing reads text (a document up to the cursor) for the kind of the
// innermost block the cursor is in ("machine" at a machine's level, and
// outside any) and the name of the machine it is in ("" outside any).
// Braces in strings and comments are skipped; for, if and else blocks
// are seen through.
func enclosing(text string) (kind, machine string) {
	type open struct{ kind, label string }
	var stack []open
	stmt := 0 // where the current statement began
	for i := 0; i < len(text); i++ {
		if j := lang.SkipLiteral(text, i); j != i {
			if text[i] != '"' {
				stmt = j + 1 // a comment ends the statement's line
			}
			i = j
			continue
		}
		switch c := text[i]; {
		case c == '{':
			words := strings.Fields(strings.NewReplacer("=", " ", "(", " ", `"`, " ").Replace(text[stmt:i]))
			o := open{}
			if len(words) > 0 {
				o.kind = words[0]
			}
			if len(words) > 1 {
				o.label = words[1]
			}
			stack = append(stack, o)
			stmt = i + 1
		case c == '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			stmt = i + 1
		case c == '\n' || c == ';':
			stmt = i + 1
		}
	}
	kind = "machine"
	for _, o := range stack {
		switch o.kind {
		case "machine":
			machine = o.label
		case "for", "if", "else", "":
			continue
		default:
			kind = o.kind
		}
	}
	return kind, machine
}

package eval

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/registry"
)

// The schema and the registry are documented in docs/LANGUAGE.md from the
// tables themselves: the section between the markers is generated, and
// this test fails when it is out of date. -update rewrites it.
func TestLanguageDocShowsTheSchemaAndTheRegistry(t *testing.T) {
	checkDocSection(t, "../docs/LANGUAGE.md", "schema", schemaMarkdown())
}

// schemaMarkdown renders the schema's blocks and the registry's tables.
func schemaMarkdown() string {
	var b strings.Builder
	b.WriteString("| block | field | value | meaning |\n|---|---|---|---|\n")
	order := append([]string{"machine"}, blockKinds...)
	for _, kind := range order {
		blk := blocks[kind]
		if kind == "long_integer_timings" || kind == "float_timings" || kind == "double_timings" {
			continue // as integer_timings
		}
		name := "`" + kind + "`"
		if kind == "integer_timings" {
			name = "`integer_timings` `long_integer_timings` `float_timings` `double_timings`"
		}
		fields := schemaNames(kind)
		sort.Strings(fields)
		for k, f := range fields {
			spec := blk.fields[f]
			col := ""
			if k == 0 {
				col = name
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", col, f, valueDoc(spec), spec.doc)
		}
		if len(fields) == 0 || blk.own || blk.funcs || blk.params {
			col := ""
			if len(fields) == 0 {
				col = name
			}
			fmt.Fprintf(&b, "| %s | *your own* | %s | %s |\n", col, ownDoc(blk), blk.doc)
		}
	}
	b.WriteString("\nThe words of the enumerated fields (a word in the second column is\naccepted for the first):\n\n")
	b.WriteString("| field | word | also | meaning |\n|---|---|---|---|\n")
	for _, en := range []*registry.Enum{registry.Switching, registry.Routing, registry.Arbitration, registry.Buffering, registry.Allocator, registry.Rendezvous, registry.ChannelSetup} {
		for k, e := range en.Entries {
			col := ""
			if k == 0 {
				col = "`" + en.What + "`"
			}
			also := make([]string, len(e.Aliases))
			for i, a := range e.Aliases {
				also[i] = "`" + a + "`"
			}
			fmt.Fprintf(&b, "| %s | `%s` | %s | %s |\n", col, e.Name, strings.Join(also, " "), e.Doc)
		}
	}
	b.WriteString("\nThe topology generators:\n\n| generator | arguments | meaning |\n|---|---|---|\n")
	for _, g := range registry.Generators {
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", g.Signature, g.Ranges, g.Doc)
	}
	return b.String()
}

func valueDoc(s fieldSpec) string {
	switch {
	case s.enum != nil:
		if strings.ContainsAny(s.enum.What[:1], "aeiou") {
			return "an " + s.enum.What + " word"
		}
		return "a " + s.enum.What + " word"
	case s.typ == tSymbol:
		return "a word"
	case s.typ == tAny:
		return "any value"
	}
	return "a " + s.typ.String()
}

func ownDoc(b *blockSpec) string {
	var parts []string
	if b.params {
		parts = append(parts, "`param x = …`")
	}
	if b.funcs {
		parts = append(parts, "functions `f(…) = …`")
	}
	if b.own {
		what := "any name"
		if b.ownType != tAny {
			what += ", a " + b.ownType.String()
		}
		parts = append(parts, what)
	}
	return strings.Join(parts, ", ")
}

package eval

import (
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// noteSets attaches to each error found at a field whose value rests on a
// --set override a note naming that override, so that an error caused by
// `--set lanes=1000000000` names the flag and not only the machine's line
// that uses the value.
func (m *Machine) noteSets() {
	at := map[lang.Pos]*field{}
	var walk func(o *object)
	walk = func(o *object) {
		for _, f := range o.fields {
			if f.decl != nil && f.decl.Value != nil {
				at[f.decl.Value.ExprPos()] = f
			}
		}
		for _, ch := range o.children {
			walk(ch)
		}
	}
	walk(m.root)
	var sets []*field
	for _, f := range at {
		if f.overridden() != nil {
			sets = append(sets, f)
		}
	}
	sort.Slice(sets, func(i, j int) bool { return sets[i].name < sets[j].name })
	for _, d := range m.errs {
		f := at[d.Pos]
		switch {
		case f != nil && f.overridden() != nil:
			// the --set value itself: its source already names the flag
		case f != nil:
			if s := m.overrideUnder(f); s != nil {
				d.Notes = append(d.Notes, setNote(s))
			}
		case d.Pos.Src != nil && d.Pos.IsValid():
			// A statement (a link, a loop bound) rather than a field: the
			// overrides it names on its line.
			line := d.Pos.Src.Line(d.Pos.Line)
			for _, s := range sets {
				if mentions(line, s.name) {
					d.Notes = append(d.Notes, setNote(s))
				}
			}
		}
	}
}

func setNote(s *field) lang.Note {
	return lang.Note{Pos: s.decl.Value.ExprPos(), Msg: s.name + " is set here"}
}

// mentions reports whether line holds name as a whole identifier.
func mentions(line, name string) bool {
	for i := 0; ; {
		j := strings.Index(line[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !identByte(line[j-1])) && (end == len(line) || !identByte(line[end])) {
			return true
		}
		i = end
	}
}

func identByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// overrideUnder finds an overridden field that f's value depends on.
func (m *Machine) overrideUnder(f *field) *field {
	seen := map[*field]bool{f: true}
	stack := []*field{f}
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		deps, _ := m.references(g)
		for _, d := range deps {
			if d.f.overridden() != nil {
				return d.f
			}
			if !seen[d.f] {
				seen[d.f] = true
				stack = append(stack, d.f)
			}
		}
	}
	return nil
}

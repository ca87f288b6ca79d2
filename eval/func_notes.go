package eval

import "strings"

// NotePrefix begins a line of a function's comment that compare prints
// beside the function's figures: what its closed form, or the simulation
// set beside it, leaves out.
const NotePrefix = "note:"

// Notes are the notes of the function's comment: the lines of the block of
// comment lines directly above its definition that begin with "note:",
// each with the lines after it up to the next note or the definition
// (without the "#" or "//" and the word note:), in order. A note says what
// the closed form leaves out, or what the simulation compare sets beside
// it leaves out, so that a difference is explained where it is shown.
func (f *Func) Notes() []string {
	pos := f.fn.f.decl.Pos
	if pos.Src == nil {
		return nil
	}
	var block []string // the comment lines above, last first
scan:
	for n := pos.Line - 1; n >= 1; n-- {
		line := strings.TrimSpace(pos.Src.Line(n))
		var text string
		switch {
		case strings.HasPrefix(line, "#"):
			text = line[1:]
		case strings.HasPrefix(line, "//"):
			text = line[2:]
		default:
			break scan
		}
		block = append(block, strings.TrimSpace(text))
	}
	var notes []string
	in := false
	for i := len(block) - 1; i >= 0; i-- {
		text := block[i]
		switch {
		case strings.HasPrefix(text, NotePrefix):
			notes = append(notes, strings.TrimSpace(text[len(NotePrefix):]))
			in = true
		case in && text != "":
			notes[len(notes)-1] += " " + text
		default:
			in = false
		}
	}
	return notes
}

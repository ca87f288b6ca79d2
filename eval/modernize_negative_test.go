package eval

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/parser"
)

// TestImportKeepsNegativeNumbers converts Parasol I fields whose value is a
// negative number, which the modern syntax reads as a minus applied to a
// number: the imported line is as written here, and the imported machine
// loads with the same values.
func TestImportKeepsNegativeNumbers(t *testing.T) {
	tests := []struct {
		block      string // a section header, or "" for a line of processor 1
		line, want string
	}{
		{"modelsection = PVM", "spawn = -5", "spawn = -5ns"},
		{"modelsection = PVM", "spawn = -20.", "spawn = -20ns"},
		{"modelsection = PVM", "spawn = -1.e+3", "spawn = -1e+3ns"},
		{"modelsection = PVM", "spawn = -0", "spawn = -0ns"},
		{"modelsection = PVM", "spawn = -2.5us", "spawn = -2.5us"},
		{"processor = 2", "fp type = -1", `"fp type" = "-1"`},
		{"topology = 1\nlinknumber = 0\nlinkspeed = 1e7", "linkio = -0", "linkio = false"},
		{"topology = 1\nlinknumber = 0\nlinkspeed = 1e7", "linkio = -1", "linkio = -1"},
	}
	for _, tt := range tests {
		src := "machinename = \"m\"\nprocessor = 1\ncreatejob = 1200\n" + tt.block + "\n" + tt.line + "\n"
		f, err := parser.ParseFile("in.machine", src)
		if err != nil {
			t.Fatal(err)
		}
		modern := lang.Format(Modernize(f))
		if !strings.Contains(modern, "\t"+tt.want+"\n") {
			t.Errorf("%s: want the line %q in\n%s", tt.line, tt.want, modern)
			continue
		}
		old, errOld := LoadSource("in.machine", src)
		imported, errNew := LoadSource("imported.machine", modern)
		switch {
		case errOld != nil && errNew != nil:
			// refused before import and after, as check refuses it
		case errOld != nil || errNew != nil:
			t.Errorf("%s: loads with %v before import, %v after\n%s", tt.line, errOld, errNew, modern)
		default:
			sameFields(t, tt.line, old, imported)
		}
	}
}

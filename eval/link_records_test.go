package eval

import (
	"fmt"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

// A Parasol I link block keeps every field and endpoint it declares
// whatever its shape: with fewer or more fields and endpoints than the
// commonest block (whose records are held in one piece), alone or among
// links of the other shapes.
func TestParasolILinksOfEveryShapeKeepTheirFields(t *testing.T) {
	fields := []struct{ line, expr string }{
		{"linkspeed = 2667231", "speed"},
		{"linkio = 1", "io"},
		{"linklatency = 230", "latency"},
		{"channels = 2", "channels"},
		{"dim = 0", "dim"},
	}
	want := map[string]lang.Value{
		"speed": lang.Quantity(2667231, lang.RateDim), "io": lang.BoolValue(true),
		"latency": lang.Quantity(230e-9, lang.TimeDim), "channels": lang.Num(2), "dim": lang.Num(0),
	}
	// With procs_connected, a link has one field more than it takes from
	// the list: from two to six.
	for nf := 1; nf <= len(fields); nf++ {
		for ends := 2; ends <= 3; ends++ {
			var b strings.Builder
			b.WriteString("machinename = \"m\"\nprocessor = 1\nname = \"cpu\"\ntopology = 100\n")
			for link := 0; link < 3; link++ {
				fmt.Fprintf(&b, "linknumber = %d\n", link)
				// The middle link has the commonest shape, between two
				// of the shape under test.
				n, e := nf, ends
				if link == 1 {
					n, e = 3, 2
				}
				for _, f := range fields[:n] {
					b.WriteString(f.line + "\n")
				}
				fmt.Fprintf(&b, "procs_connected = %d\n", e)
				for k := 0; k < e; k++ {
					fmt.Fprintf(&b, "processortype%d = 1\nprocessornumber = %d\n", k, 10*link+k)
				}
			}
			name := fmt.Sprintf("%d fields, %d ends", nf, ends)
			m, err := LoadSource("links.machine", b.String())
			if err != nil {
				t.Errorf("%s: %v", name, err)
				continue
			}
			for link := 0; link < 3; link++ {
				n, e := nf, ends
				if link == 1 {
					n, e = 3, 2
				}
				for _, f := range fields[:n] {
					expr := fmt.Sprintf("topology(100).link(%d).%s", link, f.expr)
					if got, err := m.Eval(expr); err != nil || !sameValue(got, want[f.expr]) {
						t.Errorf("%s: %s = %v (%v), want %v", name, expr, got, err, want[f.expr])
					}
				}
				for k := 0; k < e; k++ {
					expr := fmt.Sprintf("topology(100).link(%d).processornumber(%d)", link, k)
					if got, err := m.Eval(expr); err != nil || !sameValue(got, lang.Num(float64(10*link+k))) {
						t.Errorf("%s: %s = %v (%v), want %d", name, expr, got, err, 10*link+k)
					}
				}
				expr := fmt.Sprintf("topology(100).link(%d).processornumber(%d)", link, e)
				if _, err := m.Eval(expr); err == nil {
					t.Errorf("%s: %s has a value; the link has %d ends", name, expr, e)
				}
			}
		}
	}
}

// A field given twice in a Parasol I link block is reported at both of its
// lines, as in any block.
func TestParasolILinkFieldGivenTwiceIsReportedAtBothLines(t *testing.T) {
	src := "machinename = \"m\"\nprocessor = 1\ntopology = 100\nlinknumber = 0\nlinkspeed = 5\nlinkio = 0\nlinkspeed = 6\nprocs_connected = 2\nprocessortype0 = 1\nprocessornumber = 0\nprocessortype1 = 1\nprocessornumber = 1\n"
	_, err := LoadSource("twice.machine", src)
	if err == nil {
		t.Fatal("loaded; want an error for linkspeed given twice")
	}
	if got, want := err.Error(), "twice.machine:7:1: linkspeed is defined twice in topology(100).link(0)"; !strings.Contains(got, want) {
		t.Errorf("error %q, want it to hold %q", got, want)
	}
	if got, want := err.Error(), "twice.machine:5:1: first defined here"; !strings.Contains(got, want) {
		t.Errorf("error %q, want it to hold %q", got, want)
	}
}

// A Parasol I link's endpoint fields are processornumber and processortype
// with a whole number after it; names that only start like them are
// ordinary fields.
func TestParasolILinkEndpointFieldsAreToldByName(t *testing.T) {
	tests := []struct {
		name string
		want int
	}{
		{"processornumber", endNumber},
		{"processortype0", endType},
		{"processortype1", endType},
		{"processortype12", endType},
		{"processortype", notAnEnd},
		{"processortypeX", notAnEnd},
		{"processortype1a", notAnEnd},
		{"processornumbers", notAnEnd},
		{"processornumbe", notAnEnd},
		{"linkspeed", notAnEnd},
		{"", notAnEnd},
	}
	for _, tt := range tests {
		if got := endKind(tt.name); got != tt.want {
			t.Errorf("endKind(%q) = %d, want %d", tt.name, got, tt.want)
		}
		if got, want := isProcessorType(tt.name), tt.want == endType; got != want {
			t.Errorf("isProcessorType(%q) = %v, want %v", tt.name, got, want)
		}
	}
}

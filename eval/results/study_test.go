package results

import (
	"strings"
	"testing"
)

// A study line reads back as the study it was written from, in every
// format, values with spaces, quotes, '=' and non-printing characters
// included.
func TestStudyLineReadsBack(t *testing.T) {
	s := NewStudy("sweep", "my machines/m 1.machine", "3f2a9c1b2d4e", "text",
		[]Flag{{"op", "randperm"}, {"pattern", `a "b".csv`}, {"topology", ""}},
		[]Flag{{"set", "delta=0.5us, 1us"}, {"arg", "n=1KB,\t4KB"}, {"set", "x=a\nb"}})
	for _, format := range []string{"json", "csv", "text"} {
		f := *s
		f.Format = format
		st := NewStudy(f.Command, f.Machine, f.MachineHash, f.Format, f.Flags, f.Axes)
		line := st.Line(format)
		if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
			t.Fatalf("%s: the study is not one line: %q", format, line)
		}
		got, err := ReadStudy("a", []byte(line+"point 0/1: x\n"), nil)
		if err != nil {
			t.Fatalf("%s: ReadStudy(%q): %v", format, line, err)
		}
		if _, _, differ := got.Diff(st, nil); differ || got.ID != st.ID {
			t.Errorf("%s: read back %+v, want %+v", format, got, st)
		}
	}
}

// The ID tells studies apart and is the same for the same study.
func TestStudyIDIsTheStudys(t *testing.T) {
	a := NewStudy("sweep", "std:xmp64", "", "json", []Flag{{"op", "randperm"}}, nil)
	b := NewStudy("sweep", "std:xmp64", "", "json", []Flag{{"op", "randperm"}}, nil)
	c := NewStudy("sweep", "std:xmp64", "", "json", []Flag{{"op", "send"}}, nil)
	if a.ID != b.ID || a.ID == c.ID || len(a.ID) != 12 {
		t.Errorf("IDs %q %q %q: want the first two equal, the third another, 12 hex digits", a.ID, b.ID, c.ID)
	}
}

// A study's machine is its text: the same text at another path is the
// same study (the same ID, no difference), another text at the same path
// another, named with both hashes; a study without a hash (a shard of an
// older parasol) compares paths.
func TestStudyMachineIsItsText(t *testing.T) {
	study := func(path, hash string) *Study {
		return NewStudy("sweep", path, hash, "text", []Flag{{"op", "randperm"}}, nil)
	}
	a, moved := study("ring.machine", "3f2a9c1b2d4e"), study("copy/ring.machine", "3f2a9c1b2d4e")
	if x, y, differ := a.Diff(moved, nil); differ || a.ID != moved.ID {
		t.Errorf("a machine moved: differ %v (%q, %q), IDs %s %s; want the same study", differ, x, y, a.ID, moved.ID)
	}
	x, y, differ := a.Diff(study("ring.machine", "9b1c0d2e3f40"), nil)
	if !differ || x != "machine ring.machine (text 3f2a9c1b2d4e)" || y != "machine ring.machine (text 9b1c0d2e3f40)" {
		t.Errorf("a changed file: Diff = %q, %q, %v; want both texts named", x, y, differ)
	}
	if x, y, differ := study("ring.machine", "").Diff(study("copy/ring.machine", "3f2a9c1b2d4e"), nil); !differ || x != "machine ring.machine" || y != "machine copy/ring.machine" {
		t.Errorf("a study without a hash: Diff = %q, %q, %v; want the paths compared", x, y, differ)
	}
	// The hash is in the line and reads back, in each format.
	for _, format := range []string{"json", "text"} {
		line := a.Line(format)
		if !strings.Contains(line, "3f2a9c1b2d4e") {
			t.Errorf("%s: the study line %q does not hold the machine's hash", format, line)
		}
		got, err := ReadStudy("a", []byte(line), nil)
		if err != nil || got.MachineHash != "3f2a9c1b2d4e" || got.Machine != "ring.machine" {
			t.Errorf("%s: read back %+v, %v", format, got, err)
		}
	}
}

// Diff names the first difference: command, machine, format, the flags
// by name, then the axes.
func TestStudyDiffNamesTheFirstDifference(t *testing.T) {
	base := func() *Study {
		return NewStudy("sweep", "std:xmp64", "", "json", []Flag{{"op", "randperm"}, {"seed", "5"}, {"size", "32,64"}}, []Flag{{"set", "lanes=1,2"}})
	}
	defaults := map[string]string{"op": "send", "seed": "1"}
	for _, tt := range []struct {
		name string
		edit func(s *Study)
		a, b string
	}{
		{"machine first", func(s *Study) { s.Machine, s.Flags = "std:c104-chain", nil }, "machine std:xmp64", "machine std:c104-chain"},
		{"format", func(s *Study) { s.Format, s.Flags = "csv", nil }, "--format json", "--format csv"},
		{"op before seed and size", func(s *Study) { s.Flags = []Flag{{"op", "transpose"}, {"seed", "6"}} }, "--op randperm", "--op transpose"},
		{"a default named", func(s *Study) { s.Flags = s.Flags[1:] }, "--op randperm", "--op send (the default)"},
		{"a default without a value", func(s *Study) { s.Flags = s.Flags[:2] }, "--size 32,64", "the default --size"},
		{"a flag the first leaves", func(s *Study) { s.Flags = append(s.Flags, Flag{"runs", "4"}) }, "the default --runs", "--runs 4"},
		{"axes last", func(s *Study) { s.Axes = []Flag{{"arg", "lanes=1,2"}} }, "--set lanes=1,2", "--arg lanes=1,2"},
		{"no axes", func(s *Study) { s.Axes = nil }, "--set lanes=1,2", "no --set or --arg axis"},
	} {
		o := base()
		tt.edit(o)
		o = NewStudy(o.Command, o.Machine, o.MachineHash, o.Format, o.Flags, o.Axes)
		a, b, differ := base().Diff(o, defaults)
		if !differ || a != tt.a || b != tt.b {
			t.Errorf("%s: Diff = %q, %q, %v; want %q, %q, true", tt.name, a, b, differ, tt.a, tt.b)
		}
	}
	if a, b, differ := base().Diff(base(), defaults); differ {
		t.Errorf("a study differs from itself: %q, %q", a, b)
	}
}

// A damaged study line, or one after points of no study, is refused.
func TestReadStudyRefusesWhatIsNotOne(t *testing.T) {
	for data, want := range map[string]string{
		"# parasol study 0123: sweep std:xmp64\n":                                "want",
		"# parasol study 0123: parasol sweep std:xmp64 --op=x\n":                 "--format=FORMAT",
		"# parasol study 0123: parasol sweep std:xmp64 --format=text op=x\n":     "want --flag=value",
		"# parasol study 0123: parasol sweep std:xmp64 --format=text --op=\"x\n": "quotes do not close",
		"{\"parasol_study\":\"0123\",\"extra\":1}\n":                             "unknown field",
		"point 0/1: x\n# parasol study 0: parasol sweep m --format=text\n":       "a.txt:2: a study line after points of no study",
	} {
		if _, err := ReadStudy("a.txt", []byte(data), nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ReadStudy(%q) error = %v; want one containing %q", data, err, want)
		}
	}
}

// A shard's study line is passed over by FormatOf and ReadSweep, and the
// points keep their lines in the file.
func TestReadSweepPassesOverTheStudyLine(t *testing.T) {
	csvStudy := NewStudy("sweep", "m", "", "csv", nil, nil).Line("csv")
	jsonStudy := NewStudy("sweep", "m", "", "json", nil, nil).Line("json")
	for data, want := range map[string]Format{
		csvStudy + "point,points,size\n": CSV,
		jsonStudy:                        None,
		jsonStudy + "{\"point\":0}\n":    JSON,
		NewStudy("sweep", "m", "", "text", nil, nil).Line("text") + "point 0/1: x\n": Text,
	} {
		if got := FormatOf([]byte(data)); got != want {
			t.Errorf("FormatOf(%q) = %q, want %q", data, got, want)
		}
	}
	lines, header, err := ReadSweep("a.csv", []byte(csvStudy+"point,points,size\n1,2,64\n"))
	if err != nil || header != "point,points,size\n" || len(lines) != 1 || lines[0].Where != "a.csv:3" || string(lines[0].Text) != "1,2,64\n" {
		t.Errorf("ReadSweep of a CSV shard = %+v, %q, %v", lines, header, err)
	}
	lines, _, err = ReadSweep("a.jsonl", []byte(jsonStudy+"{\"point\":1,\"points\":2}\n"))
	if err != nil || len(lines) != 1 || lines[0].Where != "a.jsonl:2" || lines[0].Point != 1 {
		t.Errorf("ReadSweep of a JSON shard = %+v, %v", lines, err)
	}
}

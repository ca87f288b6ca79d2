package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/internal/golden"
	"github.com/parasol-lang/parasol/lang"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestProgramGolden runs each testdata/programs/*.txtar: the programs of
// "input.machine" are instantiated on its first machine (or "machine NAME"
// in "options") with the options' "ranks N", "map HOW", "arg NAME=VALUE"
// and "program NAME" lines, and the schedule, operation by operation, or
// the errors must equal "want". Run with -update to regenerate.
func TestProgramGolden(t *testing.T) {
	golden.Run(t, "testdata/programs/*.txtar", runProgramGolden)
}

func runProgramGolden(t *testing.T, ar *txtar.Archive) string {
	files := map[string][]byte{}
	for _, f := range ar.Files {
		files[f.Name] = f.Data
	}
	opts := []Option{WithReadFile(func(p string) ([]byte, error) {
		if b, ok := files[filepath.ToSlash(p)]; ok {
			return b, nil
		}
		return nil, os.ErrNotExist
	})}
	var so ScheduleOptions
	mapping, program := "", ""
	for _, line := range lines(golden.Section(ar, "options")) {
		k, v, _ := strings.Cut(line, " ")
		switch k {
		case "machine":
			opts = append(opts, WithMachine(v))
		case "ranks":
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatal(err)
			}
			so.Ranks = n
		case "map":
			mapping = v
		case "program":
			program = v
		case "arg":
			name, val, _ := strings.Cut(v, "=")
			if so.Args == nil {
				so.Args = map[string]string{}
			}
			so.Args[name] = val
		default:
			t.Fatalf("unknown option %q", line)
		}
	}
	m, err := Load("input.machine", opts...)
	if err != nil {
		return fmt.Sprintf("load error:\n%s\n", err)
	}
	if program == "" {
		program = m.Programs()[0]
	}
	p, err := m.Program(program)
	if err != nil {
		return fmt.Sprintf("error:\n%s\n", err)
	}
	if mapping != "" {
		if so.Map, err = MapRanks(m, so.Ranks, mapping, 1); err != nil {
			return fmt.Sprintf("map error:\n%s\n", err)
		}
	}
	s, err := p.Schedule(m, so)
	if err != nil {
		return fmt.Sprintf("error:\n%s\n", err)
	}
	return dumpSchedule(s)
}

// dumpSchedule prints a schedule one operation a line: its index, rank,
// kind and figures, its label and its prerequisites (i~ for a start).
func dumpSchedule(s *lang.Schedule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d ranks, map %v\n", s.Name, s.Ranks, s.Map)
	for r := 0; r < s.Ranks; r++ {
		for i := int(s.RankStart[r]); i < int(s.RankStart[r+1]); i++ {
			op := s.Ops[i]
			fmt.Fprintf(&b, "%d r%d %s", i, r, op.Kind)
			switch op.Kind {
			case lang.OpCalc:
				fmt.Fprintf(&b, " %s", lang.FormatQuantity(op.Time, lang.TimeDim))
			case lang.OpSend, lang.OpRecv:
				fmt.Fprintf(&b, " %dB peer %d tag %d", op.Bytes, op.Peer, op.Tag)
			case lang.OpColl:
				c := s.Colls[op.Peer]
				fmt.Fprintf(&b, " #%d %s %dB root %d of %d", op.Peer, c.Name, c.Bytes, c.Root, c.Ranks)
				if c.Algorithm != "" {
					fmt.Fprintf(&b, " by %s", c.Algorithm)
				}
			}
			fmt.Fprintf(&b, " %q line %d", s.LabelOf(i), op.Line)
			if deps := s.DepsOf(i); len(deps) > 0 {
				b.WriteString(" after")
				for _, d := range deps {
					fmt.Fprintf(&b, " %d", d.Op)
					if d.Start {
						b.WriteString("~")
					}
				}
			}
			b.WriteByte('\n')
		}
	}
	return b.String()
}

package parser

import (
	"fmt"
	"io"
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// goalOps renders a schedule compactly: one rank per group, each
// operation with its label and dependencies, for table tests.
func goalOps(s *lang.Schedule) string {
	var b strings.Builder
	for r := 0; r < s.Ranks; r++ {
		fmt.Fprintf(&b, "r%d:", r)
		for i := int(s.RankStart[r]); i < int(s.RankStart[r+1]); i++ {
			op := s.Ops[i]
			fmt.Fprintf(&b, " %s=", s.LabelOf(i))
			switch op.Kind {
			case lang.OpCalc:
				fmt.Fprintf(&b, "calc(%.9gns", op.Time*1e9)
			case lang.OpSend:
				fmt.Fprintf(&b, "send(%d>%d#%d", op.Bytes, op.Peer, op.Tag)
			case lang.OpRecv:
				fmt.Fprintf(&b, "recv(%d<%d#%d", op.Bytes, op.Peer, op.Tag)
			}
			if op.CPU != 0 {
				fmt.Fprintf(&b, " cpu%d", op.CPU)
			}
			for _, d := range s.DepsOf(i) {
				if d.Start {
					fmt.Fprintf(&b, " i%s", s.LabelOf(int(d.Op)))
				} else {
					fmt.Fprintf(&b, " r%s", s.LabelOf(int(d.Op)))
				}
			}
			b.WriteString(")")
		}
		b.WriteString(";")
	}
	return b.String()
}

// repeatReader streams head then line n times without holding them.
type repeatReader struct {
	head, line string
	n, at      int
	pending    string
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.at == 0 && r.pending == "" {
		r.pending, r.at = r.head, 1
	}
	if r.pending == "" {
		if r.at > r.n {
			return 0, io.EOF
		}
		r.pending = r.line
		r.at++
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	return n, nil
}

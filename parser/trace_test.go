package parser

import (
	"strings"
	"testing"

	"github.com/parasol-lang/parasol/lang"
)

func TestReadTraceBuildsSendsAndReceives(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"CSV with times and units", "# a trace\ntime,src,dst,bytes,tag\n0s,0,1,4KB,3\n1.5us,1,0,8,0\n2.5us,1,2,1KiB,0\n",
			"r0: 1=send(4000>1#3) 2=recv(8<1#0);r1: 1=recv(4000<0#3) calc=calc(1500ns cpu1) 2=send(8>0#0 rcalc) calc=calc(1000ns cpu1 rcalc) 3=send(1024>2#0 rcalc);r2: 3=recv(1024<1#0);"},
		{"CSV with ids and after, columns in any order", "src, dst, bytes, id, after\n0, 1, 100, ping,\n1, 0, 100, pong, ping\n0, 1, 100, \"ping2\", pong\n",
			"r0: ping=send(100>1#0) pong=recv(100<1#0) ping2=send(100>1#0 rpong);r1: ping=recv(100<0#0) pong=send(100>0#0 rping) ping2=recv(100<0#0);"},
		{"JSON lines, after by number when there are no ids", `{"src": 0, "dst": 1, "bytes": "1KB", "time": "0s"}
{"src": 1, "dst": 0, "bytes": 8, "after": 1}
`, "r0: 1=send(1000>1#0) 2=recv(8<1#0);r1: 1=recv(1000<0#0) 2=send(8>0#0 r1);"},
		{"timers of one rank in time order whatever the file order", "time,src,dst,bytes\n3us,0,1,1\n1us,0,1,1\n2us,0,1,1\n",
			"r0: calc=calc(1000ns cpu1 rcalc) 1=send(1>1#0 rcalc) calc=calc(1000ns cpu1) 2=send(1>1#0 rcalc) calc=calc(1000ns cpu1 rcalc) 3=send(1>1#0 rcalc);r1: 1=recv(1<0#0) 2=recv(1<0#0) 3=recv(1<0#0);"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := ReadTrace(strings.NewReader(tt.text), "t.csv", 0)
			if err != nil {
				t.Fatalf("ReadTrace: %v", err)
			}
			if got := goalOps(s); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if len(s.RankStart) != s.Ranks+1 || len(s.DepStart) != len(s.Ops)+1 {
				t.Errorf("RankStart %d for %d ranks, DepStart %d for %d ops", len(s.RankStart), s.Ranks, len(s.DepStart), len(s.Ops))
			}
		})
	}
}

func TestReadTraceReportsEveryError(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"unknown and missing columns", "time,source,dst,bytes\n", []string{`t.csv:1:6: unknown column "source" (columns are id, time, after, src, dst, bytes, tag)`, "t.csv:1:1: the header has no src column"}},
		{"bad values, each on its line", "time,src,dst,bytes,tag\n1kg,0,1,8,0\n0s,-1,1,8,0\n0s,0,1,8us,0\n0s,0,1,8,x\n0s,0,1\n",
			[]string{`2:1: time: unknown unit "kg"`, `3:4: src "-1" is not a whole number from 0 to`, "4:8: bytes 8us is a time, not a size", `5:10: tag "x" is not a whole number`, "6:7: 3 fields, the header has 5"}},
		{"after problems", "id,src,dst,bytes,after,time\na,0,1,8,,\nb,0,2,8,a,\nc,1,0,8,zz,\nd,1,0,8,a,1us\na,1,0,8,,\n",
			[]string{"3:9: message a goes to rank 1, so rank 0 cannot send after it", "4:9: after zz: no earlier message has that id", "5:9: a message has a time or comes after another, not both", "6:1: id a is given twice"}},
		{"after by number", "src,dst,bytes,after\n0,1,8,\n1,0,8,2\n", []string{"3:7: after 2: not the number of an earlier message (1 to 1; the trace gives no ids)"}},
		{"after on the first message", "src,dst,bytes,after\n0,1,8,1\n", []string{"2:7: after 1: the first message has no earlier one to come after"}},
		{"after a message in error, by number", "src,dst,bytes,after\n0,1,8,2\n1,0,8,1\n1,0,8,4\n", []string{"2:7: after 2: the first message", "4:7: after 4: not the number of an earlier message (1 to 2;"}},
		{"after a message before the one in error", "src,dst,bytes,after\n0,1,8,\n0,2,8kg,\n0,1,8,1\n", []string{`3:5: bytes: unknown unit "kg"`, "4:7: message 1 goes to rank 1, so rank 0 cannot send after it"}},
		{"after a message in error, by id", "id,src,dst,bytes,after\na,0,1,8kg,\nb,1,0,8,a\nc,1,0,8,zz\n", []string{`2:7: bytes: unknown unit "kg"`, "4:9: after zz: no earlier message has that id"}},
		{"JSON errors", "{\"src\": 0, \"dst\": 1, \"bytes\": 8}\n{\"src\": 0, \"dst\": 1}\n{\"src\": 0, \"dst\": 1, \"bytes\": 8, \"colour\": 1}\n{\"src\": 0,\n",
			[]string{"2:1: message without bytes", `3:34: unknown field "colour"`, "4:10: not a JSON object: unexpected end of JSON input"}},
		// Issue 26: a repeated key took its last value without a word.
		{"JSON key given twice", "{\"src\": 0, \"src\": 5, \"dst\": 1, \"bytes\": 8}\n{\"src\": 0,\"dst\": 1, \"bytes\": 8, \"Bytes\": 9}\n",
			[]string{"t.csv:1:12: field src appears twice (first at column 2)", "t.csv:2:33: field bytes appears twice (first at column 21)"}},
		{"empty", "# nothing\n\n", []string{"no messages"}},
		// Issue 26: a rank past the largest a schedule can have was an
		// array of 2^31 offsets, allocated before any check.
		{"rank beyond the bound", "time,src,dst,bytes\n0,0,2147483645,8\n0,16777216,0,8\n",
			[]string{"2:5: dst 2147483645 is out of range: ranks are 0 to 16777215 (a schedule has at most 16777216)", "3:3: src 16777216 is out of range"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ReadTrace(strings.NewReader(tt.text), "t.csv", 0)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
			// Each error is reported once, none as a consequence of another.
			if ds, ok := err.(lang.Diagnostics); ok && len(ds) != len(tt.want) {
				t.Errorf("%d errors, want %d:\n%v", len(ds), len(tt.want), err)
			}
		})
	}
	// The ranks' offsets are checked against the limit where the rank
	// first appears: 16 bytes per rank.
	_, err := ReadTrace(strings.NewReader("time,src,dst,bytes\n0,0,1,8\n0,16777215,0,8\n"), "t.csv", 100e6)
	if want := "t.csv:3:3: src 16777215 (a schedule of 16777216 ranks) needs about 268 MB; the limit is 100 MB, set --max-memory to raise it"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = ReadTrace(&repeatReader{head: "time,src,dst,bytes\n", line: "0s,0,1,8\n", n: 1 << 20}, "big.csv", 1<<20)
	if err == nil || !strings.Contains(err.Error(), "set --max-memory to raise it") {
		t.Errorf("got %v, want a memory limit error", err)
	}
}

func FuzzReadTrace(f *testing.F) {
	for _, s := range []string{
		"time,src,dst,bytes,tag\n0s,0,1,4KB,3\n1.5us,1,0,8,0\n",
		"src,dst,bytes,id,after\n0,1,100,ping,\n1,0,100,pong,ping\n",
		"{\"src\": 0, \"dst\": 1, \"bytes\": \"1KB\", \"time\": \"0s\"}\n{\"src\": 1, \"dst\": 0, \"bytes\": 8, \"after\": 1}\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ReadTrace(strings.NewReader(text), "f.csv", 64<<20)
		if err != nil {
			if _, ok := err.(lang.Diagnostics); !ok {
				if _, ok := err.(*lang.Diagnostic); !ok && !strings.Contains(err.Error(), "--max-memory") {
					t.Fatalf("error is %T: %v", err, err)
				}
			}
			return
		}
		if len(s.RankStart) != s.Ranks+1 || len(s.DepStart) != len(s.Ops)+1 {
			t.Fatalf("RankStart %d for %d ranks, DepStart %d for %d ops", len(s.RankStart), s.Ranks, len(s.DepStart), len(s.Ops))
		}
		for i, op := range s.Ops {
			if op.Kind == lang.OpCalc && !(op.Time >= 0) {
				t.Fatalf("op %d: calc %g s", i, op.Time)
			}
			for _, d := range s.DepsOf(i) {
				if s.RankOf(int(d.Op)) != s.RankOf(i) || int(d.Op) == i {
					t.Fatalf("op %d of rank %d depends on op %d", i, s.RankOf(i), d.Op)
				}
			}
		}
	})
}

// Trace tags go up to 2^63 - 1, as GOAL's (issue 26), in CSV and JSON
// lines alike: tags above an int32 are renumbered to numbers no other tag
// of the trace has, so that a message's send and receive keep one tag and
// messages of different tags keep different ones, whatever their low 32
// bits; beyond 2^63 - 1 is refused naming the largest.
func TestReadTraceBigTags(t *testing.T) {
	for name, text := range map[string]string{
		"t.csv": "src,dst,bytes,tag\n0,1,8,9223372036854775807\n0,1,8,5\n0,1,8,4294967301\n0,1,8,0\n1,0,8,2147483648\n0,1,8,4294967301\n",
		"t.jsonl": `{"src": 0, "dst": 1, "bytes": 8, "tag": 9223372036854775807}
{"src": 0, "dst": 1, "bytes": 8, "tag": 5}
{"src": 0, "dst": 1, "bytes": 8, "tag": "4294967301"}
{"src": 0, "dst": 1, "bytes": 8, "tag": 0}
{"src": 1, "dst": 0, "bytes": 8, "tag": 2147483648}
{"src": 0, "dst": 1, "bytes": 8, "tag": 4294967301}
`,
	} {
		s, err := ReadTrace(strings.NewReader(text), name, 0)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		// Each message's send and receive, by its label (1 to 6).
		send, recv := map[string]int32{}, map[string]int32{}
		for _, op := range s.Ops {
			switch op.Kind {
			case lang.OpSend:
				send[s.Labels[op.Label]] = op.Tag
			case lang.OpRecv:
				recv[s.Labels[op.Label]] = op.Tag
			}
		}
		for l, tag := range send {
			if recv[l] != tag || tag < 0 {
				t.Errorf("%s: message %s sent with Tag %d, received with %d; want one tag ≥ 0", name, l, tag, recv[l])
			}
		}
		if send["2"] != 5 || send["4"] != 0 {
			t.Errorf("%s: tags within an int32 changed: %v", name, send)
		}
		// Messages 3 and 6 have one tag, 2^32 + 5; every other tag differs.
		if send["3"] != send["6"] {
			t.Errorf("%s: messages 3 and 6 have the tag 4294967301 but Tags %d and %d", name, send["3"], send["6"])
		}
		distinct := map[int32]string{}
		for _, l := range []string{"1", "2", "3", "4", "5"} {
			if o, dup := distinct[send[l]]; dup {
				t.Errorf("%s: messages %s and %s have different tags but the same Tag %d", name, o, l, send[l])
			}
			distinct[send[l]] = l
		}
	}
	_, err := ReadTrace(strings.NewReader("src,dst,bytes,tag\n0,1,8,9223372036854775808\n"), "t.csv", 0)
	if want := `t.csv:2:7: tag "9223372036854775808" is not a whole number from 0 to 9223372036854775807`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a tag of 2^63: %v, want %q", err, want)
	}
}

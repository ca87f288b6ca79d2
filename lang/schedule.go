package lang

// A Schedule is a program flattened for execution: for every rank, its
// operations and the dependencies between them, as LogGOPSim's GOAL
// format states them. A GOAL schedule or a message trace is read straight
// into one (its text is its syntax); an SPMD program of the machine
// language becomes one when eval instantiates it for a rank count and a
// mapping. Both executors (eval's analytic critical path and the runtime's
// packet-level simulation) read nothing else.
//
// Storage is flat and index-based (no pointer per operation) so that a
// schedule of ten million operations costs about 40 bytes per operation.
type Schedule struct {
	Name  string
	Ranks int

	// Ops holds every rank's operations, rank by rank: rank r's are
	// Ops[RankStart[r]:RankStart[r+1]] (len(RankStart) == Ranks+1).
	Ops       []SchedOp
	RankStart []int32

	// Deps holds every operation's prerequisites: operation i (a global
	// index into Ops) may start once each Deps[DepStart[i]:DepStart[i+1]]
	// is satisfied (len(DepStart) == len(Ops)+1). A prerequisite is always
	// an operation of the same rank.
	Deps     []SchedDep
	DepStart []int32

	// Colls describes the collective operations; an OpColl operation's
	// Peer indexes it. Every participating rank has one OpColl operation
	// with the same index.
	Colls []Collective

	// Labels names operations for diagnostics and the critical path: a
	// GOAL label ("l3") or a program statement ("send(8B, to: 3)"). An
	// operation's Label indexes it; -1 means none.
	Labels []string
	// LabelPos is where each label's statement stands, for diagnostics
	// that point at it: a program's; nil for a GOAL schedule, which
	// keeps no text (its operations' Line still says where).
	LabelPos []Pos
	// Src is the file the schedule was read or compiled from; an
	// operation's Line is a 1-based line in it (0 when unknown).
	Src *Source

	// Map is the mapping a program was instantiated for: rank r runs on
	// the processor whose external node id is Map[r] (a program's compute
	// times are its processor's). Nil when the schedule came with none
	// (GOAL, traces): executors then map linearly.
	Map []int

	// Run-time values (seed 004 §3.2: programs that read their clock and
	// send the times they read). Regs is the number of registers every
	// rank has, each a float64 in SI units (seconds for a time), all 0 at
	// the start; an operation's Reg names one. Exprs are the computations
	// of OpSet operations (an OpSet's Peer indexes them): each reads its
	// rank's registers and returns the value to store. A schedule with
	// none has Regs == 0 and no OpNow, OpUntil or OpSet.
	Regs  int32
	Exprs []func(regs []float64) float64
	// RegNames names each register (len Regs): the program's name of the
	// value it holds, "" for a temporary.
	RegNames []string

	// Routings are the routings sends name for their messages (seed 003's
	// SEND and SSEQ: a program chooses a message's routing), by registry
	// name; an OpSend's Routing is an index into it plus one, so at most
	// 255. Nil when every message takes the machine's routing.
	Routings []string
}

// SchedKind is what an operation does.
type SchedKind uint8

const (
	OpCalc  SchedKind = iota // occupy the rank's CPU for Time seconds
	OpSend                   // send Bytes to rank Peer with Tag
	OpRecv                   // receive Bytes from rank Peer (AnyRank: any) with Tag (AnyTag: any)
	OpColl                   // take part in collective Colls[Peer]
	OpNow                    // read the rank's local clock into register Reg
	OpUntil                  // wait until the rank's local clock reads register Reg
	OpSet                    // store Exprs[Peer](registers) in register Reg
)

var schedKindNames = [...]string{"calc", "send", "recv", "coll", "now", "until", "set"}

func (k SchedKind) String() string {
	if int(k) < len(schedKindNames) {
		return schedKindNames[k]
	}
	return "op?"
}

// MaxRanks bounds the rank count of a schedule: a program's, a GOAL
// file's num_ranks, a trace's largest rank plus one.
const MaxRanks = 1 << 24

// AnyRank and AnyTag match any source rank and any tag in a receive.
const (
	AnyRank int32 = -1
	AnyTag  int32 = -1
)

// SchedOp is one operation of one rank.
type SchedOp struct {
	Time  float64 // OpCalc: seconds of CPU
	Bytes int64   // OpSend, OpRecv: message size
	Peer  int32   // OpSend: destination; OpRecv: source or AnyRank; OpColl: index into Colls
	// Tag is compared for equality only (AnyTag: any tag ≥ 0). A GOAL
	// or trace tag above math.MaxInt32 is renumbered by parser.ReadGOAL
	// or parser.ReadTrace to a number ≥ 0 no other tag of the schedule
	// has, so that an operation stays 40 bytes.
	Tag   int32
	Label int32 // index into Schedule.Labels, -1 if none
	Line  int32 // source line, 0 if unknown
	Kind  SchedKind
	// CPU says which CPU a GOAL operation runs on (GOAL's "cpu N"); 0 for
	// programs.
	CPU uint8
	// NIC says which NIC of its processor a GOAL send uses (GOAL's "nic
	// N"); 0 for programs.
	NIC uint8
	// Routing is, for OpSend, the routing its message takes: an index
	// into Schedule.Routings plus one; 0 (the machine's routing) for
	// every other operation and for a send that names none.
	Routing uint8
	// Reg is a run-time register plus one (0: none; see RegOf): OpNow,
	// OpSet: where the value goes; OpUntil: the local time to wait for;
	// OpSend: the value the message carries; OpRecv: where the value
	// the matched message carries goes.
	Reg int32
}

// RegOf returns the register an operation names, if any.
func (o *SchedOp) RegOf() (int, bool) { return int(o.Reg) - 1, o.Reg > 0 }

// SchedDep is one prerequisite: operation Op (a global index into
// Schedule.Ops) must have completed, or with Start only have started
// (GOAL's "irequires").
type SchedDep struct {
	Op    int32
	Start bool
}

// Collective is one collective operation shared by a group of ranks.
type Collective struct {
	Name      string // barrier, bcast, reduce, allreduce, allgather, alltoall, scatter, gather
	Algorithm string // "" = the machine's default
	Bytes     int64  // per-rank contribution (per block for allgather and alltoall)
	Root      int32  // bcast, reduce, scatter, gather
	Ranks     int32  // group size (all ranks of the schedule)
	Line      int32
}

// OpsOf returns rank r's operations.
func (s *Schedule) OpsOf(r int) []SchedOp { return s.Ops[s.RankStart[r]:s.RankStart[r+1]] }

// DepsOf returns the prerequisites of operation i (a global index).
func (s *Schedule) DepsOf(i int) []SchedDep { return s.Deps[s.DepStart[i]:s.DepStart[i+1]] }

// UsesRunTimeValues tells whether the schedule has registers or clock
// operations: without them the executors need no clocks and no values.
func (s *Schedule) UsesRunTimeValues() bool {
	if s.Regs > 0 {
		return true
	}
	for i := range s.Ops {
		if k := s.Ops[i].Kind; k == OpNow || k == OpUntil || k == OpSet {
			return true
		}
	}
	return false
}

// RankOf returns the rank operation i (a global index) belongs to.
func (s *Schedule) RankOf(i int) int {
	lo, hi := 0, s.Ranks
	for hi-lo > 1 {
		m := (lo + hi) / 2
		if int(s.RankStart[m]) <= i {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// LabelOf returns operation i's label, or its kind and index when it has
// none.
func (s *Schedule) LabelOf(i int) string {
	if l := s.Ops[i].Label; l >= 0 && int(l) < len(s.Labels) {
		return s.Labels[l]
	}
	return s.Ops[i].Kind.String()
}

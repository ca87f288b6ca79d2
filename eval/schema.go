package eval

import (
	"sort"
	"strings"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/registry"
)

// The schema says what every kind of block may hold: its fields, each with
// the dimension its value must have, the unit a plain number takes in a
// Parasol I file (seed 002: times in nanoseconds, link speed in bytes per
// second, receive/route delays in percent), and for a name-valued field the
// words it may take (registry). A field the schema does not know is an
// error, with a suggestion, unless it is declared as the user's own:
//
//   - `param x = …`, at machine level or in a model section;
//   - a function `f(…) = …`, at machine level or in a model section;
//   - any name in a model section (its primitives), in a timing subsection
//     (Parasol I's integer_timings and the like: operation times) or in
//     combinations (seed 002 leaves both to the user).
//
// A name declared as the user's own in one layer (a param of the machine
// extended) may be given a new value in a later one without the keyword.

type fieldType uint8

const (
	tAny fieldType = iota
	tNumber
	tTime
	tSize
	tRate
	tFreq
	tPercent
	tBool
	tString
	tSymbol // a bare word such as wormhole or ecube
	tTimePerByte
	tCount // a whole number ≥ 0: a processor number, a count of links or bits
)

func (t fieldType) String() string {
	return [...]string{"any value", "number", "time", "size", "rate", "frequency", "percentage", "bool", "string", "name", "time per byte", "whole number"}[t]
}

// dim is the dimension a numeric field type must have.
func (t fieldType) dim() (lang.Dim, bool) {
	switch t {
	case tNumber, tPercent, tCount:
		return lang.Dimensionless, true
	case tTime:
		return lang.TimeDim, true
	case tSize:
		return lang.SizeDim, true
	case tRate:
		return lang.RateDim, true
	case tFreq:
		return lang.FreqDim, true
	case tTimePerByte:
		return lang.TimeDim.Div(lang.SizeDim), true
	}
	return lang.Dim{}, false
}

// legacyScale is the factor a plain number in a Parasol I file is multiplied
// by for a field of this type.
func (t fieldType) legacyScale() float64 {
	switch t {
	case tTime:
		return 1e-9
	case tPercent:
		return 0.01
	case tTimePerByte:
		return 1e-9
	}
	return 1
}

// fieldSpec is one field the schema knows.
type fieldSpec struct {
	typ fieldType
	// enum: the words a name-valued field may take; nil for any word (a
	// processor label, a floating-point type).
	enum *registry.Enum
	doc  string
}

// blockSpec is what a kind of block may hold.
type blockSpec struct {
	doc    string
	fields map[string]fieldSpec
	// own: any other name is a field of the user's own, of type ownType.
	own     bool
	ownType fieldType
	funcs   bool // functions may be defined here
	params  bool // param declarations belong here
}

var timingBlock = &blockSpec{doc: "average operation times (Parasol I); every field is a time", own: true, ownType: tTime}

var blocks = map[string]*blockSpec{
	"machine": {doc: "params and functions of the user's own", funcs: true, params: true},
	"processor": {doc: "a processor type", fields: withFields(map[string]fieldSpec{
		"name":            {typ: tString, doc: "a readable name"},
		"fp type":         {typ: tSymbol, doc: "floating-point type (Parasol I), a word"},
		"mantissa":        {typ: tCount, doc: "bits in the mantissa"},
		"exponent":        {typ: tCount, doc: "bits in the exponent"},
		"pipelinesize":    {typ: tCount, doc: "pipeline stages"},
		"branchdelay":     {typ: tTime, doc: "time lost in a branch (Parasol I: ns)"},
		"maxrecvdelay":    {typ: tPercent, doc: "receive delay (Parasol I: percent)"},
		"maxroutedelay":   {typ: tPercent, doc: "route delay (Parasol I: percent)"},
		"createjob":       {typ: tTime, doc: "starting a job (Parasol I: ns)"},
		"jobswitch":       {typ: tTime, doc: "switching between jobs (Parasol I: ns)"},
		"clock":           {typ: tFreq, doc: "clock frequency"},
		"send_overhead":   {typ: tTime, doc: "sender software cost per message channel (simulated)"},
		"channel_setup":   {typ: tSymbol, enum: registry.ChannelSetup, doc: "whether a message's channels transmit while later ones are set up, or only once all are (simulated; seed 000 §4)"},
		"recv_overhead":   {typ: tTime, doc: "receiver software cost per message (simulated)"},
		"packet_overhead": {typ: tTime, doc: "packet initialisation at the sender and before an acknowledgement (simulated)"},
		"route_fixed":     {typ: tTime, doc: "software through-routing per packet (simulated)"},
		"route_per_byte":  {typ: tTimePerByte, doc: "software through-routing per byte (simulated)"},
		"hop_delay":       {typ: tTime, doc: "router delay when a packet passes through (simulated)"},
		"alloc_delay":     {typ: tTime, doc: "handing a freed lane to a waiting packet: VC and switch allocation (simulated)"},
		"maxspeed":        {typ: tRate, doc: "the rate the processor moves data over all its links at once"},
		"clock_offset":    {typ: tTime, doc: "its local clock's offset from true time: a time, or uniform(a, b) or normal(m, sd), drawn once per run"},
		"clock_drift":     {typ: tNumber, doc: "its local clock's rate error (1e-6: one part per million): a number, or uniform(a, b) or normal(m, sd), drawn once per run"},
		"clock_jitter":    {typ: tTime, doc: "the error of each read of its local clock: j for ±j, or uniform(a, b) or normal(m, sd), drawn at every read"},

		// A router process of high priority (program_router.go in the runtime).
		"route_cpu_fixed":    {typ: tTime, doc: "CPU time a router process of high priority takes from computation per packet routed through (simulated; seed 003 Table 3.7's a')"},
		"route_cpu_per_byte": {typ: tTimePerByte, doc: "CPU time the router process takes per byte routed through (simulated; seed 003 Table 3.7's b')"},

		// LogGOPS's CPUs (program.go in the runtime); the NIC's fields
		// are nicFields, which a nic block may give instead.
		"cpus": {typ: tCount, doc: "CPUs per processor, which GOAL's cpu N names (simulated programs; 1 to 256)"},
		"nic":  {typ: tSymbol, doc: "the nic block whose fields (send_gap, nics, …) this processor takes where it does not set them itself"},
	}, nicFields)},
	"nic": {doc: "a network interface: its gaps, per-byte overheads, count and rendezvous protocol, which a processor names with nic = NAME", fields: withFields(map[string]fieldSpec{
		"name": {typ: tString, doc: "a readable name"},
	}, nicFields)},
	"switch": {doc: "a routing chip, a node type like a processor", fields: map[string]fieldSpec{
		"name":           {typ: tString, doc: "a readable name"},
		"delay":          {typ: tTime, doc: "switch delay when a packet passes through (simulated)"},
		"hop_delay":      {typ: tTime, doc: "the same as delay"},
		"alloc_delay":    {typ: tTime, doc: "handing a freed lane to a waiting packet: VC and switch allocation (simulated)"},
		"ports":          {typ: tCount, doc: "links the chip has"},
		"route_fixed":    {typ: tTime, doc: "software through-routing per packet (simulated)"},
		"route_per_byte": {typ: tTimePerByte, doc: "software through-routing per byte (simulated)"},
	}},
	"integer_timings":      timingBlock,
	"long_integer_timings": timingBlock,
	"float_timings":        timingBlock,
	"double_timings":       timingBlock,
	"processorcache": {doc: "cache parameters (Parasol I)", fields: map[string]fieldSpec{
		"size":          {typ: tSize, doc: "cache size (Parasol I: bytes)"},
		"linesize":      {typ: tSize, doc: "line size (Parasol I: bytes)"},
		"associativity": {typ: tCount, doc: "ways"},
		"hittime":       {typ: tTime, doc: "hit time (Parasol I: ns)"},
		"misstime":      {typ: tTime, doc: "miss time (Parasol I: ns)"},
		"levels":        {typ: tCount, doc: "cache levels"},
	}},
	"combinations": {doc: "combined processor figures of the user's own (Parasol I)", own: true},
	"topology": {doc: "nodes and links, and how the network moves packets", fields: map[string]fieldSpec{
		"toponame":     {typ: tString, doc: "a readable name (Parasol I)"},
		"hardware":     {typ: tNumber, doc: "hardware topology (1) or virtual (Parasol I)"},
		"create_time":  {typ: tTime, doc: "creating the topology (Parasol I: ns)"},
		"num_links":    {typ: tCount, doc: "links in the topology (Parasol I; checked against the links given)"},
		"node":         {typ: tSymbol, doc: "the processor or switch type of nodes no node statement types"},
		"switch":       {typ: tSymbol, doc: "the switch type of the switches a generator makes (fattree, xgft, dragonfly, flatfly, hyperx; default: the first switch declared)"},
		"switching":    {typ: tSymbol, enum: registry.Switching, doc: "switching technique"},
		"routing":      {typ: tSymbol, enum: registry.Routing, doc: "routing function"},
		"arbitration":  {typ: tSymbol, enum: registry.Arbitration, doc: "how a lane chooses among waiting packets"},
		"buffering":    {typ: tSymbol, enum: registry.Buffering, doc: "where routers keep a blocked packet: input (default) or output queues"},
		"allocator":    {typ: tSymbol, enum: registry.Allocator, doc: "how the switch allocator gives a shared wire's cycles to its lanes under credits: packet (default) or islip"},
		"packet":       {typ: tSize, doc: "payload bytes per packet (0: a message is one packet)"},
		"header":       {typ: tSize, doc: "bytes added to each packet in front"},
		"trailer":      {typ: tSize, doc: "bytes added to each packet behind"},
		"flit":         {typ: tSize, doc: "wormhole flit size"},
		"buffer":       {typ: tNumber, doc: "buffer per lane: flits under wormhole, packets under saf and vct (unset: unbounded)"},
		"window":       {typ: tNumber, doc: "unacknowledged packets per message channel (0: no acknowledgements)"},
		"ack":          {typ: tSize, doc: "size of an acknowledgement packet"},
		"vcs":          {typ: tNumber, doc: "lanes (virtual channels) per wire"},
		"channels":     {typ: tNumber, doc: "lanes per wire of every link"},
		"latency":      {typ: tTime, doc: "link latency, unless a link says otherwise"},
		"speed":        {typ: tRate, doc: "link speed, unless a link says otherwise"},
		"credit_delay": {typ: tTime, doc: "wormhole credit flow control: a credit leaves this long after its flit leaves a buffer, then crosses the wire back, so a lane carries buffer flits per credit_delay + 2 × latency (absent: no credits)"},
		"speedup":      {typ: tNumber, doc: "routers' crossbar speedup: an input passes one packet at a time at this many times the link rate (absent: not modelled)"},
		"nic":          {typ: tBool, doc: "every processor gets a router of its own (its hop_delay and alloc_delay), joined by an injection/ejection link; the topology's links join the routers"},
		"nic_latency":  {typ: tTime, doc: "latency of the nic links (default: the topology's latency)"},
		"nic_speed":    {typ: tRate, doc: "speed of the nic links (default: the topology's speed)"},
	}},
	"link": {doc: "a link: a block (Parasol I's linknumber), a template link(d) { … } or link A -- B { … }", fields: map[string]fieldSpec{
		"latency":         {typ: tTime, doc: "from the start of transmission to the head's arrival"},
		"speed":           {typ: tRate, doc: "bytes per second"},
		"channels":        {typ: tNumber, doc: "lanes of the wire"},
		"io":              {typ: tBool, doc: "an I/O link"},
		"dim":             {typ: tCount, doc: "the dimension the link belongs to (for dimension-order routing)"},
		"linklatency":     {typ: tTime, doc: "latency (Parasol I: ns)"},
		"linkspeed":       {typ: tRate, doc: "speed (Parasol I: bytes per second)"},
		"linkio":          {typ: tBool, doc: "io (Parasol I: yes, no, true, false, 1, 0)"},
		"procs_connected": {typ: tCount, doc: "processors the link joins (Parasol I; checked against the list)"},
		"processornumber": {typ: tCount, doc: "a processor the link joins (Parasol I, repeated)"},
	}},
	"machinecombinations": {doc: "combined machine figures (Parasol I)", fields: map[string]fieldSpec{
		"maxtotalspeed": {typ: tRate, doc: "maximum total transfer rate (Parasol I: bytes per second)"},
	}},
	"modelsection": {doc: "a programming model's primitives, all the user's own", own: true, funcs: true, params: true},
}

// nicFields are LogGOPS's NIC fields (program.go and kernel_nic.go in the
// runtime): a processor states them, or a nic block it names (nic = NAME)
// does, the processor's own overriding the block's (NodeType.Value).
var nicFields = map[string]fieldSpec{
	"send_gap":               {typ: tTime, doc: "the NIC's time per message sent, before it sends the next (LogGP g; simulated programs)"},
	"recv_gap":               {typ: tTime, doc: "the NIC's time per message received (LogGP g; simulated programs)"},
	"send_gap_per_byte":      {typ: tTimePerByte, doc: "the NIC's time per byte sent beyond the first (LogGP G; simulated programs)"},
	"recv_gap_per_byte":      {typ: tTimePerByte, doc: "the NIC's time per byte received beyond the first (LogGP G; simulated programs)"},
	"send_overhead_per_byte": {typ: tTimePerByte, doc: "CPU time per byte sent beyond the first (LogGOPS O; simulated programs)"},
	"recv_overhead_per_byte": {typ: tTimePerByte, doc: "CPU time per byte received beyond the first (LogGOPS O; simulated programs)"},
	"nics":                   {typ: tCount, doc: "NICs per processor, which GOAL's nic N names (simulated programs; 1 to 256)"},
	"rendezvous":             {typ: tSymbol, enum: registry.Rendezvous, doc: "how a message above the eager limit goes (simulated programs)"},
}

// isNICField reports whether a processor's field may come from its nic
// block.
func isNICField(name string) bool {
	_, ok := nicFields[name]
	return ok
}

// withFields is fields with more added.
func withFields(fields, more map[string]fieldSpec) map[string]fieldSpec {
	for n, f := range more {
		fields[n] = f
	}
	return fields
}

// fieldSpecOf returns what the schema says of a field in a block kind, and
// whether it knows the field (or the block takes any name).
func fieldSpecOf(kind, name string) (fieldSpec, bool) {
	if kind == "link" {
		// Every field of a Parasol I link asks, twice: without hashing.
		if i := linkFieldIndex(name); i >= 0 {
			return linkSpecs[i], true
		}
	}
	b := blocks[kind]
	if b == nil {
		return fieldSpec{}, false
	}
	if kind == "link" && isProcessorType(name) {
		// Any value: a label is a number or a word, as processor headers are.
		return fieldSpec{typ: tAny, doc: "the type of the processor that follows"}, true
	}
	if s, ok := b.fields[name]; ok {
		return s, true
	}
	if s, ok := b.fields[strings.ReplaceAll(name, "_", " ")]; ok { // fp_type for "fp type"
		return s, true
	}
	if b.own {
		return fieldSpec{typ: b.ownType}, true
	}
	return fieldSpec{}, false
}

// linkFieldIndex is the index in linkSpecs of a field of blocks["link"],
// or -1 (TestLinkSpecsAreTheLinkSchema holds the two together).
func linkFieldIndex(name string) int {
	switch name {
	case "latency":
		return 0
	case "speed":
		return 1
	case "channels":
		return 2
	case "io":
		return 3
	case "dim":
		return 4
	case "linklatency":
		return 5
	case "linkspeed":
		return 6
	case "linkio":
		return 7
	case "procs_connected":
		return 8
	case "processornumber":
		return 9
	}
	return -1
}

// blockOf is blocks[kind], a link's without hashing.
func blockOf(kind string) *blockSpec {
	if kind == "link" {
		return linkBlock
	}
	return blocks[kind]
}

var linkBlock = blocks["link"]

var linkSpecs = func() []fieldSpec {
	specs := make([]fieldSpec, len(blocks["link"].fields))
	for name, s := range blocks["link"].fields {
		if i := linkFieldIndex(name); i >= 0 && i < len(specs) {
			specs[i] = s
		}
	}
	return specs
}()

// fieldTypeOf returns the schema type of a field in a block kind.
func fieldTypeOf(kind, name string) fieldType {
	s, _ := fieldSpecOf(kind, name)
	return s.typ
}

// schemaNames lists the fields the schema knows for a kind, sorted, for
// suggestions.
func schemaNames(kind string) []string {
	b := blocks[kind]
	if b == nil {
		return nil
	}
	out := make([]string, 0, len(b.fields))
	for n := range b.fields {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// linkAliases maps Parasol I link field names to the modern ones.
var linkAliases = map[string]string{"linklatency": "latency", "linkspeed": "speed", "linkio": "io"}

// linkAlias is the other name of a link field of linkAliases, or "".
func linkAlias(name string) string {
	switch name {
	case "linklatency":
		return "latency"
	case "latency":
		return "linklatency"
	case "linkspeed":
		return "speed"
	case "speed":
		return "linkspeed"
	case "linkio":
		return "io"
	case "io":
		return "linkio"
	}
	return ""
}

// blockKinds are the block kinds the language knows, for suggestions.
var blockKinds = []string{
	"processor", "nic", "switch", "topology", "link", "modelsection", "machinecombinations",
	"integer_timings", "long_integer_timings", "float_timings", "double_timings",
	"processorcache", "combinations",
}

func knownKind(k string) bool {
	for _, b := range blockKinds {
		if b == k {
			return true
		}
	}
	return false
}

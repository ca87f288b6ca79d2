package eval

import (
	"strings"

	"github.com/parasol-lang/parasol/lang"
)

// The schema says what the known fields of each kind of block mean: the
// dimension a value must have, and the unit a plain number takes in a
// Parasol I file (seed 002: times in nanoseconds, link speed in bytes per
// second, receive/route delays in percent). Fields not in the schema are the
// user's own and may hold any value.

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

var timingFields = map[string]fieldType{} // any field of a *_timings block is a time

var schema = map[string]map[string]fieldType{
	"machine": {},
	"processor": {
		"name": tString, "fp type": tSymbol, "mantissa": tCount, "exponent": tCount,
		"pipelinesize": tCount, "branchdelay": tTime, "maxrecvdelay": tPercent,
		"maxroutedelay": tPercent, "createjob": tTime, "jobswitch": tTime,
		"clock": tFreq, "send_overhead": tTime, "recv_overhead": tTime,
		"packet_overhead": tTime, "route_fixed": tTime, "route_per_byte": tTimePerByte,
		"hop_delay": tTime, "maxspeed": tRate,
	},
	"switch": {
		"name": tString, "delay": tTime, "ports": tCount, "route_fixed": tTime,
		"route_per_byte": tTimePerByte,
	},
	"processorcache": {
		"size": tSize, "linesize": tSize, "associativity": tCount,
		"hittime": tTime, "misstime": tTime, "levels": tCount,
	},
	"combinations": {},
	"topology": {
		"toponame": tString, "hardware": tNumber, "create_time": tTime, "num_links": tCount,
		"node": tSymbol, "switching": tSymbol, "routing": tSymbol, "arbitration": tSymbol,
		"packet": tSize, "header": tSize, "trailer": tSize, "flit": tSize, "buffer": tNumber,
		"window": tNumber, "ack": tSize, "vcs": tNumber, "channels": tNumber,
		"latency": tTime, "speed": tRate,
	},
	"link": {
		"linkio": tBool, "linklatency": tTime, "linkspeed": tRate, "procs_connected": tCount,
		"processornumber": tCount, "latency": tTime, "speed": tRate, "channels": tNumber,
		"io": tBool, "dim": tCount,
	},
	"machinecombinations": {"maxtotalspeed": tRate},
	"modelsection":        {},
}

func init() {
	for _, k := range []string{"integer_timings", "long_integer_timings", "float_timings", "double_timings"} {
		schema[k] = timingFields
	}
}

// fieldTypeOf returns the schema type of a field in a block kind.
func fieldTypeOf(kind, name string) fieldType {
	switch kind {
	case "integer_timings", "long_integer_timings", "float_timings", "double_timings":
		return tTime
	case "link":
		if strings.HasPrefix(name, "processortype") {
			return tAny
		}
	}
	return schema[kind][name]
}

// linkAliases maps Parasol I link field names to the modern ones.
var linkAliases = map[string]string{"linklatency": "latency", "linkspeed": "speed", "linkio": "io"}

// blockKinds are the block kinds the language knows, for suggestions.
var blockKinds = []string{
	"processor", "switch", "topology", "link", "modelsection", "machinecombinations",
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

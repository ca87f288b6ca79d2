package eval

import (
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/lang"
	"github.com/parasol-lang/parasol/runtime"
)

// Spec compiles a topology of the machine into the runtime's network
// description: the graph, each link's latency and speed, each node's costs
// from its processor or switch block, and the topology's switching,
// routing and packet fields. topology names one of the machine's
// topologies; "" means the first. This is the one place where a machine
// becomes something the runtime simulates.
//
// Processor fields read: send_overhead, channel_setup, recv_overhead, packet_overhead,
// route_fixed, route_per_byte, route_cpu_fixed, route_cpu_per_byte,
// hop_delay, maxrecvdelay, maxroutedelay, alloc_delay, the clock fields
// and the NIC's (send_gap, recv_gap, send_gap_per_byte, recv_gap_per_byte,
// send_overhead_per_byte, recv_overhead_per_byte, cpus, nics, rendezvous:
// see runtime.NodeParams). Switch fields: delay (or hop_delay),
// route_fixed, route_per_byte. Topology fields: switching, routing,
// buffering, arbitration, packet, header, trailer, flit, buffer, vcs, ack,
// window, speedup, nic, nic_latency, nic_speed (see runtime.WithNIC; the
// nic links default to the topology's latency and speed).
func (m *Machine) Spec(topology string) (*runtime.Spec, error) {
	t, err := m.Topology(topology)
	if err != nil {
		return nil, err
	}
	spec := &runtime.Spec{Graph: t.Graph}
	spec.Links = make([]runtime.LinkParams, t.Graph.NumLinks())
	for i := range spec.Links {
		spec.Links[i] = runtime.LinkParams{Latency: t.LinkLatency(int32(i)), Bandwidth: t.LinkSpeed(int32(i))}
	}
	// Node costs: one NodeParams per node type, in the order of their
	// first nodes; when the types differ, each node's index among them
	// (NodeOf, 2 B a node), never a record a node.
	byType := map[*NodeType]uint16{}
	var kinds []runtime.NodeParams
	var nodeOf []uint16
	for i := range t.Graph.N() {
		nt := t.NodeType(int32(i))
		k, ok := byType[nt]
		if !ok {
			if len(kinds) > math.MaxUint16 {
				return nil, fmt.Errorf("topology %s: more than %d node types", t.Label, math.MaxUint16+1)
			}
			np := nodeParams(nt)
			np.Clock = t.Clock(nt)
			k = uint16(len(kinds))
			byType[nt] = k
			kinds = append(kinds, np)
		}
		if k != 0 && nodeOf == nil {
			nodeOf = make([]uint16, t.Graph.N()) // 0 up to i
		}
		if nodeOf != nil {
			nodeOf[i] = k
		}
	}
	if nodeOf == nil {
		if len(kinds) > 0 {
			spec.DefaultNode = kinds[0]
		}
	} else {
		spec.Nodes, spec.NodeOf = kinds, nodeOf
	}
	if v, ok := t.Value("switching"); ok {
		if spec.Switching, err = runtime.ParseSwitching(v.Text()); err != nil {
			return nil, fmt.Errorf("topology %s: %v", t.Label, err)
		}
	}
	if v, ok := t.Value("routing"); ok {
		spec.Routing = v.Text()
	}
	if v, ok := t.Value("buffering"); ok {
		switch v.Text() {
		case "input":
		case "output":
			spec.OutputBuffered = true
		default:
			return nil, fmt.Errorf("topology %s: buffering %q: want input or output", t.Label, v.Text())
		}
	}
	if v, ok := t.Value("allocator"); ok {
		switch v.Text() {
		case "packet":
			spec.Allocator = runtime.AnyLane
		case "islip":
			spec.Allocator = runtime.ISLIP
		default:
			return nil, fmt.Errorf("topology %s: allocator %q: want packet or islip", t.Label, v.Text())
		}
	}
	if v, ok := t.Value("arbitration"); ok {
		switch v.Text() {
		case "fifo":
			spec.Arbitration = runtime.FIFO
		case "roundrobin", "round-robin", "rr":
			spec.Arbitration = runtime.RoundRobin
		default:
			return nil, fmt.Errorf("topology %s: arbitration %q: want fifo or roundrobin", t.Label, v.Text())
		}
	}
	p := &spec.Packet
	for _, f := range []struct {
		name string
		dst  *int
	}{
		{"packet", &p.Payload}, {"header", &p.Header}, {"trailer", &p.Trailer}, {"flit", &p.FlitBytes},
		{"buffer", &p.BufferFlits}, {"vcs", &p.VirtualChannels}, {"ack", &p.AckBytes}, {"window", &p.Window},
	} {
		// Loading checked each field's range at its position; this guards
		// machines built some other way.
		if v, ok := t.Value(f.name); ok {
			n := math.Round(v.Num)
			if n < 0 || n != v.Num || n > math.MaxInt32 {
				return nil, fmt.Errorf("topology %s: %s = %s must be a whole number from 0 to %d", t.Label, f.name, v, math.MaxInt32)
			}
			*f.dst = int(n)
		}
	}
	if v, ok := t.Value("speedup"); ok && v.Kind == lang.Number {
		spec.Speedup = v.Num
	}
	if v, ok := t.Value("credit_delay"); ok && v.Kind == lang.Number {
		spec.Credits, spec.CreditDelay = true, v.Num
	}
	if v, ok := t.Value("nic"); ok && v.Kind == lang.Bool && v.Truth() {
		return withNICFields(spec, t)
	}
	return spec, nil
}

// nodeParams are the costs of a node of type nt: its processor's or its
// switch's fields.
func nodeParams(nt *NodeType) runtime.NodeParams {
	get := func(names ...string) float64 {
		for _, n := range names {
			if v, ok := nt.Value(n); ok && v.Kind == lang.Number {
				return v.Num
			}
		}
		return 0
	}
	var np runtime.NodeParams
	np.SendOverhead = get("send_overhead")
	np.RecvOverhead = get("recv_overhead")
	np.PacketOverhead = get("packet_overhead")
	np.RouteFixed = get("route_fixed")
	np.RoutePerByte = get("route_per_byte")
	np.RouteCPUFixed = get("route_cpu_fixed")
	np.RouteCPUPerByte = get("route_cpu_per_byte")
	np.HopDelay = get("hop_delay", "delay")
	np.RecvDelay = get("maxrecvdelay")
	np.RouteDelay = get("maxroutedelay")
	np.AllocDelay = get("alloc_delay")
	np.SendGap = get("send_gap")
	np.RecvGap = get("recv_gap")
	np.SendGapPerByte = get("send_gap_per_byte")
	np.RecvGapPerByte = get("recv_gap_per_byte")
	np.SendPerByte = get("send_overhead_per_byte")
	np.RecvPerByte = get("recv_overhead_per_byte")
	np.CPUs = int(min(get("cpus"), 1<<30)) // above MaxUnits: refused by the runtime's bounds
	np.NICs = int(min(get("nics"), 1<<30))
	if v, ok := nt.Value("rendezvous"); ok && v.Text() == "match" {
		np.MatchRendezvous = true
	}
	if v, ok := nt.Value("channel_setup"); ok && v.Text() == "serial" {
		np.SerialSetup = true
	}
	return np
}

// withNICFields applies a topology's nic = true: the nic links take
// nic_latency and nic_speed, else the topology's latency and speed.
func withNICFields(spec *runtime.Spec, t *Topology) (*runtime.Spec, error) {
	num := func(names ...string) (float64, bool) {
		for _, n := range names {
			if v, ok := t.Value(n); ok && v.Kind == lang.Number {
				return v.Num, true
			}
		}
		return 0, false
	}
	lat, _ := num("nic_latency", "latency")
	speed, ok := num("nic_speed", "speed")
	if !ok {
		return nil, fmt.Errorf("topology %s: nic = true needs nic_speed (or speed) for the links to the routers", t.Label)
	}
	s, err := runtime.WithNIC(spec, lat, speed)
	if err != nil {
		return nil, fmt.Errorf("topology %s: %v", t.Label, err)
	}
	return s, nil
}

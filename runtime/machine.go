package runtime

import (
	"fmt"
	"math"

	"github.com/parasol-lang/parasol/eval"
	"github.com/parasol-lang/parasol/lang"
)

// FromMachine compiles a topology of a loaded machine into a Spec: the
// graph, each link's latency and speed, each node's costs from its
// processor or switch block, and the topology's switching, routing and
// packet fields. topology names one of the machine's topologies; "" means
// the first.
//
// Processor fields read: send_overhead, recv_overhead, packet_overhead,
// route_fixed, route_per_byte, hop_delay, maxrecvdelay, maxroutedelay.
// Switch fields: delay (or
// hop_delay), route_fixed, route_per_byte. Topology fields: switching,
// routing, arbitration, packet, header, trailer, flit, buffer, vcs, ack,
// window, speedup, nic, nic_latency, nic_speed (see WithNIC; the nic links
// default to the topology's latency and speed).
func FromMachine(m *eval.Machine, topology string) (*Spec, error) {
	t, err := m.Topology(topology)
	if err != nil {
		return nil, err
	}
	spec := &Spec{Graph: t.Graph}
	spec.Links = make([]LinkParams, len(t.Latency))
	for i := range t.Latency {
		spec.Links[i] = LinkParams{Latency: t.Latency[i], Bandwidth: t.Speed[i]}
	}
	// Node costs: one NodeParams per node type; a per-node slice only when
	// the types differ.
	byType := map[*eval.NodeType]NodeParams{}
	var first *eval.NodeType
	uniform := true
	for i, nt := range t.NodeTypes {
		if _, ok := byType[nt]; !ok {
			np := nodeParams(nt)
			np.Clock = t.Clock(nt)
			byType[nt] = np
		}
		if i == 0 {
			first = nt
		} else if nt != first {
			uniform = false
		}
	}
	if uniform {
		spec.DefaultNode = byType[first]
	} else {
		spec.Nodes = make([]NodeParams, len(t.NodeTypes))
		for i, nt := range t.NodeTypes {
			spec.Nodes[i] = byType[nt]
		}
	}
	if v, ok := t.Value("switching"); ok {
		if spec.Switching, err = ParseSwitching(v.Text()); err != nil {
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
	if v, ok := t.Value("arbitration"); ok {
		switch v.Text() {
		case "fifo":
			spec.Arbitration = FIFO
		case "roundrobin", "round-robin", "rr":
			spec.Arbitration = RoundRobin
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
	if v, ok := t.Value("nic"); ok && v.Kind == lang.Bool && v.Truth() {
		return withNICFields(spec, t)
	}
	return spec, nil
}

func nodeParams(nt *eval.NodeType) NodeParams {
	get := func(names ...string) float64 {
		for _, n := range names {
			if v, ok := nt.Value(n); ok && v.Kind == lang.Number {
				return v.Num
			}
		}
		return 0
	}
	var np NodeParams
	np.SendOverhead = get("send_overhead")
	np.RecvOverhead = get("recv_overhead")
	np.PacketOverhead = get("packet_overhead")
	np.RouteFixed = get("route_fixed")
	np.RoutePerByte = get("route_per_byte")
	np.HopDelay = get("hop_delay", "delay")
	np.RecvDelay = get("maxrecvdelay")
	np.RouteDelay = get("maxroutedelay")
	np.AllocDelay = get("alloc_delay")
	return np
}

package runtime

// BurstTrace is one run of Simulate as it happened, for a trace viewer:
// every message, and when each wire was busy (Options.Trace).
type BurstTrace struct {
	Messages []BurstMessage
	Links    []LinkBusy
}

// BurstMessage is one message of a run: from processor Src to Dst
// (external node ids), Bytes long, ready to go at Ready (its
// prerequisites delivered), its sender done with it at Sent and its last
// byte in at Done (Delivered false: it never was, and Done is Ready).
type BurstMessage struct {
	Src, Dst          int
	Bytes             int64
	Hops              int
	Ready, Sent, Done float64
	Delivered         bool
}

// burstTrace is the trace of the run s has just made; err is the run's
// error, returned as it is, or the busy log's when it ran out of room.
func (s *sim) burstTrace(err error) (*BurstTrace, error) {
	if err != nil {
		return nil, err
	}
	g := s.net.g
	bt := &BurstTrace{Messages: make([]BurstMessage, len(s.msgs))}
	for i := range s.msgs {
		m := &s.msgs[i]
		bm := BurstMessage{Src: g.ID(m.src), Dst: g.ID(m.dst), Bytes: m.size, Hops: int(m.hops), Ready: m.ready, Sent: m.sent, Done: m.ready, Delivered: m.done}
		if m.done {
			bm.Done = m.ready + m.lat
		}
		bt.Messages[i] = bm
	}
	links, err := s.busy.links(s.net, "the run", s.opt.MaxMemory)
	if err != nil {
		return nil, err
	}
	bt.Links = links
	return bt, nil
}

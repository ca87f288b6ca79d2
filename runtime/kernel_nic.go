package runtime

// The NIC of LogGOPS in the traffic simulation (Simulate, OfferedCurve):
// a processor that states one (NodeParams.SendGap and the fields beside
// it) sends a message part once its CPU and its NIC are both free, the
// CPU busy SendOverhead + (n-1)·SendPerByte and the NIC SendGap +
// (n-1)·SendGapPerByte, the part leaving after SendOverhead; a message in
// waits for the receiving CPU and NIC, then costs them RecvOverhead +
// (n-1)·max(RecvPerByte, RecvGapPerByte) and RecvGap + (n-1)·
// RecvGapPerByte. Program runs (RunProgram) charge these themselves, with
// several CPUs and NICs and LogGOPSim's order of what is due at once.

// nicSend starts part j of msg on its sender's CPU and NIC, the CPU being
// free from start.
func (s *sim) nicSend(msg *message, np *NodeParams, start float64, j int32) {
	nic := &s.nic[msg.src]
	start = max(start, nic.send)
	n1 := float64(max(msg.size-1, 0))
	s.nodes[msg.src].cpu = start + np.SendOverhead + n1*np.SendPerByte
	nic.send = start + np.SendGap + n1*np.SendGapPerByte
	if leave := start + np.SendOverhead; leave == s.now {
		s.launch(j)
	} else {
		s.push(leave, evPartStart, j, 0)
	}
}

// nicRecv has msg's receiver take it in once its NIC is free and its CPU
// (from cs), and is when its CPU is done with it.
func (s *sim) nicRecv(msg *message, cs float64) float64 {
	np := s.net.nodeP(msg.dst)
	nic := &s.nic[msg.dst]
	start := max(cs, nic.recv)
	n1 := float64(max(msg.size-1, 0))
	nic.recv = start + np.RecvGap + n1*np.RecvGapPerByte
	return start + np.RecvOverhead + n1*max(np.RecvPerByte, np.RecvGapPerByte)
}

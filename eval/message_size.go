package eval

import (
	"fmt"
	"strconv"
)

// MessageSizeParam is the param a machine declares when the costs it gives
// the simulator depend on the size of the messages simulated: a protocol
// chosen by size, as the iPSC/2's NX/2 sends messages of fewer than 100
// bytes asynchronously and longer ones synchronously (seed 003 §3.5.3,
// std:ipsc2). sim, compare and sweep set it to the size they simulate
// (ForMessageSize) before compiling the network; its declared value is what
// every other use sees (run --simulate, whose messages have many sizes).
const MessageSizeParam = "message_size"

// ForMessageSize is the machine with its MessageSizeParam set to n bytes,
// when it declares that param, a --set has not given it and it is not n
// already; otherwise m itself, and changed is false. A negative n means no
// size (m itself).
func (m *Machine) ForMessageSize(n int) (d *Machine, changed bool, err error) {
	f := m.root.get(MessageSizeParam)
	if n < 0 || f == nil || !f.isParam || f.val.Num == float64(n) {
		return m, false, nil
	}
	for _, s := range m.loader.opts.sets {
		if s.Path == MessageSizeParam {
			return m, false, nil
		}
	}
	d, err = m.Derive(Set{Path: MessageSizeParam, Value: strconv.Itoa(n) + "B", Source: "--size"})
	if err != nil {
		return nil, false, fmt.Errorf("setting %s to the simulated message size: %w", MessageSizeParam, err)
	}
	return d, true, nil
}

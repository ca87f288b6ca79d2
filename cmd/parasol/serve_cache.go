package main

import (
	"container/list"
	"strings"
	"sync"

	"github.com/parasol-lang/parasol/eval"
)

// machineCache keeps loaded machines for parasol serve, so that a
// predictor's many queries of one machine load it once. A machine is
// found by what named it (the MACHINE argument, --machine and every --set)
// and used again only while the texts it was loaded from, its imports'
// included, are still the files' texts: it is cached by content. At most
// max are kept; the least recently used is dropped first.
type machineCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *cachedMachine, the most recently used first
	byKey map[string]*list.Element
}

type cachedMachine struct {
	key string
	m   *eval.Machine
}

func newMachineCache(max int) *machineCache {
	return &machineCache{max: max, order: list.New(), byKey: map[string]*list.Element{}}
}

// cacheKey is what names a machine: its spec, --machine, --topology and
// --set, each ended by a NUL (which none of them holds).
func cacheKey(spec, machine, topology string, sets []eval.Set, maxMemory int64) string {
	var b strings.Builder
	b.WriteString(spec + "\x00" + machine + "\x00" + topology + "\x00")
	for _, s := range sets {
		b.WriteString(s.Path + "=" + s.Value + "\x00" + s.Source + "\x00")
	}
	b.WriteString(sizeText(maxMemory))
	return b.String()
}

// load is the machine key names, from the cache while its texts are the
// files' texts, else loaded by load and kept. Errors are not kept: a
// machine with an error is loaded again, to report it again.
func (c *machineCache) load(key string, load func() (*eval.Machine, error)) (*eval.Machine, error) {
	if c.max == 0 {
		return load()
	}
	var cached *eval.Machine
	c.mu.Lock()
	if el := c.byKey[key]; el != nil {
		c.order.MoveToFront(el)
		cached = el.Value.(*cachedMachine).m
	}
	c.mu.Unlock()
	if cached != nil && unchanged(cached) {
		return cached, nil
	}
	m, err := load()
	if err != nil {
		return m, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if el := c.byKey[key]; el != nil {
		el.Value.(*cachedMachine).m = m
		c.order.MoveToFront(el)
		return m, nil
	}
	c.byKey[key] = c.order.PushFront(&cachedMachine{key, m})
	for c.order.Len() > c.max {
		last := c.order.Back()
		delete(c.byKey, last.Value.(*cachedMachine).key)
		c.order.Remove(last)
	}
	return m, nil
}

// unchanged reports whether every file m was read from still holds the
// text it was read with (a standard machine's text is this build's).
func unchanged(m *eval.Machine) bool {
	for _, src := range m.Sources() {
		if strings.HasPrefix(src.Name, "std:") {
			continue
		}
		data, err := eval.ReadInput(src.Name, m.MaxMemory())
		if err != nil || string(data) != src.Text {
			return false
		}
	}
	return true
}

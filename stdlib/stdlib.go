// Package stdlib holds what Parasol provides before a user writes anything:
// the standard machines (written in Parasol's own language and embedded in
// the binary, addressed as std:NAME) and, in stdlib/topo, the topology
// generators.
package stdlib

import (
	"embed"
	"sort"
	"strings"
)

//go:embed machines/*.machine
var machines embed.FS

// Machine returns the source of the standard machine NAME.
func Machine(name string) (string, bool) {
	b, err := machines.ReadFile("machines/" + name + ".machine")
	if err != nil {
		return "", false
	}
	return string(b), true
}

// MachineNames lists the standard machines.
func MachineNames() []string {
	entries, _ := machines.ReadDir("machines")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".machine"))
	}
	sort.Strings(out)
	return out
}

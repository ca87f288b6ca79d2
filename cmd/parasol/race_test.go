//go:build race

package main

// raceEnabled is the [race] condition of the scripts: the race detector
// reserves terabytes of address space, so a script under `ulimit -v`
// cannot run.
const raceEnabled = true

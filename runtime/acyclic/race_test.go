//go:build race

package acyclic

// raceEnabled trims the slow table reproduction under the race detector.
const raceEnabled = true

//go:build !race

package acyclic

const raceEnabled = false

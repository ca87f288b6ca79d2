// Package validation reproduces the seed documents' tables and equations by
// simulating Parasol's standard machines, and generates docs/VALIDATION.md.
//
// Every Parasol value in the tests comes from runtime.Simulate on a machine
// written in Parasol's language (stdlib/machines or validation/testdata),
// never from evaluating the equation being checked; the seed values are the
// seeds' tables, or their equations computed independently in Go.
//
//	go test ./validation                               check every row
//	go test ./validation -short                        skip the 256-node rows
//	go test ./validation -run TestValidation -update   rewrite docs/VALIDATION.md
package validation

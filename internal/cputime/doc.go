// Package cputime reads the process's CPU time, which benchmarks report
// beside wall time because this project's machines are shared: other jobs
// disturb a rate per CPU second far less than a rate per wall second.
package cputime

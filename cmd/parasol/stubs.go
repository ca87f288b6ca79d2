package main

func runSim(e *env, args []string) error     { return usageError("parasol sim: not yet wired") }
func runRoute(e *env, args []string) error   { return usageError("parasol route: not yet wired") }
func runCompare(e *env, args []string) error { return usageError("parasol compare: not yet wired") }

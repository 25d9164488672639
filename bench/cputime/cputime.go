// Package cputime reads the CPU time the process has used, so that benchmarks can
// report work per CPU second beside wall time, which a shared machine inflates. It
// depends on nothing in Factbase, so any package's tests can use it.
package cputime

// Package parallel runs independent, indexed pieces of work on all CPUs.
// Callers write each result into its own slot, so the outcome does not
// depend on scheduling.
package parallel

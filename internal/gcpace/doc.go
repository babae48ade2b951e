// Package gcpace paces Go's garbage collector for the tfeval command.
//
// Evaluating a configuration keeps most of what it builds (syntax trees and
// results), so with Go's default pace (GOGC=100) the collector marks the
// whole growing heap again after every doubling, and on large trees does
// about as much work as the evaluation itself. A short-lived command can
// trade memory for that time: after every collection, the Pacer lets the
// heap grow by a fixed headroom past the live data before the next one,
// within a bounded percentage, so small and medium trees are collected a
// few times instead of dozens and the memory cost stays bounded by the
// headroom. Headroom keeps that bound to an eighth of the machine's memory,
// or of the container's (cgroup) limit, so that pacing cannot be what runs
// a small CI runner out of memory.
//
// A program that does many pieces of work in one process (a scan of root
// modules) keeps its garbage within a smaller headroom, so that its peak
// stays near what one piece would need alone; SizeToWork then lets the
// heap grow, before a collection, to twice the most that any piece marked
// with StartWork and EndWork is estimated to have needed in a process of
// its own, so that pieces which need much memory each are collected as
// rarely as that bound allows.
//
// The library never paces the collector: that is process-wide state, which
// belongs to the program embedding it. Only cmd/tfeval starts a Pacer, and
// only when the user has set neither GOGC nor GOMEMLIMIT. LiveHeap, which
// only reads the runtime's figure, also tells a scan when its roots hold
// enough memory to be run one at a time (scan.LargeHeap).
package gcpace

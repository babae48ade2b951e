package limit

import "runtime/metrics"

// liveHeapMetric is the heap the garbage collector found live at the end
// of its last cycle.
const liveHeapMetric = "/gc/heap/live:bytes"

// LiveHeap is the process's live heap in bytes as the garbage collector
// last measured it: the memory an evaluation holds, without the garbage a
// collection would free (which the collector bounds by itself).
func LiveHeap() uint64 {
	s := []metrics.Sample{{Name: liveHeapMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

//go:build !linux

package gcpace

// memoryBound is unknown outside Linux: pacing then uses its full headroom.
func memoryBound() uint64 { return 0 }

// ProcessLimit is unknown outside Linux.
func ProcessLimit() uint64 { return 0 }

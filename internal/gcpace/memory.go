package gcpace

import (
	"strconv"
	"strings"
	"sync"
)

// Headroom is max, or an eighth of the memory the process may use when
// that is less, so that pacing never asks for much of a small machine or
// container.
func Headroom(max uint64) uint64 {
	if bound := memoryBound(); bound > 0 && bound/8 < max {
		return bound / 8
	}
	return max
}

// cgroupLimit reads the memory limit of the process's cgroup: selfCgroup is
// the text of /proc/self/cgroup, and read reads a file under the cgroup
// file system root. It returns 0 when no limit is set or none can be read.
// Both cgroup v2 (memory.max) and v1 (memory.limit_in_bytes) are read, at
// the process's own cgroup first and at the root of the mount second (a
// container usually sees its own cgroup there).
func cgroupLimit(selfCgroup string, read func(path string) ([]byte, error)) uint64 {
	var candidates []string
	for _, line := range strings.Split(selfCgroup, "\n") {
		id, rest, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		controllers, path, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		path = strings.TrimSuffix(path, "/")
		switch {
		case id == "0" && controllers == "":
			candidates = append(candidates, path+"/memory.max")
		case containsField(controllers, "memory"):
			candidates = append(candidates, "memory"+path+"/memory.limit_in_bytes")
		}
	}
	candidates = append(candidates, "memory.max", "memory/memory.limit_in_bytes")
	for _, c := range candidates {
		b, err := read(strings.TrimPrefix(c, "/"))
		if err != nil {
			continue
		}
		s := strings.TrimSpace(string(b))
		if s == "max" {
			continue
		}
		n, err := strconv.ParseUint(s, 10, 64)
		// cgroup v1 writes "no limit" as a number near the largest int64.
		if err != nil || n == 0 || n >= 1<<62 {
			continue
		}
		return n
	}
	return 0
}

// containsField reports whether the comma-separated list has name.
func containsField(list, name string) bool {
	for _, f := range strings.Split(list, ",") {
		if f == name {
			return true
		}
	}
	return false
}

// MemoryBound is the memory the process may use: the smallest of the
// machine's memory and the limits set on the process (ProcessLimit), or 0
// when none is known. It is read once per process: every evaluation asks
// for it (its default memory bound), and reading the cgroup's files each
// time took about 1.5% of the instructions of evaluating
// terraform-aws-vpc's complete example, more in system time.
func MemoryBound() uint64 { return processMemoryBound() }

// processMemoryBound is memoryBound, read on first use.
var processMemoryBound = sync.OnceValue(memoryBound)

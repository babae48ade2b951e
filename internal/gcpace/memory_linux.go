package gcpace

import (
	"os"
	"path/filepath"
	"syscall"
)

// cgroupRoot is where Linux mounts the cgroup file system.
const cgroupRoot = "/sys/fs/cgroup"

// memoryBound is the smallest of the machine's memory, the process's
// cgroup limit and its resource limits on data and address space (a
// runner started with ulimit -d or -v), or 0 when none is known.
func memoryBound() uint64 {
	var bound uint64
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) == nil {
		bound = uint64(info.Totalram) * uint64(info.Unit)
	}
	if limit := ProcessLimit(); limit > 0 && (bound == 0 || limit < bound) {
		bound = limit
	}
	return bound
}

// ProcessLimit is the smallest limit set on the process's memory: its
// cgroup's, or its resource limits on data and address space; 0 when none
// is set. Unlike the machine's memory, going past one of these kills the
// process, so the command sets the collector's soft limit below it.
func ProcessLimit() uint64 {
	var limit uint64
	lower := func(n uint64) {
		if n > 0 && n < 1<<62 && (limit == 0 || n < limit) {
			limit = n
		}
	}
	for _, r := range []int{syscall.RLIMIT_DATA, syscall.RLIMIT_AS} {
		var rl syscall.Rlimit
		if syscall.Getrlimit(r, &rl) == nil { // no limit reads as the largest value
			lower(rl.Cur)
		}
	}
	if self, err := os.ReadFile("/proc/self/cgroup"); err == nil {
		lower(cgroupLimit(string(self), func(path string) ([]byte, error) {
			return os.ReadFile(filepath.Join(cgroupRoot, path))
		}))
	}
	return limit
}

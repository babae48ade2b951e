package gcpace

import (
	"os"
	"path/filepath"
	"syscall"
)

// cgroupRoot is where Linux mounts the cgroup file system.
const cgroupRoot = "/sys/fs/cgroup"

// memoryBound is the smaller of the machine's memory and the process's
// cgroup limit, or 0 when neither is known.
func memoryBound() uint64 {
	var bound uint64
	var info syscall.Sysinfo_t
	if syscall.Sysinfo(&info) == nil {
		bound = uint64(info.Totalram) * uint64(info.Unit)
	}
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return bound
	}
	limit := cgroupLimit(string(self), func(path string) ([]byte, error) {
		return os.ReadFile(filepath.Join(cgroupRoot, path))
	})
	if limit > 0 && (bound == 0 || limit < bound) {
		return limit
	}
	return bound
}

package gcpace

import (
	"errors"
	"io/fs"
	"testing"
)

func TestCgroupLimit(t *testing.T) {
	const gib = 1 << 30
	tests := []struct {
		name  string
		self  string
		files map[string]string
		want  uint64
	}{
		{
			name:  "v2 own cgroup",
			self:  "0::/ci/job-7\n",
			files: map[string]string{"ci/job-7/memory.max": "2147483648\n", "memory.max": "max\n"},
			want:  2 * gib,
		},
		{
			name:  "v2 unlimited",
			self:  "0::/ci/job-7\n",
			files: map[string]string{"ci/job-7/memory.max": "max\n"},
		},
		{
			name:  "v2 in a container sees its own root",
			self:  "0::/\n",
			files: map[string]string{"memory.max": "536870912\n"},
			want:  gib / 2,
		},
		{
			name: "v1 memory controller among others",
			self: "5:cpu,cpuacct:/\n4:memory:/process_api/abc\n0::/\n",
			files: map[string]string{
				"memory/process_api/abc/memory.limit_in_bytes": "4294967296\n",
			},
			want: 4 * gib,
		},
		{
			name:  "v1 no limit is a huge number",
			self:  "4:memory:/x\n",
			files: map[string]string{"memory/x/memory.limit_in_bytes": "9223372036854771712\n"},
		},
		{
			name:  "v1 limit at the mount root",
			self:  "4:memory:/x\n",
			files: map[string]string{"memory/memory.limit_in_bytes": "1073741824\n"},
			want:  gib,
		},
		{
			name:  "garbage is ignored",
			self:  "not a cgroup line\n0::/a\n",
			files: map[string]string{"a/memory.max": "lots\n"},
		},
		{name: "nothing readable", self: ""},
	}
	for _, tt := range tests {
		read := func(path string) ([]byte, error) {
			if s, ok := tt.files[path]; ok {
				return []byte(s), nil
			}
			return nil, fs.ErrNotExist
		}
		if got := cgroupLimit(tt.self, read); got != tt.want {
			t.Errorf("%s: cgroupLimit = %d, want %d", tt.name, got, tt.want)
		}
	}
	if got := cgroupLimit("0::/\n", func(string) ([]byte, error) { return nil, errors.New("denied") }); got != 0 {
		t.Errorf("unreadable files: %d, want 0", got)
	}
}

func TestHeadroom(t *testing.T) {
	bound := memoryBound()
	for _, max := range []uint64{1 << 20, 1 << 30, 1 << 40} {
		got := Headroom(max)
		if got > max {
			t.Errorf("Headroom(%d) = %d, above the maximum", max, got)
		}
		if bound > 0 && got > bound/8 {
			t.Errorf("Headroom(%d) = %d, above an eighth of the %d bytes this process may use", max, got, bound)
		}
		if bound > 0 && got < min(max, bound/8) {
			t.Errorf("Headroom(%d) = %d, want %d", max, got, min(max, bound/8))
		}
	}
}

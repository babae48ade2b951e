package benchgen

// splitmix is SplitMix64: a fixed algorithm, so trees stay byte-identical
// across Go releases, unlike anything whose stream the standard library may change.
type splitmix struct{ state uint64 }

func (r *splitmix) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// between returns an integer in [lo, hi].
func (r *splitmix) between(lo, hi int) int {
	return lo + int(r.next()%uint64(hi-lo+1))
}

// chance reports true about once in every n calls.
func (r *splitmix) chance(n int) bool {
	return r.next()%uint64(n) == 0
}

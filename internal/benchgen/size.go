package benchgen

import "fmt"

// Size names one of the preset tree sizes.
type Size string

// The preset sizes: the number of child module directories is 10, 100 and
// 1,000, with about 100 resource instances per directory.
const (
	Small  Size = "small"
	Medium Size = "medium"
	Large  Size = "large"
)

// Sizes lists every preset, smallest first.
var Sizes = []Size{Small, Medium, Large}

// shape is the arithmetic a Size stands for.
type shape struct {
	modules   int    // child module directories (services plus components)
	instances int    // resource instances the tree aims for
	seed      uint64 // distinct per size so trees are not prefixes of each other
}

func (s Size) shape() (shape, error) {
	switch s {
	case Small:
		return shape{modules: 10, instances: 1_000, seed: 0x5eed_0001}, nil
	case Medium:
		return shape{modules: 100, instances: 10_000, seed: 0x5eed_0002}, nil
	case Large:
		return shape{modules: 1_000, instances: 100_000, seed: 0x5eed_0003}, nil
	}
	return shape{}, fmt.Errorf("benchgen: unknown size %q (want small, medium or large)", string(s))
}

// ParseSize accepts the name of a preset size.
func ParseSize(name string) (Size, error) {
	s := Size(name)
	if _, err := s.shape(); err != nil {
		return "", err
	}
	return s, nil
}

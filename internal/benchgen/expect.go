package benchgen

// ExpectedInstances is the number of resource instances a plan of the tree
// for size contains (0 for an unknown size).
func ExpectedInstances(size Size) int {
	p, err := newPlan(size)
	if err != nil {
		return 0
	}
	return p.instances()
}

// ExpectedModules is the number of child module directories in the tree.
func ExpectedModules(size Size) int {
	p, err := newPlan(size)
	if err != nil {
		return 0
	}
	return p.directories()
}

// ExpectedModuleInstances is the number of child module instances a plan
// expands, more than ExpectedModules because some calls use count or for_each.
func ExpectedModuleInstances(size Size) int {
	p, err := newPlan(size)
	if err != nil {
		return 0
	}
	return p.moduleInstances()
}

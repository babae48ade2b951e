package benchgen

import (
	"fmt"
	"math"
)

// The root's environments and zones, fixed because the tfvars and the
// arithmetic below must agree on them.
var (
	environments = []string{"prod", "staging"} // sorted, as for_each orders keys
	zones        = []string{"eu-west-1a", "eu-west-1b"}
)

// Catalog items are generated in each service by a for expression; these are
// the formulas it uses, mirrored here to count what it produces.
func catalogSize(i int) int     { return i%5 + 1 }
func catalogEnabled(i int) bool { return i%8 != 7 }

// bigItemSize is the smallest item size that gets a mock_thing.
const bigItemSize = 3

// extraItem is a literal entry a service adds to a component's items map.
type extraItem struct {
	key     string
	size    int
	enabled int // -1 leaves the optional attribute out (default true)
	labels  bool
}

// component is one leaf module directory and the call that instantiates it.
type component struct {
	index    int    // position within its service
	name     string // e.g. svc-03-c-007, also the directory name
	call     string // module call name in the service, e.g. c_007
	counted  bool   // the call has count = length(var.network.zones)
	replicas int
	tier     string // "" leaves the optional attribute out
	ports    []int  // nil leaves the optional attribute out
	cpu      int    // 0 leaves limits out
	sizeCap  int    // catalog items up to this size are passed in
	extras   []extraItem
	subnets  int
}

// service is one service module directory and the root's call of it.
type service struct {
	index      int
	name       string // svc-03
	call       string // svc_03
	perEnv     bool   // the call has for_each = var.environments
	catalog    int    // number of generated catalog items
	components []*component
}

// plan is the whole tree before it is rendered.
type plan struct {
	size     Size
	services []*service
}

func newPlan(size Size) (*plan, error) {
	sh, err := size.shape()
	if err != nil {
		return nil, err
	}
	r := &splitmix{state: sh.seed}
	nsvc := int(math.Round(math.Sqrt(float64(sh.modules))))
	ncomp := sh.modules - nsvc
	p := &plan{size: size}
	for i := 0; i < nsvc; i++ {
		s := &service{
			index:   i,
			name:    fmt.Sprintf("svc-%02d", i),
			call:    fmt.Sprintf("svc_%02d", i),
			perEnv:  i%4 == 1,
			catalog: r.between(30, 50),
		}
		n := ncomp / nsvc
		if i < ncomp%nsvc {
			n++
		}
		for j := 0; j < n; j++ {
			s.components = append(s.components, newComponent(r, s, j))
		}
		p.services = append(p.services, s)
	}
	p.calibrate(sh.instances)
	return p, nil
}

func newComponent(r *splitmix, s *service, j int) *component {
	c := &component{
		index:    j,
		name:     fmt.Sprintf("%s-c-%03d", s.name, j),
		call:     fmt.Sprintf("c_%03d", j),
		counted:  j%5 == 2,
		replicas: r.between(5, 40),
		sizeCap:  r.between(2, 5),
		subnets:  r.between(2, 8),
	}
	switch r.between(0, 2) {
	case 1:
		c.tier = "premium"
	case 2:
		c.tier = "burst"
	}
	if !r.chance(3) {
		c.ports = [][]int{{80, 443}, {8080}, {80, 443, 8443}, {5432}}[r.between(0, 3)]
	}
	if r.chance(2) {
		c.cpu = r.between(1, 4)
	}
	for k, n := 0, r.between(0, 3); k < n; k++ {
		e := extraItem{key: fmt.Sprintf("extra-%c", 'a'+k), size: r.between(1, 5), enabled: -1}
		if r.chance(3) {
			e.enabled = r.between(0, 1)
		}
		e.labels = r.chance(2)
		c.extras = append(c.extras, e)
	}
	return c
}

// calibrate scales replica counts so the total lands near the target.
func (p *plan) calibrate(target int) {
	replicas := 0
	for _, s := range p.services {
		for _, c := range s.components {
			replicas += p.serviceMultiplicity(s) * c.multiplicity() * c.replicas
		}
	}
	rest := p.instances() - replicas
	f := float64(target-rest) / float64(replicas)
	for _, s := range p.services {
		for _, c := range s.components {
			c.replicas = max(1, int(math.Round(float64(c.replicas)*f)))
		}
	}
}

func (p *plan) serviceMultiplicity(s *service) int {
	if s.perEnv {
		return len(environments)
	}
	return 1
}

func (c *component) multiplicity() int {
	if c.counted {
		return len(zones)
	}
	return 1
}

// items returns how many items a component receives, how many are enabled,
// and how many of those are big enough for a mock_thing.
func (c *component) items(catalog int) (all, enabled, big int) {
	count := func(size int, on bool) {
		all++
		if on {
			enabled++
			if size >= bigItemSize {
				big++
			}
		}
	}
	for i := 0; i < catalog; i++ {
		if catalogSize(i) <= c.sizeCap {
			count(catalogSize(i), catalogEnabled(i))
		}
	}
	for _, e := range c.extras {
		count(e.size, e.enabled != 0)
	}
	return all, enabled, big
}

// instances is the resource instances of one component module instance:
// replicas, one item per enabled item, subnets, firewalls for big items and a summary.
func (c *component) instances(catalog int) int {
	_, enabled, big := c.items(catalog)
	return c.replicas + enabled + c.subnets + big + 1
}

// instances of one service module instance: its own resources plus its components'.
func (s *service) instances() int {
	n := 1 + len(zones) // terraform_data.service, terraform_data.zone
	for _, c := range s.components {
		n += c.multiplicity() * c.instances(s.catalog)
	}
	return n
}

func (p *plan) instances() int {
	n := len(environments) + 1 // terraform_data.environment, terraform_data.inventory
	for _, s := range p.services {
		n += p.serviceMultiplicity(s) * s.instances()
	}
	return n
}

func (p *plan) moduleInstances() int {
	n := 0
	for _, s := range p.services {
		per := 1
		for _, c := range s.components {
			per += c.multiplicity()
		}
		n += p.serviceMultiplicity(s) * per
	}
	return n
}

func (p *plan) directories() int {
	n := 0
	for _, s := range p.services {
		n += 1 + len(s.components)
	}
	return n
}

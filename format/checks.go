package format

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/tfeval/tfeval/lang"
)

// Check is the status of the conditions of one configuration object
// (a check block, a variable, an output or a resource) in each of its
// instances.
type Check struct {
	Address   CheckAddress    `json:"address"`
	Status    string          `json:"status"`
	Instances []CheckInstance `json:"instances,omitempty"`
}

// CheckAddress names a configuration object that has conditions.
type CheckAddress struct {
	// Kind is "check", "var", "output_value" or "resource".
	Kind      string `json:"kind"`
	Module    string `json:"module,omitempty"`
	Mode      string `json:"mode,omitempty"`
	Type      string `json:"type,omitempty"`
	Name      string `json:"name"`
	ToDisplay string `json:"to_display"`
}

// CheckInstance is the status of one instance's conditions.
type CheckInstance struct {
	Address  CheckInstanceAddress `json:"address"`
	Status   string               `json:"status"`
	Problems []CheckProblem       `json:"problems,omitempty"`
}

// CheckInstanceAddress names one instance of a checked object.
type CheckInstanceAddress struct {
	Module      string `json:"module,omitempty"`
	InstanceKey any    `json:"instance_key,omitempty"`
	ToDisplay   string `json:"to_display"`
}

// CheckProblem is the error message of a failed condition.
type CheckProblem struct {
	Message string `json:"message"`
}

// planChecks groups the status of every condition rule by object instance
// and by configuration object.
func planChecks(results []lang.CheckResult) []Check {
	type instance struct {
		ci       CheckInstance
		statuses []lang.CheckStatus
	}
	type object struct {
		c         Check
		instances map[string]*instance
	}
	objects := map[string]*object{}
	for _, r := range results {
		local := strings.TrimPrefix(r.Object, r.Module)
		local = strings.TrimPrefix(local, ".")
		addr := checkAddress(r, local)
		o := objects[addr.ToDisplay]
		if o == nil {
			o = &object{c: Check{Address: addr}, instances: map[string]*instance{}}
			objects[addr.ToDisplay] = o
		}
		in := o.instances[r.Object]
		if in == nil {
			in = &instance{ci: CheckInstance{Address: CheckInstanceAddress{Module: r.Module, ToDisplay: r.Object}}}
			if r.Kind == lang.CheckPrecondition || r.Kind == lang.CheckPostcondition {
				if strings.HasSuffix(local, "]") {
					if i := strings.LastIndexByte(local, '['); i > 0 {
						in.ci.Address.InstanceKey = keyValue(local[i+1 : len(local)-1])
					}
				}
			}
			o.instances[r.Object] = in
		}
		in.statuses = append(in.statuses, r.Status)
		if r.Status == lang.CheckFail {
			in.ci.Problems = append(in.ci.Problems, CheckProblem{Message: r.ErrorMessage})
		}
	}
	var out []Check
	for _, key := range sortedKeys(objects) {
		o := objects[key]
		var statuses []lang.CheckStatus
		for _, ik := range sortedKeys(o.instances) {
			in := o.instances[ik]
			in.ci.Status = aggregate(in.statuses)
			statuses = append(statuses, statusOf(in.ci.Status))
			o.c.Instances = append(o.c.Instances, in.ci)
		}
		o.c.Status = aggregate(statuses)
		out = append(out, o.c)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Address.ToDisplay < out[j].Address.ToDisplay })
	return out
}

// checkAddress is the configuration object a rule belongs to; local is its
// instance's address inside its module instance.
func checkAddress(r lang.CheckResult, local string) CheckAddress {
	module := unkeyed(r.Module)
	a := CheckAddress{Module: module}
	switch r.Kind {
	case lang.CheckAssertion:
		a.Kind, a.Name = "check", strings.TrimPrefix(local, "check.")
	case lang.CheckValidation:
		a.Kind, a.Name = "var", strings.TrimPrefix(local, "var.")
	default:
		if name, ok := strings.CutPrefix(local, "output."); ok {
			a.Kind, a.Name = "output_value", name
			break
		}
		a.Kind, a.Mode = "resource", "managed"
		res := local
		if i := strings.IndexByte(res, '['); i >= 0 {
			res = res[:i]
		}
		if rest, ok := strings.CutPrefix(res, "data."); ok {
			a.Mode, res = "data", rest
		}
		a.Type, a.Name, _ = strings.Cut(res, ".")
		local = res
		if a.Mode == "data" {
			local = "data." + res
		}
	}
	display := local
	switch a.Kind {
	case "check", "var":
		display = a.Kind + "." + a.Name
	case "output_value":
		display = "output." + a.Name
	}
	if module != "" {
		display = module + "." + display
	}
	a.ToDisplay = display
	return a
}

// keyValue is an instance key written in an address as show -json writes
// it: a number, or a string without its quotes.
func keyValue(s string) any {
	if len(s) >= 2 && s[0] == '"' {
		return unquote(s)
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return s
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// unquote removes the quotes of a string written in an address.
func unquote(s string) string {
	var out string
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return strings.Trim(s, `"`)
	}
	return out
}

// aggregate is the status of a set of statuses: an error or a failure
// makes the whole fail (an error first), then any unknown makes it
// unknown; otherwise it passes.
func aggregate(ss []lang.CheckStatus) string {
	has := map[lang.CheckStatus]bool{}
	for _, s := range ss {
		has[s] = true
	}
	switch {
	case has[lang.CheckError]:
		return "error"
	case has[lang.CheckFail]:
		return "fail"
	case has[lang.CheckUnknown] || len(ss) == 0:
		return "unknown"
	}
	return "pass"
}

// statusOf reads a status back.
func statusOf(s string) lang.CheckStatus {
	switch s {
	case "fail":
		return lang.CheckFail
	case "error":
		return lang.CheckError
	case "unknown":
		return lang.CheckUnknown
	}
	return lang.CheckPass
}

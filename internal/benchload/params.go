package benchload

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Param is one setting of a workload: a flag of the bench command, with
// its value in a full run and in a quick one (the Go benchmarks use the
// quick values). Values are whole numbers, written as in Go ("100000",
// "1e5"); a List takes several, comma-separated.
type Param struct {
	Name, Usage string
	Full, Quick string
	// Min and Max bound every value.
	Min, Max float64
	List     bool
}

// Config is the settings of a run: the concurrency, and every workload's
// parameters by name, as text.
type Config struct {
	// Concurrency is the number of concurrent callers of a comparison
	// measured at the run's concurrency.
	Concurrency int
	// Quick marks a quick run (small everything).
	Quick  bool
	Values map[string]string
}

// DefaultConcurrency is the concurrency of a run unless set: 16, what the
// Go benchmarks' b.RunParallel runs at with 8 goroutines per CPU on 2
// cores, enough requests in flight that rueidis pipelines them.
const DefaultConcurrency = 16

// Defaults returns every parameter's full (or quick) value.
func Defaults(quick bool) Config {
	c := Config{Concurrency: DefaultConcurrency, Quick: quick, Values: map[string]string{}}
	for _, p := range Params() {
		c.Values[p.Name] = p.Full
		if quick {
			c.Values[p.Name] = p.Quick
		}
	}
	return c
}

// With returns c with the parameter name set to value.
func (c Config) With(name, value string) Config {
	vs := make(map[string]string, len(c.Values)+1)
	for k, v := range c.Values {
		vs[k] = v
	}
	vs[name] = value
	c.Values = vs
	return c
}

// Params returns every workload's parameters, in workload order.
func Params() []Param {
	var ps []Param
	for _, w := range registry {
		ps = append(ps, w.Params...)
	}
	return ps
}

// Ints returns the values of parameter name, ascending and distinct. It
// panics on a value Check would refuse: a workload reads only its own,
// checked parameters.
func (c Config) Ints(name string) []int64 {
	i := slices.IndexFunc(Params(), func(p Param) bool { return p.Name == name })
	if i < 0 {
		panic("benchload: no parameter " + name)
	}
	vs, err := Params()[i].parse(c.Values[name])
	if err != nil {
		panic(err)
	}
	return vs
}

// Int returns the value of the single-valued parameter name.
func (c Config) Int(name string) int { return int(c.Ints(name)[0]) }

// Check refuses a setting that no workload of ws can run with.
func (c Config) Check(ws []Workload) error {
	var errs []error
	if c.Concurrency < 1 {
		errs = append(errs, fmt.Errorf("concurrency %d: want at least 1", c.Concurrency))
	}
	for _, w := range ws {
		for _, p := range w.Params {
			if _, err := p.parse(c.Values[p.Name]); err != nil {
				errs = append(errs, err)
			}
		}
		if w.Validate != nil && len(errs) == 0 {
			errs = append(errs, w.Validate(c))
		}
	}
	return errors.Join(errs...)
}

// parse reads s as p's values.
func (p Param) parse(s string) ([]int64, error) {
	fields := strings.Split(s, ",")
	if !p.List && len(fields) != 1 {
		return nil, fmt.Errorf("%s %q: want one number", p.Name, s)
	}
	var out []int64
	for _, f := range fields {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || v != math.Trunc(v) || v < p.Min || v > p.Max {
			return nil, fmt.Errorf("%s %q: want whole numbers in [%g, %g], such as %s", p.Name, f, p.Min, p.Max, p.Full)
		}
		out = append(out, int64(v))
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

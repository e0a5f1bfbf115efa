// Package zerotest calls every exported method of a zero value, for the
// tests of the packages whose handles are made by a constructor: a
// handle used without it (a zero struct, or a nil pointer) must answer
// with an error, never panic.
package zerotest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// Check calls every exported method of v (a zero value, or a nil
// pointer) with zero arguments (a live context for a context.Context, a
// nil slice for a variadic tail) and fails t for each that panics, and
// for each that returns an error, if it returns one, not wrapping want.
// The methods that return no error (Name, Options and the like) must
// only not panic.
func Check(t *testing.T, v any, want error) {
	t.Helper()
	rv := reflect.ValueOf(v)
	ctxType := reflect.TypeFor[context.Context]()
	errType := reflect.TypeFor[error]()
	for i := range rv.NumMethod() {
		m := rv.Type().Method(i)
		ft := rv.Method(i).Type()
		args := make([]reflect.Value, ft.NumIn())
		for j := range args {
			if ft.In(j) == ctxType {
				args[j] = reflect.ValueOf(context.Background())
			} else {
				args[j] = reflect.Zero(ft.In(j))
			}
		}
		name := fmt.Sprintf("%v.%s", rv.Type(), m.Name)
		out, panicked := call(rv.Method(i), args, ft.IsVariadic())
		if panicked != nil {
			t.Errorf("%s on a value not made by its constructor panics: %v", name, panicked)
			continue
		}
		var err error
		for _, o := range out {
			if o.Type() == errType && !o.IsNil() {
				err = o.Interface().(error)
			}
		}
		returnsErr := false
		for k := range ft.NumOut() {
			returnsErr = returnsErr || ft.Out(k) == errType
		}
		switch {
		case !returnsErr:
		case err == nil:
			t.Errorf("%s on a value not made by its constructor returns no error", name)
		case err != nil && !errors.Is(err, want):
			t.Errorf("%s on a value not made by its constructor: %v, want %v", name, err, want)
		}
	}
}

func call(f reflect.Value, args []reflect.Value, variadic bool) (out []reflect.Value, panicked any) {
	defer func() { panicked = recover() }()
	if variadic {
		return f.CallSlice(args), nil
	}
	return f.Call(args), nil
}

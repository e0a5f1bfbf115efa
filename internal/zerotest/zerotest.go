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

	"github.com/tiebreak/tiebreak/internal/errs"
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

// NilContext runs calls, each an exported method of v (a handle made by
// its constructor) given a nil context.Context and arguments it would
// otherwise take, and fails t for each that panics or returns an error
// not wrapping both want and errs.NilCtx (a refusal of another argument
// does not count: the nil context is refused first), and for each method
// of v taking a context that calls lacks: a method added later fails the
// test until its case is written.
func NilContext(t *testing.T, v any, calls map[string]func(context.Context) error, want error) {
	t.Helper()
	rv := reflect.ValueOf(v)
	ctxType := reflect.TypeFor[context.Context]()
	for i := range rv.NumMethod() {
		ft, name := rv.Method(i).Type(), rv.Type().Method(i).Name
		if _, ok := calls[name]; !ok && ft.NumIn() > 0 && ft.In(0) == ctxType {
			t.Errorf("%v.%s takes a context and has no nil-context case", rv.Type(), name)
		}
	}
	for name, f := range calls {
		var err error
		_, panicked := call(reflect.ValueOf(func() { err = f(nil) }), nil, false)
		switch {
		case panicked != nil:
			t.Errorf("%v.%s with a nil context.Context panics: %v", rv.Type(), name, panicked)
		case !errors.Is(err, want) || !errors.Is(err, errs.NilCtx):
			t.Errorf("%v.%s with a nil context.Context: %v, want %v refusing the context first", rv.Type(), name, err, errs.NilCtx)
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

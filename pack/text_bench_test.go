package pack

import (
	"math/big"
	"strings"
	"testing"
)

// benchSink keeps results alive so the compiler cannot drop the work.
var benchSink struct {
	b []byte
	s string
	u uint64
	i int64
}

func BenchmarkIntText(b *testing.B) {
	encoders := []struct {
		name string
		f    func([]byte, int) ([]byte, error)
	}{
		{"AppendUint", func(d []byte, i int) ([]byte, error) { return AppendUint(d, uint64(i), 20) }},
		{"AppendUintDesc", func(d []byte, i int) ([]byte, error) { return AppendUintDesc(d, uint64(i), 20) }},
		{"AppendInt", func(d []byte, i int) ([]byte, error) { return AppendInt(d, -int64(i), 19) }},
		{"AppendIntDesc", func(d []byte, i int) ([]byte, error) { return AppendIntDesc(d, -int64(i), 19) }},
		{"AppendUint64", func(d []byte, i int) ([]byte, error) { return AppendUint64(d, uint64(i)), nil }},
		{"AppendInt64", func(d []byte, i int) ([]byte, error) { return AppendInt64(d, int64(i)), nil }},
	}
	for _, e := range encoders {
		b.Run(e.name+"/cap", func(b *testing.B) {
			b.ReportAllocs()
			buf := make([]byte, 0, 32)
			for i := 0; b.Loop(); i++ {
				buf, _ = e.f(buf[:0], i)
			}
			benchSink.b = buf
		})
		b.Run(e.name+"/nil", func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				benchSink.b, _ = e.f(nil, i)
			}
		})
	}
	u20, i19 := string(AppendUint64(nil, 1<<60)), string(AppendInt64(nil, -1<<60))
	b.Run("ParseUint/string", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchSink.u, _ = ParseUint(u20, 20)
		}
	})
	b.Run("ParseUint/bytes", func(b *testing.B) {
		b.ReportAllocs()
		in := []byte(u20)
		for b.Loop() {
			benchSink.u, _ = ParseUint(in, 20)
		}
	})
	b.Run("ParseInt/string", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchSink.i, _ = ParseInt(i19, 19)
		}
	})
}

func BenchmarkDecimal(b *testing.B) {
	inputs := []struct{ name, s string }{
		{"short", "-25500.12345"},
		{"long", "1234567890123456789012345678901234567890.123456789"},
		{"huge", strings.Repeat("9", 1000) + "e-500"},
	}
	for _, in := range inputs {
		benchDecimalText(b, in.name, in.s)
	}
	coef, _ := new(big.Int).SetString("-2550012345", 10)
	b.Run("AppendDecimalBig/cap/short", func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 64)
		for b.Loop() {
			buf, _ = AppendDecimalBig(buf[:0], coef, -5)
		}
		benchSink.b = buf
	})
	enc, _ := EncodeDecimal("-25500.12345")
	b.Run("DecodeDecimalBig/short", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c, _, _, _ := DecodeDecimalBig(enc)
			benchSink.i = c.Int64()
		}
	})
}

func benchDecimalText(b *testing.B, name, s string) {
	enc, err := EncodeDecimal(s)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("AppendDecimal/cap/"+name, func(b *testing.B) {
		b.ReportAllocs()
		buf := make([]byte, 0, 2048)
		for b.Loop() {
			buf, _ = AppendDecimal(buf[:0], s)
		}
		benchSink.b = buf
	})
	b.Run("EncodeDecimal/"+name, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchSink.s, _ = EncodeDecimal(s)
		}
	})
	b.Run("DecodeDecimal/string/"+name, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchSink.s, _, _ = DecodeDecimal(enc)
		}
	})
	b.Run("DecodeDecimal/bytes/"+name, func(b *testing.B) {
		b.ReportAllocs()
		encb := []byte(enc)
		for b.Loop() {
			benchSink.s, _, _ = DecodeDecimal(encb)
		}
	})
	b.Run("CanonicalDecimal/"+name, func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchSink.s, _ = CanonicalDecimal(s)
		}
	})
}

package pack

import "testing"

func benchLayout(b *testing.B) *Layout {
	b.Helper()
	return mustLayout(b, Field{Name: "points", Width: 23}, Field{Name: "paid", Width: 1}, Field{Name: "time", Width: 29, Dir: LowerIsBetter})
}

func BenchmarkLayout(b *testing.B) {
	l := benchLayout(b)
	vals := []int64{100, 1, 290072179}
	b.Run("Pack", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			vals[0] = int64(i & 0xffff)
			if _, err := l.Pack(vals...); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("UnpackTo", func(b *testing.B) {
		b.ReportAllocs()
		dst := make([]int64, 3)
		for i := 0; i < b.N; i++ {
			if err := l.UnpackTo(dst, float64(108201125491+i&0xffff)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Unpack", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := l.Unpack(108201125491); err != nil {
				b.Fatal(err)
			}
		}
	})
}

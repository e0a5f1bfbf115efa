package tsid

import "testing"

// sinks keep results alive so the compiler cannot drop the work.
var (
	sinkScore float64
	sinkID    uint64
	sinkID128 [16]byte
	sinkBytes []byte
	sinkStr   string
)

func BenchmarkLayout(b *testing.B) {
	const id = 38390726480144748
	buf := make([]byte, 0, 32)
	b.Run("AppendSplit", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			sinkScore, sinkBytes, _ = TSID.AppendSplit(buf[:0], id+uint64(i))
		}
	})
	b.Run("Split", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			sinkScore, sinkStr, _ = TSID.Split(id + uint64(i))
		}
	})
	b.Run("Join", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			sinkID, _ = TSID.Join(float64(9153062458+i&0xffff), "04a96c")
		}
	})
	b.Run("ParseCrockford", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkID, _ = TSID.Parse("0123456789ABC")
		}
	})
	b.Run("ParseDecimal", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkID, _ = Discord.Parse("175928847299117063")
		}
	})
	b.Run("AppendFormat", func(b *testing.B) {
		b.ReportAllocs()
		for i := range b.N {
			sinkBytes = TSID.AppendFormat(buf[:0], id+uint64(i))
		}
	})
}

func BenchmarkLayout128(b *testing.B) {
	id, _ := UUIDv7.Parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	buf := make([]byte, 0, 40)
	b.Run("AppendSplit", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkScore, sinkBytes, _ = UUIDv7.AppendSplit(buf[:0], id)
		}
	})
	b.Run("Join", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkID128, _ = UUIDv7.Join(1645557742000, "7cc398c4dc0c0c07398f")
		}
	})
	b.Run("ParseULID", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkID128, _ = ULID.Parse("01AN4Z07BY79KA1307SR9X4MV3")
		}
	})
	b.Run("ParseUUIDv7", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			sinkID128, _ = UUIDv7.Parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
		}
	})
}

func BenchmarkGeneratorNext(b *testing.B) {
	g, err := NewGenerator(GeneratorOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := g.Next(); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

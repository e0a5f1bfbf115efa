package timeline

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

// TestMain runs the package's tests through redistest, which gives the
// tests a real Redis (and stops it afterwards).
func TestMain(m *testing.M) { redistest.Main(m) }

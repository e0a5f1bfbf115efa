package observe_test

import (
	"testing"

	"github.com/tiebreak/tiebreak/internal/redistest"
)

func TestMain(m *testing.M) { redistest.Main(m) }

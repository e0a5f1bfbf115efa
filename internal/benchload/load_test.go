package benchload

import (
	"testing"

	"github.com/redis/rueidis"
)

// TestLoadChunkShared checks that a load's chunk goes through the client's
// shared connection: rueidis sends a DoMulti of DefaultBlockingPipeline
// commands or more on a dedicated one (see LoadChunk).
func TestLoadChunkShared(t *testing.T) {
	if LoadChunk >= rueidis.DefaultBlockingPipeline {
		t.Errorf("LoadChunk = %d, want under rueidis.DefaultBlockingPipeline (%d)", LoadChunk, rueidis.DefaultBlockingPipeline)
	}
}

package redisserver

import (
	"context"
	"net"
	"strconv"
	"time"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/internal/redisops"
)

// Dial connects a client to addr. rueidis picks cluster mode by itself when
// addr is a cluster node.
func Dial(addrs ...string) (rueidis.Client, error) {
	return rueidis.NewClient(rueidis.ClientOption{InitAddress: addrs, DisableCache: true})
}

// DialNode connects to the single node addr, even when it is a cluster node.
// The dial, and rueidis's handshake after it (HELLO, CLIENT SETINFO), may
// take dialTimeout: a node of a loaded machine moving slots under load
// took more than a second to answer its handshake.
func DialNode(addr string) (rueidis.Client, error) {
	return rueidis.NewClient(rueidis.ClientOption{
		InitAddress:       []string{addr},
		DisableCache:      true,
		ForceSingleClient: true,
		DisableRetry:      true,
		Dialer:            net.Dialer{Timeout: dialTimeout},
	})
}

// dialTimeout bounds DialNode's dial and handshake. A node that is down
// refuses the connection at once; the bound only waits out a slow one.
const dialTimeout = 5 * time.Second

// info runs INFO section (or CLUSTER INFO when section is "cluster") on the
// single node addr and returns its fields.
func info(addr, section string) (map[string]string, error) {
	c, err := DialNode(addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	cmd := c.B().Info().Section(section).Build()
	if section == "cluster" {
		cmd = c.B().ClusterInfo().Build()
	}
	text, err := c.Do(ctx, cmd).ToString()
	if err != nil {
		return nil, err
	}
	return redisops.ParseInfo(text), nil
}

// serverPID returns the process id of the server answering on addr.
func serverPID(addr string) (int, error) {
	fields, err := info(addr, "server")
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(fields["process_id"])
}

package redisserver

import (
	"errors"
	"math/rand/v2"
	"net"
	"strconv"
)

// Ports are drawn from [portLow, portLow+portSpan), and a cluster node's bus
// port (port+10000) then stays below 32768: both stay out of Linux's
// ephemeral range, so outgoing connections cannot grab them between the
// check here and redis-server's bind. Parallel test binaries may still draw
// the same port; callers retry on errPortInUse.
const (
	portLow     = 10000
	portSpan    = 12000
	busOffset   = 10000
	portsToTest = 50
)

// freePort returns a loopback port that is free now, and whose cluster bus
// port is free too when withBus is set.
func freePort(withBus bool) (int, error) {
	for range portsToTest {
		port := portLow + rand.IntN(portSpan)
		if !portFree(port) {
			continue
		}
		if withBus && !portFree(port+busOffset) {
			continue
		}
		return port, nil
	}
	return 0, errors.New("redisserver: no free loopback port found")
}

// portFree reports whether 127.0.0.1:port can be listened on.
func portFree(port int) bool {
	l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return false
	}
	l.Close()
	return true
}

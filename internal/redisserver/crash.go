package redisserver

// Crash kills the server with SIGKILL, as a crash of its process or
// machine would: it flushes nothing it has not already written (with
// --appendfsync always, every acknowledged write is on disk). Restart
// starts it again on the same port, in the same directory, with the same
// arguments, and Close after Crash just removes what it owns. It first
// waits for the rewrite of an append-only file its start truncated
// (aofmend.go), and returns that rewrite's error, if any, after the kill.
func (s *Server) Crash() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	err := s.proc.waitMend()
	s.proc.kill()
	return err
}

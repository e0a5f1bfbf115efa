package redisserver

// Crash kills the server with SIGKILL, as a crash of its process or
// machine would: it flushes nothing it has not already written (with
// --appendfsync always, every acknowledged write is on disk). Restart
// starts it again on the same port, in the same directory, with the same
// arguments, and Close after Crash just removes what it owns.
func (s *Server) Crash() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	s.proc.kill()
	return nil
}

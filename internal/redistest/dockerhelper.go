package redistest

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// dockerSocket is where a local Docker engine listens unless DOCKER_HOST
// says otherwise.
const dockerSocket = "/var/run/docker.sock"

// dockerStartTimeout bounds building the helper and starting the container.
const dockerStartTimeout = 10 * time.Minute

// dockerEngine reports why no Docker engine can be used, or nil when one
// may answer: DOCKER_HOST is set or the default socket exists. It only
// looks; the helper itself finds out whether the engine answers.
func dockerEngine() error {
	if os.Getenv("DOCKER_HOST") != "" {
		return nil
	}
	if _, err := os.Stat(dockerSocket); err != nil {
		return fmt.Errorf("no Docker engine: DOCKER_HOST is not set and %s is missing", dockerSocket)
	}
	return nil
}

// dockerHelperDir is the directory of the helper module that starts the
// container (docker/ beside this file). It is absent when this package is
// read from the module cache, which holds no nested module.
func dockerHelperDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("cannot locate the Docker helper")
	}
	dir := filepath.Join(filepath.Dir(file), "docker")
	if _, err := os.Stat(filepath.Join(dir, "go.mod")); err != nil {
		return "", fmt.Errorf("the Docker helper is missing (%s): run the tests from a clone of the repository", dir)
	}
	return dir, nil
}

// openDocker runs the helper module with `go run`: it starts a Redis
// container and prints its URL, and removes the container when this
// process's end closes its standard input.
func openDocker() (*backend, error) {
	dir, err := dockerHelperDir()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir, cmd.Stderr = dir, os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("go run the Docker helper: %w", err)
	}
	atExit(func() error { stdin.Close(); return cmd.Wait() })
	url, err := readHelperURL(out)
	if err != nil {
		return nil, err
	}
	return openURL(url, "docker")
}

// readHelperURL reads the helper's one protocol line.
func readHelperURL(out interface{ Read([]byte) (int, error) }) (string, error) {
	lines := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		lines <- strings.TrimSpace(line)
	}()
	select {
	case line := <-lines:
		if url, ok := strings.CutPrefix(line, "url "); ok {
			return url, nil
		}
		return "", fmt.Errorf("the Docker helper failed: %s", line)
	case <-time.After(dockerStartTimeout):
		return "", fmt.Errorf("the Docker helper gave no address within %v", dockerStartTimeout)
	}
}

// Package redisurl reads a Redis address the way every program and test of
// this module takes one: a URL, typically from the REDIS_URL environment
// variable. It never prints a password.
package redisurl

import (
	"errors"
	"fmt"
	"net/url"

	"github.com/redis/rueidis"
)

// Form is the form a Redis URL takes, quoted in every error about one.
const Form = "redis://[user:password@]host:port[/db] (rediss:// for TLS, unix:///path/to/socket)"

// Parse returns the client options for the URL raw. A malformed URL is an
// error that quotes raw without its password and says the form expected.
func Parse(raw string) (rueidis.ClientOption, error) {
	opt, err := rueidis.ParseURL(raw)
	if err != nil {
		return rueidis.ClientOption{}, fmt.Errorf("redis URL %s is malformed (%s); want %s", Redact(raw), reason(err), Form)
	}
	return opt, nil
}

// reason is err's text without the URL that url.Parse errors repeat (and
// with it the password).
func reason(err error) string {
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err.Error()
	}
	return err.Error()
}

// Redact returns raw with any password replaced by "xxxxx", fit to print.
// A URL that does not parse is not shown at all.
func Redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparseable, not shown)"
	}
	return u.Redacted()
}

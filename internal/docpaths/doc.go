// Package docpaths holds a test only: every import path of this module
// that the code, its comments and the documentation name must exist, so
// that no doc sends a reader to a package that is not there.
package docpaths

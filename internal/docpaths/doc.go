// Package docpaths holds tests only, of the documentation: every import
// path of this module that the code, its comments and the documentation
// name must exist, so that no doc sends a reader to a package that is not
// there; every Go block of README.md and docs/*.md compiles (see
// TestGoSnippetsCompile for how a fragment is wrapped), and each Go block
// of bench/README.md is code of internal/benchload; every relative
// link of those pages leads somewhere; every example honours REDIS_URL;
// and the README stays within 15 KB.
package docpaths

package baseline

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/redis/rueidis"
)

// TwoLevelIndex is the two-level decimal index for exact decimal keys: the
// integer part is the score of a bucket, named after the fraction sorted
// set of that integer part, in one sorted set; each fraction sorted set
// holds its fraction strings with score 0, read BYLEX; each price has a
// list of its values.
//
//	{name}:price.zset                     score = integer part, member = bucket key
//	{name}:price.fraction.zset:<int>      score 0, member = fraction digits
//	{name}:price.userid.list:<int>.<frac> list of values
//
// Every key carries the hash tag {name}, so on Redis Cluster the scheme
// lives on one node, as a decimalmap does.
type TwoLevelIndex struct {
	client rueidis.Client
	prefix string
}

// Price is one key of TwoLevelIndex with its values.
type Price struct {
	Key    string
	Values []string
}

// NewTwoLevelIndex keeps its keys under the hash tag {name}.
func NewTwoLevelIndex(c rueidis.Client, name string) TwoLevelIndex {
	return TwoLevelIndex{client: c, prefix: "{" + name + "}"}
}

func (s TwoLevelIndex) priceZset() string { return s.prefix + ":price.zset" }

func (s TwoLevelIndex) fractionZset(intPart string) string {
	return s.prefix + ":price.fraction.zset:" + intPart
}

func (s TwoLevelIndex) userList(price string) string { return s.prefix + ":price.userid.list:" + price }

// Save writes one price as the scheme does (without a read-back check),
// its three writes pipelined.
func (s TwoLevelIndex) Save(ctx context.Context, intPart, frac string, values []string) error {
	c := s.client
	score, err := strconv.ParseFloat(intPart, 64)
	if err != nil {
		return err
	}
	var errs []error
	for _, r := range c.DoMulti(ctx,
		c.B().Rpush().Key(s.userList(intPart+"."+frac)).Element(values...).Build(),
		c.B().Zadd().Key(s.fractionZset(intPart)).ScoreMember().ScoreMember(0, frac).Build(),
		c.B().Zadd().Key(s.priceZset()).ScoreMember().ScoreMember(score, s.fractionZset(intPart)).Build(),
	) {
		errs = append(errs, r.Error())
	}
	return errors.Join(errs...)
}

// Find is the scheme's range find(from, to), for prices with a fraction: one
// round trip for the buckets, one per bucket, one per price.
func (s TwoLevelIndex) Find(ctx context.Context, from, to string) ([]Price, error) {
	c := s.client
	fromInt, fromFrac, _ := strings.Cut(from, ".")
	toInt, toFrac, _ := strings.Cut(to, ".")
	buckets, err := c.Do(ctx, c.B().Zrange().Key(s.priceZset()).Min(fromInt).Max(toInt).Byscore().Build()).AsStrSlice()
	if err != nil {
		return nil, err
	}
	var out []Price
	for i, bucket := range buckets {
		lo, hi := "-", "+"
		if i == 0 {
			lo = "[" + fromFrac
		}
		if i == len(buckets)-1 {
			hi = "[" + toFrac
		}
		fracs, err := c.Do(ctx, c.B().Zrange().Key(bucket).Min(lo).Max(hi).Bylex().Build()).AsStrSlice()
		if err != nil {
			return nil, err
		}
		intPart := bucket[strings.LastIndexByte(bucket, ':')+1:]
		for _, f := range fracs {
			price := intPart + "." + f
			values, err := c.Do(ctx, c.B().Lrange().Key(s.userList(price)).Start(0).Stop(-1).Build()).AsStrSlice()
			if err != nil {
				return nil, err
			}
			out = append(out, Price{Key: price, Values: values})
		}
	}
	return out, nil
}

// Keys returns every key of the prices saved: the bucket set, a fraction
// set per integer part, a list per price.
func (s TwoLevelIndex) Keys(intParts, fracs []string) []string {
	out := []string{s.priceZset()}
	for _, ip := range intParts {
		out = append(out, s.fractionZset(ip))
		for _, f := range fracs {
			out = append(out, s.userList(ip+"."+f))
		}
	}
	return out
}

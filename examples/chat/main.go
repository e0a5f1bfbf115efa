package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"strings"

	"github.com/redis/rueidis"
	"github.com/tiebreak/tiebreak/examples/internal/redisconn"
	"github.com/tiebreak/tiebreak/tsid"
	"github.com/tiebreak/tiebreak/tsid/timeline"
)

func main() {
	n := flag.Int("n", 3000, "messages to write")
	size := flag.Int("page", 100, "messages per page")
	strategy := flag.String("strategy", "lex", "storage: lex or split")
	flag.Parse()
	s := timeline.LexID
	if *strategy == "split" {
		s = timeline.SplitScore
	} else if *strategy != "lex" {
		log.Fatalf("unknown strategy %q", *strategy)
	}
	conn, err := redisconn.Connect()
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close()
	fmt.Println("using", conn.Where)
	if err := run(context.Background(), os.Stdout, conn.Client, "chat", config{messages: *n, page: *size, strategy: s}); err != nil {
		log.Fatal(err)
	}
}

// config is what run writes and how it reads it back.
type config struct {
	messages, page int
	strategy       timeline.Strategy
}

// body is a message's payload.
type body struct {
	N    int    `json:"n"`
	From string `json:"from"`
	Text string `json:"text"`
}

// run writes c.messages messages into room, pages back through them and
// prints each page to w. It deletes the room when done.
func run(ctx context.Context, w io.Writer, client rueidis.Client, room string, c config) error {
	tl, err := timeline.New(client, room, tsid.TSID, timeline.Options{Strategy: c.strategy})
	if err != nil {
		return err
	}
	defer tl.Drop(ctx)
	if err := write(ctx, tl, c.messages); err != nil {
		return err
	}
	fmt.Fprintf(w, "room %q: %d messages, %s strategy, pages of %d, newest first\n", room, c.messages, c.strategy, c.page)
	p, err := tl.Latest(ctx, c.page)
	for i := 1; err == nil; i++ {
		if err := printPage(w, i, p); err != nil {
			return err
		}
		if !p.HasMore {
			return nil
		}
		p, err = tl.Before(ctx, p.Next, c.page)
	}
	return err
}

// write appends n messages with IDs from a TSID generator, in one
// pipelined round trip.
func write(ctx context.Context, tl *timeline.Timeline[uint64], n int) error {
	gen, err := tsid.NewGenerator(tsid.GeneratorOptions{Node: 7})
	if err != nil {
		return err
	}
	names := []string{"ana", "bo", "cy", "di"}
	msgs := make([]timeline.Message[uint64], n)
	for i := range msgs {
		id, err := gen.Next()
		if err != nil {
			return err
		}
		payload, _ := json.Marshal(body{N: i, From: names[i%len(names)], Text: fmt.Sprintf("hello #%d", i)})
		msgs[i] = timeline.Message[uint64]{ID: id, Payload: payload}
	}
	return tl.AppendMany(ctx, msgs)
}

// printPage prints one line: page number, size, the IDs at both ends and
// the message numbers as runs of consecutive descending numbers.
func printPage(w io.Writer, i int, p timeline.Page[uint64]) error {
	if len(p.Messages) == 0 {
		_, err := fmt.Fprintf(w, "page %3d: empty\n", i)
		return err
	}
	var runs []string
	start, prev := -1, -1
	for _, m := range p.Messages {
		var b body
		if err := json.Unmarshal(m.Payload, &b); err != nil {
			return fmt.Errorf("message %s: %w", tsid.TSID.Format(m.ID), err)
		}
		if start >= 0 && b.N == prev-1 {
			prev = b.N
			continue
		}
		if start >= 0 {
			runs = append(runs, fmt.Sprintf("%d..%d", start, prev))
		}
		start, prev = b.N, b.N
	}
	runs = append(runs, fmt.Sprintf("%d..%d", start, prev))
	first, last := p.Messages[0].ID, p.Messages[len(p.Messages)-1].ID
	_, err := fmt.Fprintf(w, "page %3d: %3d  %s..%s  #%s  more=%t\n", i, len(p.Messages),
		tsid.TSID.Format(first), tsid.TSID.Format(last), strings.Join(runs, ","), p.HasMore)
	return err
}

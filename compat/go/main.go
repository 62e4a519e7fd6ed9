// Command go-member runs one member of a Kafka consumer group with franz-go (kgo), on the
// KIP-848 consumer protocol (ConsumerGroupHeartbeat, the broker assigns) or the classic one
// (JoinGroup/SyncGroup, the client assigns), and prints what it does as JSON lines on stdout:
// started, assigned / revoked / lost partitions, each record, each commit, closed.
//
// It commits what it has polled after every non-empty poll and before giving partitions up
// (unless -commit=none), and when stdin says "commit". It leaves the group and exits when
// stdin says "quit" or ends, or once it has consumed -max-records records. With -instance-id
// it is a static member: its leave is then a temporary one (member epoch -2 on the consumer
// protocol), so a restart within the session timeout gets its partitions back.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// out writes one JSON object per line; callbacks and the poll loop share it.
type out struct {
	mu  sync.Mutex
	enc *json.Encoder
}

func (o *out) emit(event map[string]any) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := o.enc.Encode(event); err != nil {
		fmt.Fprintln(os.Stderr, "go-member: cannot write stdout:", err)
		os.Exit(1)
	}
}

// assignment is the member's current partitions, kept from the assign/revoke/lost callbacks
// (kgo calls them one at a time).
type assignment struct {
	mu    sync.Mutex
	owned map[string][]int32
}

func (a *assignment) change(delta map[string][]int32, add bool) map[string][]int32 {
	a.mu.Lock()
	defer a.mu.Unlock()
	for topic, partitions := range delta {
		kept := slices.DeleteFunc(slices.Clone(a.owned[topic]), func(p int32) bool { return slices.Contains(partitions, p) })
		if add {
			kept = append(kept, partitions...)
		}
		slices.Sort(kept)
		if len(kept) == 0 {
			delete(a.owned, topic)
		} else {
			a.owned[topic] = kept
		}
	}
	now := make(map[string][]int32, len(a.owned))
	for topic, partitions := range a.owned {
		now[topic] = slices.Clone(partitions)
	}
	return now
}

func sorted(m map[string][]int32) map[string][]int32 {
	for _, partitions := range m {
		slices.Sort(partitions)
	}
	return m
}

type options struct {
	bootstrap, topics, group, instanceID, protocol, assignor, commit string
	maxRecords                                                       int
	sessionTimeout, heartbeatInterval                                time.Duration
}

func parseFlags() options {
	var o options
	flag.StringVar(&o.bootstrap, "bootstrap", "127.0.0.1:9092", "bootstrap servers, comma-separated")
	flag.StringVar(&o.topics, "topic", "", "topics to subscribe to, comma-separated")
	flag.StringVar(&o.group, "group", "", "group.id")
	flag.StringVar(&o.instanceID, "instance-id", "", "group.instance.id: a static member")
	flag.StringVar(&o.protocol, "protocol", "consumer", "group.protocol: consumer (KIP-848) or classic")
	flag.StringVar(&o.assignor, "assignor", "uniform",
		"consumer protocol: the server assignor, uniform or range; classic: the client's, cooperative-sticky or range")
	flag.StringVar(&o.commit, "commit", "poll", "poll: commit after every non-empty poll and on revocation; none: only on stdin \"commit\"")
	flag.IntVar(&o.maxRecords, "max-records", 0, "leave the group and exit after this many records (0: no limit)")
	flag.DurationVar(&o.sessionTimeout, "session-timeout", 45*time.Second, "classic protocol: session.timeout.ms")
	flag.DurationVar(&o.heartbeatInterval, "heartbeat-interval", 3*time.Second, "classic protocol: heartbeat.interval.ms")
	flag.Parse()
	if o.topics == "" || o.group == "" {
		fmt.Fprintln(os.Stderr, "go-member: -topic and -group are required")
		os.Exit(2)
	}
	return o
}

// balancers is the group protocol choice in kgo's terms: ServerSideBalancer with the sticky
// balancer asks the broker's "uniform" assignor, with the range balancer its "range" one.
func balancers(o options) []kgo.Opt {
	switch {
	case o.protocol == "consumer" && o.assignor == "uniform":
		return []kgo.Opt{kgo.ServerSideBalancer(), kgo.Balancers(kgo.CooperativeStickyBalancer())}
	case o.protocol == "consumer" && o.assignor == "range":
		return []kgo.Opt{kgo.ServerSideBalancer(), kgo.Balancers(kgo.RangeBalancer())}
	case o.protocol == "classic" && o.assignor == "cooperative-sticky":
		return []kgo.Opt{kgo.Balancers(kgo.CooperativeStickyBalancer())}
	case o.protocol == "classic" && o.assignor == "range":
		return []kgo.Opt{kgo.Balancers(kgo.RangeBalancer())}
	}
	fmt.Fprintf(os.Stderr, "go-member: no assignor %q for protocol %q\n", o.assignor, o.protocol)
	os.Exit(2)
	return nil
}

func main() {
	o := parseFlags()
	w := &out{enc: json.NewEncoder(os.Stdout)}
	owned := &assignment{owned: map[string][]int32{}}
	var client *kgo.Client // set before the first poll, which is when callbacks start

	// commit stores what has been polled and not yet committed, as kgo tracks it, and prints the
	// offsets the broker accepted. It holds no lock of its own across the commit: kgo may be
	// in a revoke callback that commits too.
	commit := func(ctx context.Context, why string) {
		offsets := client.UncommittedOffsets()
		if len(offsets) == 0 {
			return
		}
		client.CommitOffsetsSync(ctx, offsets, func(_ *kgo.Client, req *kmsg.OffsetCommitRequest,
			resp *kmsg.OffsetCommitResponse, err error) {
			if err != nil {
				w.emit(map[string]any{"event": "commit_failed", "why": why, "error": err.Error()})
				return
			}
			committed, failed := map[string]map[int32]int64{}, map[string]map[int32]string{}
			for i, topic := range resp.Topics {
				for j, partition := range topic.Partitions {
					if e := kerr.ErrorForCode(partition.ErrorCode); e != nil {
						if failed[topic.Topic] == nil {
							failed[topic.Topic] = map[int32]string{}
						}
						failed[topic.Topic][partition.Partition] = e.Error()
						continue
					}
					if committed[topic.Topic] == nil {
						committed[topic.Topic] = map[int32]int64{}
					}
					committed[topic.Topic][partition.Partition] = req.Topics[i].Partitions[j].Offset
				}
			}
			event := map[string]any{"event": "committed", "why": why, "offsets": committed,
				"member_epoch": req.Generation}
			if len(failed) > 0 {
				event["failed"] = failed
			}
			w.emit(event)
		})
	}
	membership := func(event string, delta map[string][]int32, add bool) {
		now := owned.change(delta, add)
		memberID, epoch := client.GroupMetadata()
		w.emit(map[string]any{"event": event, "partitions": sorted(delta), "assignment": now,
			"member_id": memberID, "member_epoch": epoch})
	}

	opts := []kgo.Opt{
		kgo.SeedBrokers(strings.Split(o.bootstrap, ",")...),
		kgo.ConsumeTopics(strings.Split(o.topics, ",")...),
		kgo.ConsumerGroup(o.group),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()),
		kgo.DisableAutoCommit(),
		kgo.SessionTimeout(o.sessionTimeout),
		kgo.HeartbeatInterval(o.heartbeatInterval),
		kgo.WithLogger(kgo.BasicLogger(os.Stderr, kgo.LogLevelInfo, nil)),
		kgo.OnPartitionsAssigned(func(_ context.Context, _ *kgo.Client, assigned map[string][]int32) {
			membership("assigned", assigned, true)
		}),
		kgo.OnPartitionsRevoked(func(ctx context.Context, _ *kgo.Client, revoked map[string][]int32) {
			if len(revoked) == 0 { // kgo also calls this at the end of every session
				return
			}
			if o.commit == "poll" {
				commit(ctx, "revoked")
			}
			membership("revoked", revoked, false)
		}),
		kgo.OnPartitionsLost(func(_ context.Context, _ *kgo.Client, lost map[string][]int32) {
			if len(lost) > 0 {
				membership("lost", lost, false)
			}
		}),
	}
	opts = append(opts, balancers(o)...)
	if o.instanceID != "" {
		opts = append(opts, kgo.InstanceID(o.instanceID))
	}
	var err error
	client, err = kgo.NewClient(opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "go-member:", err)
		os.Exit(1)
	}
	w.emit(map[string]any{"event": "started", "protocol": o.protocol, "assignor": o.assignor, "group": o.group,
		"instance_id": o.instanceID})

	commands := make(chan string)
	go func() {
		scanner := bufio.NewScanner(os.Stdin)
		for scanner.Scan() {
			commands <- strings.TrimSpace(scanner.Text())
		}
		close(commands)
	}()

	consumed := 0
	ctx := context.Background()
loop:
	for o.maxRecords == 0 || consumed < o.maxRecords {
		select {
		case command, open := <-commands:
			switch {
			case !open || command == "quit":
				break loop
			case command == "commit":
				commit(ctx, "asked")
			}
			continue
		default:
		}
		pollCtx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
		fetches := client.PollRecords(pollCtx, max(o.maxRecords-consumed, 0))
		cancel()
		fetches.EachError(func(topic string, partition int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) { // the poll's own timeout
				w.emit(map[string]any{"event": "error", "topic": topic, "partition": partition, "error": err.Error()})
			}
		})
		records := fetches.Records()
		if len(records) == 0 {
			continue
		}
		for _, r := range records {
			w.emit(map[string]any{"event": "record", "topic": r.Topic, "partition": r.Partition, "offset": r.Offset,
				"key": string(r.Key), "value": string(r.Value)})
		}
		consumed += len(records)
		if o.commit == "poll" {
			commit(ctx, "poll")
		}
	}
	if o.commit == "poll" {
		commit(ctx, "close")
	}
	left := map[string]any{"event": "left"}
	if err := client.LeaveGroupContext(ctx); err != nil {
		left["error"] = err.Error()
	}
	w.emit(left)
	if o.protocol == "consumer" && o.instanceID != "" {
		w.emit(leaveStatic(ctx, client, o))
	}
	client.Close()
	w.emit(map[string]any{"event": "closed", "consumed": consumed})
}

// leaveStatic sends the temporary leave of a static member (KIP-848: member epoch -2 with the
// member's instance id). franz-go v1.22.3's own leave sends epoch -2 without the instance id,
// which Kafka 4.x refuses (INVALID_REQUEST "InstanceId can't be null."), leaving the member in
// the group until its session times out and its restart fenced with UNRELEASED_INSTANCE_ID.
// By now the client has stopped heartbeating (LeaveGroupContext returned), so this is the
// member's last word.
func leaveStatic(ctx context.Context, client *kgo.Client, o options) map[string]any {
	memberID, _ := client.GroupMetadata()
	req := kmsg.NewPtrConsumerGroupHeartbeatRequest()
	req.Group = o.group
	req.MemberID = memberID
	req.MemberEpoch = -2
	req.InstanceID = &o.instanceID
	event := map[string]any{"event": "left_static", "member_id": memberID}
	resp, err := req.RequestWith(ctx, client)
	if err == nil {
		err = kerr.ErrorForCode(resp.ErrorCode)
	}
	if err != nil {
		event["error"] = err.Error()
	}
	return event
}

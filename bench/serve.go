package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/factbase/factbase"
	"github.com/factbase/factbase/memory"
	"github.com/factbase/factbase/memory/retrieve"
	"github.com/factbase/factbase/sqlite"
)

// MemoryTarget is the most resident memory a server holding 1,000,000 facts of 1,000
// users (with their default embeddings) may use while answering at medium load.
const MemoryTarget = 500 << 20

// DiskTarget is the most bytes on disk per fact, indexes included.
const DiskTarget = 1536

// ServeReport is the memory target's measurement: a store of Users x Facts facts,
// opened afresh and read by Clients concurrent clients.
type ServeReport struct {
	Label   string `json:"label"`
	Users   int    `json:"users"`
	Facts   int    `json:"facts"`
	Clients int    `json:"clients"`
	Mix     string `json:"mix"`
	// StartRSSBytes is the resident set when the store was opened, before the load.
	StartRSSBytes int64 `json:"start_rss_bytes"`
	// PeakRSSBytes is the largest resident set from the store's opening to the end of
	// the load. The kernel's peak was reset before the opening (PeakReset), so the
	// build before it does not count; without the reset it is the whole run's peak.
	PeakRSSBytes int64  `json:"peak_rss_bytes"`
	PeakReset    bool   `json:"peak_reset"`
	GoHeapBytes  uint64 `json:"go_heap_bytes"` // live heap after the load (runtime.MemStats.HeapAlloc)
	TargetBytes  int64  `json:"target_bytes"`
	// FullSize says the store is the target's (at least 1,000,000 facts of 1,000
	// users); WithinTarget that the peak was under TargetBytes, whatever the size.
	FullSize     bool   `json:"full_size"`
	WithinTarget bool   `json:"within_target"`
	Result       Result `json:"result"`
}

// serveLoad opens the store at path afresh and runs the medium load over it: clients
// goroutines, each doing its share of ops requests over users chosen at random: half
// point reads by key, three in ten hybrid searches, two in ten look-ups by type. The
// kernel's peak RSS is reset first (Linux), so that the peak reported is that of
// serving, not of building the store in the same process.
func serveLoad(ctx context.Context, path string, sc Scale, emb factbase.Embedder) (ServeReport, error) {
	rep := ServeReport{Users: sc.Users, Facts: sc.Users * sc.Facts, Clients: sc.ServeClients,
		Mix:         "50% point read by key, 30% hybrid search (top 10), 20% look-up by type (newest 10); users at random",
		TargetBytes: MemoryTarget}
	rep.Label = fmt.Sprintf("%d facts of %d users with vectors", rep.Facts, rep.Users)
	rep.FullSize = rep.Facts >= 1_000_000 && rep.Users >= 1_000
	if !rep.FullSize {
		rep.Label += fmt.Sprintf(" (%.2g of the target's 1,000,000 facts of 1,000 users; --scale large builds the full store)",
			float64(rep.Facts)/1e6)
	}
	// Give back what the build held, then start the peak afresh.
	runtime.GC()
	runtime.GC()
	debug.FreeOSMemory()
	rep.PeakReset = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	rep.StartRSSBytes = procStatus("VmRSS")

	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		return rep, err
	}
	defer s.Close()
	e := memory.New(s, memory.Options{Embedder: emb, NoSheetRegen: true})
	qs := Questions(11, 256)
	clients := max(1, sc.ServeClients)
	per := max(1, sc.ServeOps/clients)
	all, total, err := concurrently(clients, func(c int) ([]time.Duration, error) {
		r := rand.New(rand.NewPCG(uint64(c), 13))
		lat := make([]time.Duration, 0, per)
		for i := 0; i < per && ctx.Err() == nil; i++ {
			u := r.IntN(sc.Users)
			user := userID(u)
			s := time.Now()
			var err error
			switch p := r.IntN(10); {
			case p < 5:
				var fs []factbase.Fact
				fs, err = e.Get(ctx, user, "", factKey(u, r.IntN(sc.Facts)), nil)
				if err == nil && len(fs) != 1 {
					err = fmt.Errorf("point read found %d facts", len(fs))
				}
			case p < 8:
				_, err = e.Retrieve.Search(ctx, user, qs[r.IntN(len(qs))], retrieve.SearchOptions{})
			default:
				_, _, err = e.Retrieve.Lookup(ctx, user, retrieve.LookupOptions{Type: Types[r.IntN(len(Types))], Limit: 10})
			}
			if err != nil {
				return lat, err
			}
			lat = append(lat, time.Since(s))
		}
		return lat, nil
	})
	if err != nil {
		return rep, err
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	rep.Result = summarize(fmt.Sprintf("medium load, %d clients, %d users (mixed reads and searches)", clients, sc.Users), all, total)
	rep.PeakRSSBytes = procStatus("VmHWM")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	rep.GoHeapBytes = ms.HeapAlloc
	rep.WithinTarget = rep.PeakRSSBytes > 0 && rep.PeakRSSBytes < MemoryTarget
	return rep, nil
}

// procStatus reads a size field (VmHWM: peak resident set, VmRSS: resident set) of
// /proc/self/status in bytes; 0 where that file does not exist.
func procStatus(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}

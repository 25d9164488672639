package sqlite

import (
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/factbase/factbase"
)

// setDefaults fills in the defaults the Options fields state and checks the rest.
func (o *Options) setDefaults() error {
	if o.Readers <= 0 {
		o.Readers = 4
	}
	if o.BusyTimeout <= 0 {
		o.BusyTimeout = 10 * time.Second
	}
	switch {
	case o.MmapSize == 0:
		o.MmapSize = DefaultMmapSize
	case o.MmapSize < 0:
		o.MmapSize = 0
	}
	switch strings.ToLower(o.Synchronous) {
	case "", "normal":
		o.Synchronous = "NORMAL"
	case "full":
		o.Synchronous = "FULL"
	default:
		return factbase.Errorf(factbase.EINVALID, "sqlite: synchronous %q is not full or normal", o.Synchronous)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return nil
}

// connQuery returns the DSN query every connection of the store opens with (o's
// defaults set).
func connQuery(o Options) url.Values {
	pragmas := []string{
		fmt.Sprintf("busy_timeout(%d)", o.BusyTimeout.Milliseconds()),
		"journal_mode(WAL)",
		"synchronous(" + o.Synchronous + ")",
		"foreign_keys(1)",
		// Statement journals and sorts in memory, not in temporary files: a set-based
		// re-rank or a batch insert otherwise writes a temp file per statement.
		"temp_store(MEMORY)",
	}
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	return q
}

// The writer's page cache and checkpoints. A bulk write (a batch of 2,000 ingested
// facts) dirties thousands of pages: a transcript's subjects are random UUIDs, so its
// facts land at random places in three indexes. SQLite's default cache of 2 MiB
// wrote them to the log mid-transaction, again and again (17 KB written per ingested
// fact, memory's BenchmarkBulkIngestCoding); with 16 MiB each is written once at
// commit (32 and 64 MiB wrote no less, and cost the process more resident memory:
// the cache fills as far as writes need it, up to its bound). The log is copied into
// the database file (and both are synced) when it holds writerCheckpointPages pages,
// not SQLite's default of 1,000: a bulk write's commit otherwise checkpointed every
// time, and pages that several commits wrote were copied once each. Together: 10.6
// KB written per ingested fact.
const (
	writerCacheKiB        = 16 << 10
	writerCheckpointPages = 10000
)

// openWriter creates path's directory if needed and opens the store's write pool on
// path (o's defaults set): one connection, kept open, whose transactions are
// immediate and whose deletes overwrite the deleted content.
func openWriter(path string, o Options) (*sql.DB, error) {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, factbase.Errorf(factbase.EUNAVAILABLE, "sqlite: cannot create directory %s: %v", dir, err)
		}
	}
	wq := connQuery(o)
	wq.Set("_txlock", "immediate")
	wq.Add("_pragma", "secure_delete(1)")
	wq.Add("_pragma", fmt.Sprintf("cache_size(%d)", -writerCacheKiB))
	wq.Add("_pragma", fmt.Sprintf("wal_autocheckpoint(%d)", writerCheckpointPages))
	writer, err := sql.Open("sqlite", "file:"+path+"?"+wq.Encode())
	if err != nil {
		return nil, fmt.Errorf("sqlite: open: %w", err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)
	return writer, nil
}

// OpenDB opens the database file at path (creating it if needed) as a plain
// database/sql handle with the connection settings of a store's writer: WAL,
// o.Synchronous and o.BusyTimeout (defaults as for Open), foreign keys, in-memory
// temporary storage, secure delete and immediate transactions, on one connection.
// It applies no schema and is no Store: it is for baselines that measure SQLite
// itself beside the store (package bench). Do not use it on a file a Store has open.
func OpenDB(path string, o Options) (*sql.DB, error) {
	if path == "" {
		return nil, factbase.Errorf(factbase.EINVALID, "sqlite: database path is empty")
	}
	if err := o.setDefaults(); err != nil {
		return nil, err
	}
	return openWriter(path, o)
}

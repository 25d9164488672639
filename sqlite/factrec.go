package sqlite

import (
	"fmt"
	"strings"
	"time"

	"github.com/factbase/factbase"
)

// A fact is read as two values, not one per column: a record that SQLite packs from
// the row's columns (factRecord) and the confidence, a REAL kept apart so that it
// crosses exactly. The driver charges every column of every query: its name when the
// statement runs, its type and value, each under the connection's mutex, for every
// row, so 26 columns cost a point read several times a bare one-column SELECT
// (BenchmarkPointRead against BenchmarkRawSelect; docs/benchmarks.md). The record
// costs SQLite a printf and the reader one pass of slicing, and the fact's strings are
// slices of the one string the driver returns. (A list page gains nothing: per row,
// the printf costs what the columns did.)
//
// The record, format 2:
//
//	byte 0       format (2; a sheet record, sheet.go, is format 1)
//	byte 1       flags: 1 rank is NULL, 2 anchor is NULL, 4 valid_to is NULL, 8 current
//	bytes 2..41  rank, anchor, recorded_at, valid_from, valid_to: big-endian int64
//	             (0 where NULL)
//	bytes 42..   the byte lengths of the text columns (factTextColumns), big-endian
//	             uint32 each, then their bytes in that order
const factRecordFormat = 2

// factTextColumns are the text columns of a fact record, in record order.
var factTextColumns = [...]string{"id", "subject", "key", "cardinality", "value", "value_type", "text",
	"type", "category", "scope", "durability", "sensitivity", "said_by", "temporal", "source_kind",
	"source_id", "extractor", "supersedes", "superseded_by"}

// factIntColumns are the integer columns of a fact record, in record order.
var factIntColumns = [...]string{"rank", "anchor", "recorded_at", "valid_from", "valid_to"}

// factRecordHeader is the size of a record before its text bytes.
const factRecordHeader = 2 + 8*len(factIntColumns) + 4*len(factTextColumns)

// factRecord returns the select list that reads a fact of the facts table aliased p
// ("" or "f."): its record and its confidence. (In SQLite, | and << bind equally
// and from the left: each shift needs its parentheses.)
func factRecord(p string) string {
	var format, args strings.Builder
	format.WriteString("%02x%02x")
	fmt.Fprintf(&args, "%d, (%[2]srank IS NULL) | ((%[2]sanchor IS NULL) << 1) | ((%[2]svalid_to IS NULL) << 2) | ((%[2]scurrent = 1) << 3)",
		factRecordFormat, p)
	for _, c := range factIntColumns {
		format.WriteString("%016x")
		fmt.Fprintf(&args, ", coalesce(%s%s, 0)", p, c)
	}
	for _, c := range factTextColumns {
		format.WriteString("%08x")
		fmt.Fprintf(&args, ", length(CAST(%s%s AS BLOB))", p, c)
	}
	var texts strings.Builder
	for _, c := range factTextColumns {
		fmt.Fprintf(&texts, " || %s%s", p, c)
	}
	return fmt.Sprintf("unhex(printf('%s', %s))%s, %sconfidence", format.String(), args.String(), texts.String(), p)
}

// factColumns is the select list of a fact of the unaliased facts table.
var factColumns = factRecord("")

// parseFactRecord fills f from a record; its strings are slices of rec.
func parseFactRecord(rec string, f *factbase.Fact) error {
	if len(rec) < factRecordHeader {
		return fmt.Errorf("%d bytes, shorter than the %d-byte header", len(rec), factRecordHeader)
	}
	if rec[0] != factRecordFormat {
		return fmt.Errorf("format %d, not %d", rec[0], factRecordFormat)
	}
	flags := rec[1]
	var ints [len(factIntColumns)]int64
	for i := range ints {
		ints[i] = int64(be64(rec, 2+8*i))
	}
	var texts [len(factTextColumns)]string
	off := factRecordHeader
	for i := range texts {
		n := int(be32(rec, 2+8*len(ints)+4*i))
		if n > len(rec)-off {
			return fmt.Errorf("%s is %d bytes, past the end of the %d-byte record", factTextColumns[i], n, len(rec))
		}
		texts[i] = rec[off : off+n]
		off += n
	}
	if off != len(rec) {
		return fmt.Errorf("%d bytes after the last field", len(rec)-off)
	}
	f.ID, f.Subject, f.Key = texts[0], texts[1], texts[2]
	f.Cardinality = factbase.Cardinality(texts[3])
	f.Value, f.ValueType, f.Text, f.Type = texts[4], factbase.ValueType(texts[5]), texts[6], texts[7]
	f.Category, f.Scope = factbase.Category(texts[8]), texts[9]
	f.Durability, f.Sensitivity = factbase.Durability(texts[10]), factbase.Sensitivity(texts[11])
	f.SaidBy, f.Temporal = texts[12], texts[13]
	f.Source = factbase.Source{Kind: texts[14], ID: texts[15]}
	f.Extractor, f.Supersedes, f.SupersededBy = texts[16], texts[17], texts[18]
	f.Rank = 0
	if flags&1 == 0 {
		f.Rank = int(ints[0])
	}
	f.Anchor = nil
	if flags&2 == 0 {
		a := time.Unix(0, ints[1]).UTC()
		f.Anchor = &a
	}
	f.RecordedAt = time.Unix(0, ints[2]).UTC()
	f.ValidFrom = time.Unix(0, ints[3]).UTC()
	f.ValidTo = nil
	if flags&4 == 0 {
		v := time.Unix(0, ints[4]).UTC()
		f.ValidTo = &v
	}
	f.Current = flags&8 != 0
	return nil
}

package rowcodec

import (
	"encoding/json"

	"github.com/factbase/factbase"
)

// AuditColumns are the columns of an audit entry, in the order Audit reads them.
const AuditColumns = `id, at, actor, action, user_id, target, counts`

// Audit reads an audit entry selected with AuditColumns.
func Audit(r Scanner) (factbase.AuditEntry, error) {
	var (
		e      factbase.AuditEntry
		at     int64
		user   string
		counts string
	)
	if err := r.Scan(&e.ID, &at, &e.Actor, &e.Action, &user, &e.Target, &counts); err != nil {
		return e, err
	}
	e.At, e.User = Time(at), factbase.UserID(user)
	if counts != "" {
		if err := json.Unmarshal([]byte(counts), &e.Counts); err != nil {
			return e, err
		}
	}
	return e, nil
}

// AuditCounts returns the counts column of e: JSON, or "" for none.
func AuditCounts(e factbase.AuditEntry) string {
	if len(e.Counts) == 0 {
		return ""
	}
	b, _ := json.Marshal(e.Counts) // a map of strings to ints always encodes
	return string(b)
}

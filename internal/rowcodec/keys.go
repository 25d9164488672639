package rowcodec

import "github.com/factbase/factbase"

// KeyColumns are the columns of an API key, in the order Key reads them.
const KeyColumns = `id, name, user_id, hash, created_at, revoked_at`

// Key reads an API key selected with KeyColumns.
func Key(r Scanner) (factbase.Key, error) {
	var (
		k         factbase.Key
		user      string
		createdAt int64
		revokedAt *int64
	)
	if err := r.Scan(&k.ID, &k.Name, &user, &k.Hash, &createdAt, &revokedAt); err != nil {
		return k, err
	}
	k.User, k.CreatedAt, k.RevokedAt = factbase.UserID(user), Time(createdAt), TimePtr(revokedAt)
	return k, nil
}

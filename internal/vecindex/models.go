package vecindex

import (
	"github.com/factbase/factbase"
)

// Models reads a store's counts of a user's vectors, rows of (model, dim, kind, n)
// ordered by model and dimension, and returns one VectorModel per model and
// dimension (SearchReadTx.VectorModels). Rows with n <= 0 count nothing. It does not
// close rows, and returns the driver's error as it is.
func Models(rows Rows) ([]factbase.VectorModel, error) {
	var out []factbase.VectorModel
	for rows.Next() {
		var (
			model, kind string
			dim, n      int
		)
		if err := rows.Scan(&model, &dim, &kind, &n); err != nil {
			return nil, err
		}
		if n <= 0 {
			continue
		}
		if len(out) == 0 || out[len(out)-1].Model != model || out[len(out)-1].Dim != dim {
			out = append(out, factbase.VectorModel{Model: model, Dim: dim})
		}
		m := &out[len(out)-1]
		if kind == factbase.KindEpisode {
			m.Episodes += n
		} else {
			m.Facts += n
		}
	}
	return out, rows.Err()
}

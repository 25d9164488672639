package episode

import (
	"slices"
	"strings"

	"github.com/factbase/factbase"
)

// versions reads version numbers and the name before them.
func (x *extractor) versions() {
	s := x.s
	low := x.low
	ps := wordStarts(low, "ver")
	ps = append(ps, filter(digitRuns(low, `./-_\`), func(p int) bool {
		q := afterNumber(low, p)
		return q-p >= 5 && strings.Count(low[p:q], ".") >= 2
	})...)
	for p := 0; p+1 < len(low); p++ {
		if low[p] == 'v' && isDigit(low[p+1]) && !gluedBefore(low, p, `./-_\`) {
			ps = append(ps, p)
		}
	}
	slices.Sort(ps)
	for _, m := range x.matchAt(versionRe, ps) {
		i, j := m[0], m[1]
		_, _, _, isKw := sub(s, m, 1)
		_, _, _, isV := sub(s, m, 2)
		v, vs, ve, ok := sub(s, m, 3)
		if !ok {
			v, vs, ve, _ = sub(s, m, 4)
		}
		if isKw {
			if gluedBefore(s, i, "") || gluedAfter(s, j, `/_\`) {
				continue
			}
		} else if glued(s, i, j, `./-_\`, `/_\`) {
			continue
		}
		if !isKw && !isV {
			// Bare x.y.z: a part of four digits or more makes a calendar date
			// (2024.03.15, 15.03.2024), not a version.
			if slices.ContainsFunc(strings.Split(v, "."), func(p string) bool { return len(p) > 3 }) {
				continue
			}
		}
		f := Fact{Value: v, ValueType: factbase.String, Start: i, End: j}
		name, named := nameBefore(s, i)
		switch {
		case isKw && named:
			f.Rule, f.Confidence = "version.named", 0.9
		case isKw:
			f.Rule, f.Confidence = "version.keyword", 0.85
		case isV && named:
			f.Rule, f.Confidence = "version.named", 0.9
			if !strings.Contains(v, ".") {
				f.Confidence = 0.8
			}
		case isV:
			f.Rule, f.Confidence = "version.v", 0.8
			if !strings.Contains(v, ".") {
				f.Confidence = 0.6
			}
		case named:
			f.Rule, f.Confidence = "version.semver", 0.75
		default:
			f.Rule, f.Confidence = "version.semver", 0.6
		}
		f.Key, f.Text = "version", "Version is "+v
		if named {
			f.Key = strings.ToLower(name.text) + ".version"
			f.Text = name.text + " version is " + v
			f.Start = name.start
		}
		x.add(f, vs, ve)
	}
}

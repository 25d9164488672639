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
		name, named := x.thingBefore(s, i)
		start := i
		if named {
			start = name.start
		}
		// "from v2.3.0" is the version left behind; a failed or rolled-back deploy's
		// version is not the one that runs (the rollback target, read next, is).
		_, failed := x.outcome(i, j, 0)
		if t, ok := x.prevToken(s, start); failed || ok && strings.EqualFold(t.text, "from") {
			if named {
				x.lastThing = strings.ToLower(name.text)
			}
			x.claim(vs, ve)
			continue
		}
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
			x.lastThing = strings.ToLower(name.text)
			f.Key = x.lastThing + ".version"
			f.Text = name.text + " version is " + v
			f.Start = name.start
		} else if subj, ok := x.subject(i, true); ok {
			f.Key = subj + ".version"
			f.Text = subj + " version is " + v
		}
		x.add(f, vs, ve)
	}
}

// upgradeVerbs, before "from X to Y", make X and Y versions even with two bare parts
// ("upgraded Postgres from 14.9 to 16.2").
var upgradeVerbs = setOf("upgraded", "upgrade", "upgrading", "bumped", "bump", "moved",
	"migrated", "updated", "update", "downgraded", "downgrade", "rolled", "reverted",
	"switched", "patched", "went")

// notVersionUnits, after "from X to Y", make Y a measure: "from 1.2 to 0.8 s".
var notVersionUnits = setOf("s", "sec", "secs", "seconds", "ms", "min", "mins", "minutes",
	"h", "hours", "gb", "mb", "kb", "tb", "x", "percent", "points", "pts", "rps", "qps")

// upgrades reads "from X to Y": Y is the version now, X the one left behind, which is
// not stored. The thing is named inside ("from Node 18.19.0 to Node 20.11.1") or before
// ("Airflow upgraded from 2.7.3 to 2.9.1").
func (x *extractor) upgrades() {
	s := x.s
	for _, m := range x.matchAt(upgradeRe, wordStarts(x.low, "from")) {
		from := m[0]
		old, os, oe, _ := sub(s, m, 2)
		v, vs, ve, _ := sub(s, m, 4)
		if gluedAfter(s, ve, "%/_\\") || notVersionUnits[nextWord(x.low, ve)] {
			continue
		}
		var name token
		named := false
		for _, g := range []int{3, 1} {
			if n, a, b, ok := sub(s, m, g); ok && !named {
				name, named = x.thingAt(s, token{text: n, start: a, end: b, kind: tokWord})
			}
		}
		inner := named
		if !named {
			name, named = x.thingBefore(s, from)
		}
		if !isVersionLike(old) || !isVersionLike(v) {
			// Two bare parts are a version only when told so.
			if !inner && !x.upgradeVerbBefore(s, from) {
				continue
			}
		}
		if slices.ContainsFunc(strings.Split(strings.TrimPrefix(v, "v"), "."), func(p string) bool { return len(p) > 3 }) {
			continue
		}
		x.claim(os, oe)
		if _, failed := x.outcome(vs, ve, vs); failed {
			x.claim(vs, ve)
			continue
		}
		v = strings.TrimPrefix(v, "v")
		f := Fact{Key: "version", Value: v, ValueType: factbase.String, Start: from, End: m[1],
			Rule: "version.upgrade", Confidence: 0.85, Text: "Version is " + v}
		if named {
			x.lastThing = strings.ToLower(name.text)
			f.Key, f.Text, f.Confidence = x.lastThing+".version", name.text+" version is "+v, 0.9
			f.Start = min(from, name.start)
		} else if subj, ok := x.subject(from, true); ok {
			f.Key, f.Text = subj+".version", subj+" version is "+v
		}
		x.add(f, vs, ve)
	}
}

// isVersionLike reports whether v is a version on its own: a "v" prefix or three
// dotted parts.
func isVersionLike(v string) bool {
	return strings.HasPrefix(v, "v") || strings.Count(v, ".") >= 2
}

// upgradeVerbBefore reports whether one of the three words before i is an upgrade verb.
func (x *extractor) upgradeVerbBefore(s string, i int) bool {
	for k := 0; k < 3; k++ {
		t, ok := x.prevToken(s, i)
		if !ok || t.kind != tokWord {
			return false
		}
		if upgradeVerbs[strings.ToLower(t.text)] {
			return true
		}
		i = t.start
	}
	return false
}

// nextWord returns the run of letters after i and horizontal white space, in low.
func nextWord(low string, i int) string {
	for i < len(low) && (low[i] == ' ' || low[i] == '\t') {
		i++
	}
	j := i
	for j < len(low) && ('a' <= low[j] && low[j] <= 'z') {
		j++
	}
	if i < len(low) && low[i] == '%' {
		return "percent"
	}
	return low[i:j]
}

package bench

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/factbase/factbase"
)

// Word lists for synthetic facts: a user's memory of people, places, projects and
// habits. Names and topics repeat across facts, as they do in real memories, so that
// query words have long posting lists. The engine's own search benchmarks
// (memory/search_bench_test.go) use them too, through EntityFact and Questions.
var (
	names  = strings.Fields("Martin Sarah Dana Eli Priya Tom Anna Lukas Mei Omar Grace Ivan Nora Raj Lea Hugo Ines Sam Kofi Yara")
	verbs  = strings.Fields("likes avoids prefers cooks reads plays visits studies builds fixes plans books orders recommends collects")
	adjs   = strings.Fields("spicy quiet old new italian vegan cheap fast small green early late weekly favourite local")
	nouns  = strings.Fields("pasta tea coffee jazz chess tennis museum library bicycle garden curry novel podcast camera guitar sushi bakery hiking yoga marathon violin pottery laptop tyres budget report dentist flight hotel conference")
	places = strings.Fields("Lisbon Berlin Kyoto Austin Oslo Lagos Lima Porto Seoul Denver")
)

// Types are the types of the synthetic facts.
var Types = strings.Fields("preference health travel work hobby schedule contact")

// synthetic draws from r a person, an activity and a place, then a type, and
// returns the fact that says so (Value, Text and Type set) with the person's name
// and the activity's noun.
func synthetic(r *rand.Rand) (f factbase.Fact, name, noun string) {
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	name, verb, adj, noun, place := pick(names), pick(verbs), pick(adjs), pick(nouns), pick(places)
	f = factbase.Fact{Value: adj + " " + noun, Text: fmt.Sprintf("%s %s %s %s in %s", name, verb, adj, noun, place)}
	f.Type = pick(Types)
	return f, name, noun
}

// fleetFact returns fact i of user u: always the same for the same (u, i), so that
// readers can name a fact that was written without keeping a list of them. Its key is
// factKey(u, i); its subject is the user.
func fleetFact(u, i int) factbase.Fact {
	f, _, _ := synthetic(rand.New(rand.NewPCG(uint64(u), uint64(i))))
	f.Key, f.Category = factKey(u, i), factbase.Categories[i%len(factbase.Categories)]
	return f
}

// EntityFact returns the i-th synthetic fact drawn from r, about a person: subject
// "entity:<name>", key "<name>.<noun>.<i>".
func EntityFact(r *rand.Rand, i int) factbase.Fact {
	f, name, noun := synthetic(r)
	f.Subject = "entity:" + strings.ToLower(name)
	f.Key = fmt.Sprintf("%s.%s.%d", strings.ToLower(name), noun, i)
	return f
}

// factKey is the key of fact i (of any user).
func factKey(_, i int) string { return fmt.Sprintf("memory.note_%d", i) }

// Questions returns n questions over the synthetic facts, seeded by seed.
func Questions(seed uint64, n int) []string {
	r := rand.New(rand.NewPCG(seed, 4))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	forms := []func() string{
		func() string { return fmt.Sprintf("What does %s like to eat?", pick(names)) },
		func() string { return fmt.Sprintf("Which %s does %s recommend?", pick(nouns), pick(names)) },
		func() string { return fmt.Sprintf("%s %s in %s", pick(adjs), pick(nouns), pick(places)) },
		func() string { return fmt.Sprintf("Who %s %s?", pick(verbs), pick(nouns)) },
		func() string { return "What music do they enjoy?" },
	}
	out := make([]string, n)
	for i := range out {
		out[i] = forms[i%len(forms)]()
	}
	return out
}

// episodeText returns the i-th synthetic episode: a narrative record with a few of
// the values pattern extraction finds (versions, percentages, latencies).
func episodeText(i int) string {
	r := rand.New(rand.NewPCG(uint64(i), 9))
	pick := func(xs []string) string { return xs[r.IntN(len(xs))] }
	return fmt.Sprintf("Session %d: %s and %s talked about the %s %s in %s. "+
		"Project %s v2.%d.%d deployed; test success rate %d%%, p95 latency %d ms. %s %s %s next week.",
		i, pick(names), pick(names), pick(adjs), pick(nouns), pick(places),
		strings.ToUpper(pick(nouns)), r.IntN(10), i%100, 80+r.IntN(20), 50+r.IntN(200),
		pick(names), pick(verbs), pick(nouns))
}

package canon

import "strings"

// singular returns the singular form of one lower-case English word, or the word
// itself when it is not a recognisable plural. The rules, in order:
//
//   - irregular plurals from a table (people, children, mice, wolves, criteria, ...),
//     also as the end of a compound (salespeople, grandchildren, werewolves);
//   - words that must stay as they are (news, series, species, chess, physics, sushi,
//     tennis, jeans, clothes, glasses, ...) and words of three bytes or fewer;
//   - words not ending in "s", or ending in "ss" or "us", are already singular;
//   - "-is": singular when it ends in "sis" or "itis" or is listed (tennis,
//     iris), else a plural of an "-i" word (kiwis, taxis);
//   - "-ies": "-ie" for listed words (movies, cookies, zombies) and four-letter words
//     (pies, ties), else "-y" (cryptocurrencies, cities);
//   - "-oes": "-oe" for listed words (shoes, canoes), else "-o" (potatoes, heroes);
//   - "-xes", "-shes", "-sses", "-zzes", "-tzes": drop "es" (boxes, dishes, classes);
//   - "-ches": drop "s" for "-che" words (niches, caches, headaches), else "es"
//     (churches, sandwiches, beaches);
//   - "-uses": drop "s" after a vowel or for "-use" words (houses, causes, excuses),
//     else "es" (buses, bonuses, viruses);
//   - "-yses" to "-ysis", "-heses" to "-hesis" (analyses, hypotheses);
//   - "-ics": kept for fields of study (physics, politics), else drop "s" (comics);
//   - anything else ending in "s" drops it, unless something other than a letter
//     precedes it ("90s").
func singular(w string) string {
	if s, ok := irregular[w]; ok {
		return s
	}
	for _, p := range irregularSuffix {
		if strings.HasSuffix(w, p.plural) && len(w) > len(p.plural) {
			return w[:len(w)-len(p.plural)] + p.singular
		}
	}
	if invariant[w] || len(w) <= 3 || !strings.HasSuffix(w, "s") {
		return w
	}
	prev := w[len(w)-2]
	switch {
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"):
		return w
	case prev < 0x80 && (prev < 'a' || prev > 'z'):
		// "90s", "a.s": only a letter before the "s" makes a plural.
		return w
	case strings.HasSuffix(w, "is"):
		if strings.HasSuffix(w, "sis") || strings.HasSuffix(w, "itis") {
			return w
		}
		return w[:len(w)-1]
	case strings.HasSuffix(w, "ies"):
		stem := w[:len(w)-1]
		if len(w) == 4 || ieWords[stem] {
			return stem
		}
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "oes"):
		if oeWords[w] || strings.HasSuffix(w, "shoes") {
			return w[:len(w)-1]
		}
		return w[:len(w)-2]
	case strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "sses"),
		strings.HasSuffix(w, "zzes"), strings.HasSuffix(w, "tzes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ches"):
		stem := w[:len(w)-1]
		if cheWords[stem] {
			return stem
		}
		// "headaches", "caches": "-ache" after a consonant; "beaches", "coaches": after a vowel.
		if strings.HasSuffix(w, "aches") && len(w) > 5 && !isVowel(w[len(w)-6]) {
			return stem
		}
		return w[:len(w)-2]
	case strings.HasSuffix(w, "uses"):
		stem := w[:len(w)-1]
		if len(w) > 4 && isVowel(w[len(w)-5]) || useWords[stem] {
			return stem
		}
		return w[:len(w)-2]
	case strings.HasSuffix(w, "yses"):
		return w[:len(w)-2] + "is"
	case strings.HasSuffix(w, "heses"):
		return w[:len(w)-2] + "is"
	}
	return w[:len(w)-1]
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}

// irregular maps whole irregular plurals to their singular.
var irregular = map[string]string{
	"people": "person", "children": "child", "men": "man", "women": "woman",
	"mice": "mouse", "lice": "louse", "geese": "goose", "teeth": "tooth", "feet": "foot",
	"oxen": "ox", "cacti": "cactus", "fungi": "fungus", "alumni": "alumnus",
	"nuclei": "nucleus", "radii": "radius", "stimuli": "stimulus", "syllabi": "syllabus",
	"octopi": "octopus", "criteria": "criterion", "phenomena": "phenomenon",
	"bacteria": "bacterium", "curricula": "curriculum", "memoranda": "memorandum",
	"genera": "genus", "corpora": "corpus", "indices": "index", "matrices": "matrix",
	"vertices": "vertex", "appendices": "appendix", "crises": "crisis", "oases": "oasis",
	"diagnoses": "diagnosis", "prognoses": "prognosis", "neuroses": "neurosis",
	"psychoses": "psychosis", "metamorphoses": "metamorphosis",
	"knives": "knife", "wives": "wife", "lives": "life", "leaves": "leaf", "wolves": "wolf",
	"halves": "half", "shelves": "shelf", "thieves": "thief", "calves": "calf",
	"loaves": "loaf", "elves": "elf", "scarves": "scarf", "hooves": "hoof",
	"lenses": "lens", "gases": "gas", "gasses": "gas", "atlases": "atlas",
	"canvases": "canvas", "aliases": "alias", "biases": "bias", "quizzes": "quiz",
	"whizzes": "whiz", "cds": "cd", "dvds": "dvd", "tvs": "tv", "pcs": "pc",
	"gentlemen": "gentleman", "firemen": "fireman", "policemen": "policeman",
	"businessmen": "businessman", "sportsmen": "sportsman", "craftsmen": "craftsman",
	"fishermen": "fisherman", "chairmen": "chairman", "spokesmen": "spokesman",
	"snowmen": "snowman", "frontmen": "frontman", "superheroes": "superhero",
}

// irregularSuffix are irregular plurals that also end compounds ("grandchildren").
var irregularSuffix = []struct{ plural, singular string }{
	{"people", "person"}, {"children", "child"}, {"women", "woman"}, {"wives", "wife"},
	{"knives", "knife"}, {"wolves", "wolf"}, {"shelves", "shelf"}, {"leaves", "leaf"},
	{"geese", "goose"}, {"teeth", "tooth"},
}

// invariant words stay as they are: uncountable nouns, plural-only nouns, fields of
// study and singular words that end in "s" but fit no rule.
var invariant = map[string]bool{
	"news": true, "series": true, "species": true, "means": true, "sheep": true,
	"fish": true, "deer": true, "moose": true, "swine": true, "aircraft": true,
	"spacecraft": true, "offspring": true, "salmon": true, "trout": true, "bison": true,
	"shrimp": true, "squid": true, "sushi": true, "tennis": true, "chess": true,
	"jeans": true, "pants": true, "trousers": true, "shorts": true, "tights": true,
	"leggings": true, "pajamas": true, "pyjamas": true, "clothes": true, "glasses": true,
	"sunglasses": true, "eyeglasses": true, "goggles": true, "scissors": true,
	"binoculars": true, "headquarters": true, "billiards": true, "checkers": true,
	"draughts": true, "measles": true, "mumps": true, "diabetes": true, "rabies": true,
	"herpes": true, "thanks": true, "congratulations": true, "outskirts": true,
	"premises": true, "belongings": true, "surroundings": true, "earnings": true,
	"overalls": true, "tongs": true, "pliers": true, "tweezers": true, "odds": true,
	"riches": true, "remains": true, "manners": true, "whereabouts": true, "kudos": true,
	"chaos": true, "cosmos": true, "ethos": true, "pathos": true, "asbestos": true,
	"thermos": true, "rhinoceros": true, "lens": true, "canvas": true, "atlas": true,
	"alias": true, "bias": true, "iris": true, "axis": true, "dais": true,
	"chassis": true, "debris": true, "penis": true, "pelvis": true, "metropolis": true,
	"trellis": true, "mantis": true, "ibis": true, "cannabis": true, "hubris": true,
	"proboscis": true, "texas": true, "christmas": true, "paris": true, "vegas": true,
	"kansas": true, "arkansas": true, "illinois": true, "athens": true, "wales": true,
	"brussels": true, "netherlands": true, "philippines": true, "bahamas": true,
	"maldives": true, "seychelles": true, "barbados": true, "memphis": true,
	"olympics": true, "paralympics": true, "physics": true, "mathematics": true,
	"economics": true, "politics": true, "ethics": true, "athletics": true,
	"gymnastics": true, "aerobics": true, "electronics": true, "genetics": true,
	"linguistics": true, "statistics": true, "acoustics": true, "robotics": true,
	"semantics": true, "logistics": true, "mechanics": true, "dynamics": true,
	"thermodynamics": true, "optics": true, "aeronautics": true, "acrobatics": true,
	"calisthenics": true, "ceramics": true, "cosmetics": true, "phonetics": true,
	"analytics": true, "forensics": true, "metaphysics": true, "hydraulics": true,
	"informatics": true, "geopolitics": true, "pediatrics": true, "obstetrics": true,
	"esports": true, "molasses": true, "data": true, "media": true, "graphics": true, "tactics": true, "always": true,
}

// ieWords are singulars ending in "ie", whose plurals end in "ies".
var ieWords = map[string]bool{
	"movie": true, "cookie": true, "zombie": true, "hippie": true, "calorie": true,
	"brownie": true, "smoothie": true, "rookie": true, "selfie": true, "goalie": true,
	"hoodie": true, "genie": true, "collie": true, "pixie": true, "prairie": true,
	"magpie": true, "yuppie": true, "newbie": true, "techie": true, "foodie": true,
	"indie": true, "oldie": true, "goodie": true, "veggie": true, "birdie": true,
	"bookie": true, "auntie": true, "sweetie": true, "cutie": true, "junkie": true,
	"groupie": true, "quickie": true, "sortie": true, "boogie": true, "kiddie": true,
	"nightie": true, "pinkie": true, "roomie": true, "wheelie": true, "beanie": true,
	"caddie": true, "eyrie": true, "reverie": true, "menagerie": true, "coterie": true,
	"rotisserie": true, "brasserie": true, "patisserie": true, "boulangerie": true,
	"valkyrie": true, "kelpie": true, "doggie": true, "hankie": true, "baddie": true,
	"biggie": true, "budgie": true, "freebie": true, "hoagie": true, "meanie": true,
	"mountie": true, "potpie": true, "townie": true, "talkie": true, "walkie": true,
	"lassie": true, "sheltie": true, "stogie": true, "toughie": true, "weenie": true,
	"pie": true, "tie": true, "lie": true, "die": true, "camaraderie": true,
	"charcuterie": true, "lingerie": true, "aussie": true, "bogie": true,
	"cowrie": true, "specie": true, "pierogie": true, "eerie": true,
	"scrunchie": true, "onesie": true, "hottie": true, "boonie": true,
	"bestie": true, "sharpie": true}

// oeWords are plurals of singulars ending in "oe".
var oeWords = map[string]bool{
	"toes": true, "canoes": true, "oboes": true, "foes": true, "hoes": true, "woes": true,
	"floes": true, "sloes": true, "roes": true, "throes": true, "aloes": true,
	"does": true, "tiptoes": true, "mistletoes": true,
}

// cheWords are singulars ending in "che", whose plurals end in "ches".
var cheWords = map[string]bool{
	"niche": true, "quiche": true, "cliche": true, "cliché": true, "cache": true,
	"ache": true, "avalanche": true, "creche": true, "crèche": true, "brioche": true,
	"psyche": true, "microfiche": true, "pastiche": true, "douche": true, "cloche": true,
	"fiche": true, "tranche": true, "barouche": true, "attache": true, "mustache": true,
	"moustache": true, "panache": true,
}

// useWords are singulars ending in "use" after a consonant.
var useWords = map[string]bool{
	"excuse": true, "abuse": true, "fuse": true, "muse": true, "use": true,
	"refuse": true, "recluse": true, "ruse": true, "accuse": true, "amuse": true,
	"peruse": true, "infuse": true, "diffuse": true, "confuse": true, "misuse": true,
	"reuse": true, "obtuse": true,
}

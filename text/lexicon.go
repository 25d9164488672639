package text

// PlaceConnectors are the lower-case words that join the words of a place's name
// ("Rio de Janeiro", "Newcastle upon Tyne", "Frankfurt am Main"), which the
// extractors read alike when they cut a place's name from a message.
var PlaceConnectors = map[string]bool{"of": true, "de": true, "del": true, "la": true, "le": true, "les": true,
	"upon": true, "on": true, "am": true, "an": true, "der": true, "di": true, "da": true, "do": true,
	"dos": true, "das": true, "van": true, "von": true, "y": true, "and": true, "sur": true, "en": true,
	"el": true, "al": true, "du": true, "des": true, "im": true, "bei": true, "&": true}

// Package personal reads the personal facts of a message — about the user and about
// the people (and pets) the user names — deterministically and offline, and decides
// whom each fact is about. It is pure: no I/O, no clock (the message time is an
// option), no model, no global mutable state; safe for concurrent use.
//
// # Pipeline
//
//   - Extract reads a message: sentences, clauses, a subject (I, we, "my son Leo",
//     "Martin, my accountant,", "my son's friend", a name, a pronoun), and a predicate
//     matched by rules. It returns the mentions, the facts (About and SaidBy index the
//     mentions, or are User) and what it skipped with why.
//   - Resolve matches each mention against a snapshot of the user's entities by name,
//     alias and relation with a confidence: one entity at MinConfidence (0.8) or
//     above is that entity; several equally good ones (two Martins, no cue) skip the
//     mention; cues that contradict every entity of the name (an 8-year-old Martin vs
//     Martin the accountant, a brother vs a colleague) make a new entity.
//   - Attribute turns both into a Plan: facts with their subject
//     (factbase.EntitySubject or "user") and said-by, entities to create or update,
//     and skips (a fact about a skipped mention is an "orphan": not stored).
//
// # Rules
//
// Keys, types, confidence, durability and sensitivity are set per key (see Spec):
//
//	relation            relationship  "my wife Sarah", "Tom is my brother", "I have a son named Leo"
//	age                 personal      "Leo is 8", "my 5-year-old daughter", "Leo, who is 8,", "(8)"
//	allergy (set)       allergy 0.95  "I'm allergic to peanuts", "has a peanut allergy"
//	diet, diet.avoid    diet          "Leo is vegetarian", "I can't eat gluten", "doesn't eat pork"
//	health.condition    health  high  "has asthma", "is lactose intolerant", "suffers from migraines"
//	medical.medication  medical high  "takes insulin", "is on blood thinners"
//	birthday            birthday      "Sarah's birthday is March 3rd", "was born on", "today is my dad's birthday"
//	anniversary         anniversary   "our wedding anniversary is September 21"
//	work.employer/role  work          "works at Google as a product manager", "is a nurse at St. Mary's",
//	                                  "got promoted to lead designer at Figma", "joined Spotify as VP of X"
//	education.school    education     "goes to Oak Hill Elementary", "started at MIT", "got into Stanford"
//	education.grade     education     "is in first grade", "a senior at Westview High"
//	education.field     education     "is studying law at UCL", "a PhD student in linguistics"
//	home.city/origin    home          "lives in Porto", "just moved to Berlin", "is from Osaka", "grew up in"
//	languages (set)     personal      "speaks Portuguese and a bit of French", "my native language is Tagalog"
//	languages.learning  personal      "I'm learning Korean", "takes Italian classes"
//	vehicle (set)       vehicle       "I drive a Toyota Corolla", "my car is a Subaru Outback"
//	hobby (set)         hobby         "my hobbies are knitting and birdwatching", "took up pottery", "plays chess"
//	breed               pet           "Biscuit is a golden retriever" (a pet's relation is its species)
//	likes/dislikes/fears preference   "Leo loves dinosaurs", "I hate cilantro", "can't stand", "is scared of"
//	prefers (set)       preference    "I like rice more than pasta" -> "rice over pasta"
//	schedule (set)      schedule      "Leo has piano on Tuesdays", "swim class on Mondays and Fridays" (one each)
//	plan, travel (sets) plan, travel  "I fly to Lisbon next Friday", "has a dentist appointment tomorrow",
//	                                  "my flight to Berlin is on March 20", "Booked two weeks in Bali ..."
//	contact.email/phone contact       "my wife's email is ..." (others only)
//	comm.* (one each)   preference    "please keep answers short", "answer in German", "no emojis"
//
// Several people may share a subject ("our twins Lea and Tim", "my sister Eva and her
// husband Paul"); "his son Finn" and "her husband" are relatives of the one the
// pronoun names ("Jonas's son"); reported speech ("Jonas told me ...") is said by
// the teller.
//
// Temporal markers are kept as said (Fact.Temporal) and resolved against the message
// time by package when (Fact.Anchor, Fact.Recur), completed by refineMarkers where
// everyday plans say more ("Wednesday evenings", "from March 16 to March 19", "the
// first Sunday of every month", "on the 23rd", "this summer", "over Easter"). Questions, small talk, negations
// ("isn't allergic"), hypotheticals ("if", "might", "would love", "maybe"), hedges
// ("I think") and past states ("used to live in Rome", "worked at IBM") give no
// facts; the ones that name someone are reported as skips. The user's own email,
// phone, name, city, employer, job title and birthday are left to the router
// (Options.UserBasics reads them too). Another person's favorites are not kept:
// favorites.* lists are the user's own.
//
// Corpus metrics (testdata/corpus.jsonl, every case a test; testdata/heldout.jsonl,
// logged) are printed by "go test -run 'TestCorpus|TestHeldout' -v".
package personal

package personal

import "github.com/factbase/factbase"

// The word tables of the extractor.

// gender is what a relation word or pronoun says about who it names.
type gender uint8

const (
	anyGender gender = iota
	male
	female
)

// relInfo describes a relation noun.
type relInfo struct {
	role   factbase.Role
	gender gender
	// unique relations name one person at a time ("my wife"): a different name for
	// the same relation is not a new person but a contradiction.
	unique bool
	// canon is the relation as stored ("mum" -> "mom"); "" keeps the word.
	canon string
}

// relations maps relation nouns (one to three words, joined by spaces) to their role.
var relations = map[string]relInfo{
	"wife": {factbase.RolePartner, female, true, ""}, "husband": {factbase.RolePartner, male, true, ""},
	"partner": {factbase.RolePartner, anyGender, true, ""}, "spouse": {factbase.RolePartner, anyGender, true, ""},
	"girlfriend": {factbase.RolePartner, female, true, ""}, "boyfriend": {factbase.RolePartner, male, true, ""},
	"fiancee": {factbase.RolePartner, female, true, ""}, "fiancée": {factbase.RolePartner, female, true, "fiancee"},
	"fiance": {factbase.RolePartner, male, true, ""}, "fiancé": {factbase.RolePartner, male, true, "fiance"},
	"hubby": {factbase.RolePartner, male, true, "husband"}, "missus": {factbase.RolePartner, female, true, "wife"},
	"son": {factbase.RoleChild, male, false, ""}, "daughter": {factbase.RoleChild, female, false, ""},
	"kid": {factbase.RoleChild, anyGender, false, "child"}, "child": {factbase.RoleChild, anyGender, false, ""},
	"boy": {factbase.RoleChild, male, false, "son"}, "girl": {factbase.RoleChild, female, false, "daughter"},
	"baby": {factbase.RoleChild, anyGender, false, ""}, "toddler": {factbase.RoleChild, anyGender, false, "child"},
	"stepson": {factbase.RoleChild, male, false, ""}, "stepdaughter": {factbase.RoleChild, female, false, ""},
	"step son": {factbase.RoleChild, male, false, "stepson"}, "step daughter": {factbase.RoleChild, female, false, "stepdaughter"},
	"mom": {factbase.RoleParent, female, true, ""}, "mum": {factbase.RoleParent, female, true, "mom"},
	"mother": {factbase.RoleParent, female, true, "mom"}, "mommy": {factbase.RoleParent, female, true, "mom"},
	"mama": {factbase.RoleParent, female, true, "mom"}, "ma": {factbase.RoleParent, female, true, "mom"},
	"dad": {factbase.RoleParent, male, true, ""}, "father": {factbase.RoleParent, male, true, "dad"},
	"daddy": {factbase.RoleParent, male, true, "dad"}, "papa": {factbase.RoleParent, male, true, "dad"},
	"pop":    {factbase.RoleParent, male, true, "dad"},
	"parent": {factbase.RoleParent, anyGender, false, ""}, "grandparent": {factbase.RoleOther, anyGender, false, ""},
	"stepmom": {factbase.RoleParent, female, true, ""}, "stepmother": {factbase.RoleParent, female, true, "stepmom"},
	"stepdad": {factbase.RoleParent, male, true, ""}, "stepfather": {factbase.RoleParent, male, true, "stepdad"},
	"brother": {factbase.RoleSibling, male, false, ""}, "sister": {factbase.RoleSibling, female, false, ""},
	"sibling": {factbase.RoleSibling, anyGender, false, ""}, "twin": {factbase.RoleSibling, anyGender, false, ""},
	"twin brother": {factbase.RoleSibling, male, false, "brother"}, "twin sister": {factbase.RoleSibling, female, false, "sister"},
	"sis": {factbase.RoleSibling, female, false, "sister"}, "bro": {factbase.RoleSibling, male, false, "brother"},
	"stepbrother": {factbase.RoleSibling, male, false, ""}, "stepsister": {factbase.RoleSibling, female, false, ""},
	"half brother": {factbase.RoleSibling, male, false, "half-brother"}, "half-brother": {factbase.RoleSibling, male, false, ""},
	"half sister": {factbase.RoleSibling, female, false, "half-sister"}, "half-sister": {factbase.RoleSibling, female, false, ""},
	"friend": {factbase.RoleFriend, anyGender, false, ""}, "best friend": {factbase.RoleFriend, anyGender, false, ""},
	"bff": {factbase.RoleFriend, anyGender, false, "best friend"}, "bestie": {factbase.RoleFriend, anyGender, false, "best friend"},
	"bf": {factbase.RolePartner, male, true, "boyfriend"}, "gf": {factbase.RolePartner, female, true, "girlfriend"},
	"gran": {factbase.RoleOther, female, false, "grandmother"}, "buddy": {factbase.RoleFriend, anyGender, false, "friend"},
	"pal": {factbase.RoleFriend, anyGender, false, "friend"}, "mate": {factbase.RoleFriend, anyGender, false, "friend"},
	"girl friend": {factbase.RoleFriend, female, false, "friend"}, "roommate": {factbase.RoleFriend, anyGender, false, ""},
	"flatmate": {factbase.RoleFriend, anyGender, false, "roommate"}, "housemate": {factbase.RoleFriend, anyGender, false, "roommate"},
	"childhood friend": {factbase.RoleFriend, anyGender, false, ""}, "old friend": {factbase.RoleFriend, anyGender, false, "friend"},
	"close friend": {factbase.RoleFriend, anyGender, false, "friend"}, "good friend": {factbase.RoleFriend, anyGender, false, "friend"},
	"colleague": {factbase.RoleColleague, anyGender, false, ""}, "coworker": {factbase.RoleColleague, anyGender, false, "colleague"},
	"co-worker": {factbase.RoleColleague, anyGender, false, "colleague"}, "co worker": {factbase.RoleColleague, anyGender, false, "colleague"},
	"workmate": {factbase.RoleColleague, anyGender, false, "colleague"}, "boss": {factbase.RoleColleague, anyGender, true, ""},
	"manager": {factbase.RoleColleague, anyGender, true, ""}, "supervisor": {factbase.RoleColleague, anyGender, true, ""},
	"teammate": {factbase.RoleColleague, anyGender, false, ""}, "team mate": {factbase.RoleColleague, anyGender, false, "teammate"},
	"cofounder": {factbase.RoleColleague, anyGender, false, ""}, "co-founder": {factbase.RoleColleague, anyGender, false, "cofounder"},
	"business partner": {factbase.RoleColleague, anyGender, false, ""}, "employee": {factbase.RoleColleague, anyGender, false, ""},
	"intern": {factbase.RoleColleague, anyGender, false, ""}, "assistant": {factbase.RoleColleague, anyGender, false, ""},
	"direct report": {factbase.RoleColleague, anyGender, false, ""}, "team lead": {factbase.RoleColleague, anyGender, true, ""},
	"ceo": {factbase.RoleColleague, anyGender, true, "CEO"}, "client": {factbase.RoleColleague, anyGender, false, ""},
	"dog": {factbase.RolePet, anyGender, false, ""}, "cat": {factbase.RolePet, anyGender, false, ""},
	"puppy": {factbase.RolePet, anyGender, false, ""}, "kitten": {factbase.RolePet, anyGender, false, ""},
	"pet": {factbase.RolePet, anyGender, false, ""}, "hamster": {factbase.RolePet, anyGender, false, ""},
	"parrot": {factbase.RolePet, anyGender, false, ""}, "rabbit": {factbase.RolePet, anyGender, false, ""},
	"bunny": {factbase.RolePet, anyGender, false, "rabbit"}, "horse": {factbase.RolePet, anyGender, false, ""},
	"pony": {factbase.RolePet, anyGender, false, ""}, "turtle": {factbase.RolePet, anyGender, false, ""},
	"guinea pig": {factbase.RolePet, anyGender, false, ""}, "goldfish": {factbase.RolePet, anyGender, false, ""},
	"bird": {factbase.RolePet, anyGender, false, ""}, "lizard": {factbase.RolePet, anyGender, false, ""},
	"snake": {factbase.RolePet, anyGender, false, ""}, "ferret": {factbase.RolePet, anyGender, false, ""},
	"beagle": {factbase.RolePet, anyGender, false, ""}, "boxer": {factbase.RolePet, anyGender, false, ""},
	"tortoise": {factbase.RolePet, anyGender, false, ""}, "gecko": {factbase.RolePet, anyGender, false, ""},
	"budgie": {factbase.RolePet, anyGender, false, ""}, "pup": {factbase.RolePet, anyGender, false, "puppy"},
	"kitty": {factbase.RolePet, anyGender, false, "cat"}, "cockatiel": {factbase.RolePet, anyGender, false, ""},
	"hedgehog": {factbase.RolePet, anyGender, false, ""}, "chinchilla": {factbase.RolePet, anyGender, false, ""},
	"gerbil": {factbase.RolePet, anyGender, false, ""}, "canary": {factbase.RolePet, anyGender, false, ""},
	"iguana": {factbase.RolePet, anyGender, false, ""}, "parakeet": {factbase.RolePet, anyGender, false, ""},
	"cockatoo": {factbase.RolePet, anyGender, false, ""}, "axolotl": {factbase.RolePet, anyGender, false, ""},
	"bearded dragon": {factbase.RolePet, anyGender, false, ""}, "donkey": {factbase.RolePet, anyGender, false, ""},
	"alpaca": {factbase.RolePet, anyGender, false, ""}, "tarantula": {factbase.RolePet, anyGender, false, ""},
	"accountant": {factbase.RoleService, anyGender, false, ""}, "doctor": {factbase.RoleService, anyGender, false, ""},
	"gp": {factbase.RoleService, anyGender, false, "doctor"}, "dentist": {factbase.RoleService, anyGender, false, ""},
	"lawyer": {factbase.RoleService, anyGender, false, ""}, "attorney": {factbase.RoleService, anyGender, false, "lawyer"},
	"therapist": {factbase.RoleService, anyGender, false, ""}, "plumber": {factbase.RoleService, anyGender, false, ""},
	"electrician": {factbase.RoleService, anyGender, false, ""}, "trainer": {factbase.RoleService, anyGender, false, ""},
	"personal trainer": {factbase.RoleService, anyGender, false, ""}, "hairdresser": {factbase.RoleService, anyGender, false, ""},
	"barber": {factbase.RoleService, anyGender, false, ""}, "mechanic": {factbase.RoleService, anyGender, false, ""},
	"nanny": {factbase.RoleService, anyGender, false, ""}, "babysitter": {factbase.RoleService, anyGender, false, ""},
	"tutor": {factbase.RoleService, anyGender, false, ""}, "pediatrician": {factbase.RoleService, anyGender, false, ""},
	"vet": {factbase.RoleService, anyGender, false, ""}, "veterinarian": {factbase.RoleService, anyGender, false, "vet"},
	"cleaner": {factbase.RoleService, anyGender, false, ""}, "housekeeper": {factbase.RoleService, anyGender, false, ""},
	"landlord": {factbase.RoleService, anyGender, true, ""}, "landlady": {factbase.RoleService, female, true, "landlord"},
	"realtor": {factbase.RoleService, anyGender, false, ""}, "financial advisor": {factbase.RoleService, anyGender, false, ""},
	"physio": {factbase.RoleService, anyGender, false, "physiotherapist"}, "physiotherapist": {factbase.RoleService, anyGender, false, ""},
	"piano teacher": {factbase.RoleService, anyGender, false, ""}, "music teacher": {factbase.RoleService, anyGender, false, ""},
	"coach": {factbase.RoleService, anyGender, false, ""}, "psychiatrist": {factbase.RoleService, anyGender, false, ""},
	"dermatologist": {factbase.RoleService, anyGender, false, ""}, "gardener": {factbase.RoleService, anyGender, false, ""},
	"dog walker": {factbase.RoleService, anyGender, false, ""}, "driver": {factbase.RoleService, anyGender, false, ""},
	"stylist": {factbase.RoleService, anyGender, false, ""}, "optician": {factbase.RoleService, anyGender, false, ""},
	"grandma": {factbase.RoleOther, female, false, "grandmother"}, "grandmother": {factbase.RoleOther, female, false, ""},
	"granny": {factbase.RoleOther, female, false, "grandmother"}, "nana": {factbase.RoleOther, female, false, "grandmother"},
	"grandpa": {factbase.RoleOther, male, false, "grandfather"}, "grandfather": {factbase.RoleOther, male, false, ""},
	"granddad": {factbase.RoleOther, male, false, "grandfather"}, "grandson": {factbase.RoleOther, male, false, ""},
	"granddaughter": {factbase.RoleOther, female, false, ""}, "grandchild": {factbase.RoleOther, anyGender, false, ""},
	"uncle": {factbase.RoleOther, male, false, ""}, "aunt": {factbase.RoleOther, female, false, ""},
	"auntie": {factbase.RoleOther, female, false, "aunt"}, "cousin": {factbase.RoleOther, anyGender, false, ""},
	"niece": {factbase.RoleOther, female, false, ""}, "nephew": {factbase.RoleOther, male, false, ""},
	"mother-in-law": {factbase.RoleOther, female, true, ""}, "father-in-law": {factbase.RoleOther, male, true, ""},
	"sister-in-law": {factbase.RoleOther, female, false, ""}, "brother-in-law": {factbase.RoleOther, male, false, ""},
	"son-in-law": {factbase.RoleOther, male, false, ""}, "daughter-in-law": {factbase.RoleOther, female, false, ""},
	"mother in law": {factbase.RoleOther, female, true, "mother-in-law"}, "father in law": {factbase.RoleOther, male, true, "father-in-law"},
	"neighbor": {factbase.RoleOther, anyGender, false, ""}, "neighbour": {factbase.RoleOther, anyGender, false, "neighbor"},
	"teacher": {factbase.RoleOther, anyGender, false, ""}, "godfather": {factbase.RoleOther, male, false, ""},
	"godmother": {factbase.RoleOther, female, false, ""}, "godson": {factbase.RoleOther, male, false, ""},
	"goddaughter": {factbase.RoleOther, female, false, ""}, "ex-wife": {factbase.RoleOther, female, true, ""},
	"ex-husband": {factbase.RoleOther, male, true, ""}, "ex": {factbase.RoleOther, anyGender, false, ""},
	"ex-boyfriend": {factbase.RoleOther, male, false, ""}, "ex-girlfriend": {factbase.RoleOther, female, false, ""},
	"mentor": {factbase.RoleOther, anyGender, false, ""}, "classmate": {factbase.RoleOther, anyGender, false, ""},
}

// pluralRelations are plural relation nouns: a group, not one entity.
var pluralRelations = map[string]bool{
	"kids": true, "children": true, "sons": true, "daughters": true, "parents": true, "folks": true,
	"brothers": true, "sisters": true, "siblings": true, "friends": true, "colleagues": true, "coworkers": true,
	"co-workers": true, "grandparents": true, "grandkids": true, "grandchildren": true, "cousins": true,
	"dogs": true, "cats": true, "pets": true, "twins": true, "in-laws": true, "neighbors": true, "neighbours": true,
	"boys": true, "girls": true, "family": true, "team": true, "inlaws": true, "roommates": true,
}

// relationModifiers may come between "my" and a relation noun; they are not part of
// the relation ("my little brother" is a brother).
var relationModifiers = map[string]bool{
	"little": true, "big": true, "older": true, "younger": true, "eldest": true, "oldest": true,
	"youngest": true, "middle": true, "baby": false, "new": true, "dear": true, "lovely": true,
	"beloved": true, "sweet": true, "dearest": true, "amazing": true, "wonderful": true, "own": true,
	"elder": true, "second": true, "first": true, "only": true, "favorite": true, "favourite": true,
	"adorable": true, "awesome": true, "beautiful": true, "current": true, "two": false,
	"rescue": true, "family": true,
}

// kinTitles may stand before a name as a title ("Uncle Bob", "Grandma Rose").
var kinTitles = map[string]bool{
	"uncle": true, "aunt": true, "auntie": true, "grandma": true, "grandpa": true, "granny": true,
	"nana": true, "cousin": true, "grandmother": true, "grandfather": true,
}

// titles are honorifics that belong to a name ("Dr. Patel").
var titles = map[string]bool{
	"dr": true, "mr": true, "mrs": true, "ms": true, "miss": true, "prof": true, "mx": true, "sir": true,
	"doctor": false,
}

// abbreviations end in a dot that does not end a sentence ("St. Mary's").
var abbreviations = map[string]bool{"st": true, "mt": true, "jr": true, "sr": true, "vs": true, "etc": false,
	"inc": true, "ltd": true, "co": true, "corp": true, "ave": true, "rd": true, "dept": true, "approx": true,
	"no": false, "fig": true, "ft": true, "mrs": true, "prof": true, "gen": true, "col": true, "lt": true, "sgt": true}

// pronouns map personal and possessive pronouns to their gender; plural ones are
// marked apart.
var pronouns = map[string]gender{
	"he": male, "him": male, "his": male, "she": female, "her": female, "hers": female,
}

// notNames are capitalised words that never start a name.
var notNames = map[string]bool{
	"i": true, "the": true, "a": true, "an": true, "my": true, "our": true, "your": true, "his": true, "her": true,
	"their": true, "this": true, "that": true, "these": true, "those": true, "it": true, "we": true, "they": true,
	"he": true, "she": true, "you": true, "what": true, "who": true, "where": true, "when": true, "why": true,
	"how": true, "which": true, "yes": true, "no": true, "hi": true, "hello": true, "hey": true, "thanks": true,
	"thank": true, "please": true, "also": true, "and": true, "but": true, "or": true, "so": true, "oh": true,
	"ok": true, "okay": true, "well": true, "just": true, "actually": true, "btw": true, "fyi": true,
	"today": true, "tomorrow": true, "yesterday": true, "tonight": true, "everyone": true, "everybody": true,
	"someone": true, "somebody": true, "nobody": true, "anyone": true, "anybody": true, "there": true,
	"here": true, "if": true, "maybe": true, "perhaps": true, "sure": true, "great": true, "good": true,
	"nice": true, "cool": true, "wow": true, "lol": true, "haha": true, "ha": true, "hah": true, "meet": true, "sorry": true, "remember": true,
	"note": true, "also,": true, "now": true, "then": true, "since": true, "because": true, "although": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true,
	"sunday": true, "january": true, "february": true, "march": true, "april": true, "may": true, "june": true,
	"july": true, "august": true, "september": true, "october": true, "november": true, "december": true,
	"christmas": true, "easter": true, "halloween": true, "thanksgiving": true, "english": true,
	"french": true, "german": true, "spanish": true, "italian": true, "chinese": true, "japanese": true,
	"pizza": true, "coffee": true, "tea": true, "sushi": true, "chocolate": true, "cheese": true,
	"bread": true, "wine": true, "beer": true, "water": true, "food": true, "dinner": true, "lunch": true,
	"breakfast": true, "work": true, "school": true, "life": true, "everything": true, "nothing": true,
	"something": true, "pasta": true, "salad": true, "soup": true, "meat": true, "chicken": true,
	"rice": true, "milk": true, "eggs": true, "dessert": true, "cake": true, "restaurant": true,
	"the restaurant": true, "google": true, "apple": true, "amazon": true, "microsoft": true,
	"netflix": true, "meta": true, "facebook": true, "twitter": true, "nobody's": true, "one": true,
	"all": true, "both": true, "each": true, "every": true, "some": true, "any": true, "most": true,
	"many": true, "other": true, "another": true, "let": true, "can": true, "could": true, "would": true,
	"should": true, "will": true, "do": true, "does": true, "did": true, "is": true, "are": true,
	"was": true, "were": true, "have": true, "has": true, "had": true, "not": true, "never": true,
	"always": true, "usually": true, "sometimes": true, "mom": false, "dad": false, "god": true,
	"santa": true, "mr": true, "mrs": true, "ms": true, "dr": true, "answer": true, "keep": true,
	"be": true, "use": true, "reply": true, "respond": true, "write": true, "speak": true, "talk": true,
	"give": true, "make": true, "tell": true, "call": true, "stop": true, "don't": true, "avoid": true,
	"switch": true, "send": true, "show": true, "find": true, "book": true, "add": true, "set": true,
	"plan": true, "update": true, "change": true, "delete": true, "correction": true, "reminder": true,
	"anyway": true, "by": true, "for": true, "in": true, "on": true, "at": true, "to": true, "from": true,
	"with": true, "without": true, "after": true, "before": true, "during": true, "about": true,
	"yeah": true, "yep": true, "nope": true, "hmm": true, "um": true, "uh": true, "ah": true,
	"dear": true, "quick": true, "update:": true, "p.s": true, "ps": true, "luckily": true,
	"unfortunately": true, "apparently": true, "honestly": true, "basically": true, "recently": true,
	"lately": true, "currently": true, "still": true, "again": true, "finally": true, "interestingly": true,
	"paris": true, "london": true, "rome": true, "berlin": true, "lisbon": true, "tokyo": true,
	"new": true, "york": true, "us": true, "usa": true, "uk": true, "europe": true, "covid": true,
	"ai": true, "gpt": true, "chatgpt": true, "claude": true, "siri": true, "alexa": true,
}

// occupations are job nouns for "Sarah is a nurse" (work.role).
var occupations = map[string]bool{
	"nurse": true, "doctor": true, "teacher": true, "engineer": true, "software engineer": true,
	"developer": true, "software developer": true, "programmer": true, "designer": true, "lawyer": true,
	"accountant": true, "architect": true, "dentist": true, "pharmacist": true, "chef": true, "cook": true,
	"baker": true, "pilot": true, "firefighter": true, "police officer": true, "cop": true, "surgeon": true,
	"physician": true, "professor": true, "researcher": true, "scientist": true, "data scientist": true,
	"writer": true, "journalist": true, "editor": true, "artist": true, "musician": true, "photographer": true,
	"actor": true, "actress": true, "student": true, "consultant": true, "manager": true,
	"product manager": true, "project manager": true, "salesperson": true, "sales rep": true,
	"electrician": true, "plumber": true, "carpenter": true, "mechanic": true, "farmer": true,
	"veterinarian": true, "vet": true, "therapist": true, "psychologist": true, "social worker": true,
	"librarian": true, "paramedic": true, "midwife": true, "banker": true, "analyst": true,
	"financial analyst": true, "economist": true, "translator": true, "interpreter": true,
	"flight attendant": true, "hairdresser": true, "barber": true, "realtor": true, "real estate agent": true,
	"entrepreneur": true, "ceo": true, "cto": true, "founder": true, "freelancer": true,
	"graphic designer": true, "web developer": true, "data analyst": true, "civil engineer": true,
	"mechanical engineer": true, "electrical engineer": true, "nurse practitioner": true,
	"dental hygienist": true, "physiotherapist": true, "physical therapist": true, "optometrist": true,
	"judge": true, "soldier": true, "officer": true, "diplomat": true, "politician": true, "priest": true,
	"pastor": true, "rabbi": true, "teaching assistant": true, "lecturer": true, "tutor": true,
	"coach": true, "personal trainer": true, "cashier": true, "waiter": true, "waitress": true,
	"bartender": true, "barista": true, "driver": true, "truck driver": true, "bus driver": true,
	"taxi driver": true, "postman": true, "mail carrier": true, "janitor": true, "cleaner": true,
	"receptionist": true, "secretary": true, "administrator": true, "sysadmin": true, "ux designer": true,
	"software architect": true, "devops engineer": true, "product designer": true, "marketer": true,
	"marketing manager": true, "recruiter": true, "hr manager": true, "paralegal": true, "notary": true,
	"pediatrician": true, "psychiatrist": true, "radiologist": true, "anesthesiologist": true,
	"cardiologist": true, "dermatologist": true, "surgeon general": true, "nanny": true, "babysitter": true,
	"stay-at-home mom": true, "stay-at-home dad": true, "homemaker": true, "retiree": true, "florist": true,
	"tailor": true, "jeweler": true, "butcher": true, "fisherman": true, "miner": true, "welder": true,
	"painter": true, "sculptor": true, "dancer": true, "singer": true, "composer": true, "producer": true,
	"director": true, "film director": true, "animator": true, "game developer": true, "copywriter": true,
	"novelist": true, "poet": true, "historian": true, "archaeologist": true, "biologist": true,
	"chemist": true, "physicist": true, "mathematician": true, "statistician": true, "astronaut": true,
}

// dietWords are diets: "Leo is vegetarian" (key diet).
var dietWords = map[string]string{
	"vegetarian": "vegetarian", "veggie": "vegetarian", "vegan": "vegan", "pescatarian": "pescatarian",
	"pescetarian": "pescatarian", "plant-based": "plant-based", "kosher": "kosher", "halal": "halal",
	"keto": "keto", "paleo": "paleo", "gluten-free": "gluten-free", "dairy-free": "dairy-free",
	"lactose-free": "lactose-free", "flexitarian": "flexitarian", "carnivore": "carnivore",
	"sugar-free": "sugar-free", "nut-free": "nut-free", "low-carb": "low-carb", "raw vegan": "raw vegan",
	"teetotal": "teetotal", "teetotaler": "teetotal", "sober": "sober",
	"intermittent fasting": "intermittent fasting", "whole30": "Whole30", "low-fodmap": "low-FODMAP",
	"mediterranean": "Mediterranean", "carnivore diet": "carnivore", "dairy free": "dairy-free",
}

// conditionWords are health conditions said as adjectives: "Leo is diabetic".
var conditionWords = map[string]string{
	"diabetic": "diabetes", "celiac": "celiac disease", "coeliac": "celiac disease",
	"asthmatic": "asthma", "epileptic": "epilepsy", "lactose intolerant": "lactose intolerance",
	"gluten intolerant": "gluten intolerance", "anemic": "anemia", "anaemic": "anemia",
	"pregnant": "pregnancy", "colorblind": "color blindness", "color blind": "color blindness",
	"deaf": "deafness", "hard of hearing": "hearing loss", "blind": "blindness", "autistic": "autism",
	"dyslexic": "dyslexia", "hypertensive": "hypertension", "immunocompromised": "immunocompromised",
	"allergic": "", // handled by the allergy rule
}

// conditionNouns are conditions said with "has": "Sarah has asthma".
var conditionNouns = map[string]bool{
	"asthma": true, "diabetes": true, "type 1 diabetes": true, "type 2 diabetes": true, "epilepsy": true,
	"celiac disease": true, "coeliac disease": true, "celiac": true, "adhd": true, "autism": true,
	"migraines": true, "migraine": true, "high blood pressure": true, "hypertension": true, "arthritis": true,
	"eczema": true, "anxiety": true, "depression": true, "dyslexia": true, "crohn's": true,
	"crohn's disease": true, "ibs": true, "lupus": true, "cancer": true, "a heart condition": true,
	"heart disease": true, "a bad back": true, "back pain": true, "insomnia": true, "sleep apnea": true,
	"hay fever": true, "a cold": false, "the flu": false, "covid": false, "high cholesterol": true,
	"low blood pressure": true, "a pacemaker": true, "psoriasis": true, "multiple sclerosis": true,
	"ms": true, "parkinson's": true, "dementia": true, "alzheimer's": true, "osteoporosis": true,
	"a peanut allergy": false, "gout": true, "tinnitus": true, "vertigo": true, "bipolar disorder": true,
	"ptsd": true, "ocd": true, "a thyroid condition": true, "hypothyroidism": true, "anemia": true,
	"lactose intolerance": true, "gluten intolerance": true, "a nut allergy": false, "scoliosis": true, "fibromyalgia": true, "endometriosis": true, "pcos": true,
	"chronic fatigue": true, "long covid": true, "glaucoma": true, "cataracts": true, "sciatica": true,
}

// medications are medicines said with "takes" or "is on": "Sarah takes insulin".
var medications = map[string]bool{
	"insulin": true, "metformin": true, "blood thinners": true, "warfarin": true, "antidepressants": true,
	"an antidepressant": true, "ssris": true, "statins": true, "a statin": true, "blood pressure medication": true,
	"blood pressure meds": true, "medication": true, "meds": true, "levothyroxine": true,
	"thyroid medication": true, "an inhaler": true, "inhalers": true, "ritalin": true, "adderall": true,
	"chemo": true, "chemotherapy": true, "antibiotics": true, "birth control": true, "the pill": true,
	"aspirin": true, "lithium": true, "prednisone": true, "steroids": true, "an epipen": true, "epipen": true,
	"beta blockers": true, "ibuprofen": true, "methotrexate": true, "xanax": true, "zoloft": true,
	"prozac": true, "lexapro": true, "sertraline": true, "fluoxetine": true, "citalopram": true,
	"escitalopram": true, "atorvastatin": true, "lisinopril": true, "amlodipine": true, "omeprazole": true,
	"gabapentin": true, "melatonin": true, "vitamin b12": false, "eliquis": true, "ozempic": true,
	"wegovy": true, "insulin injections": true, "hrt": true, "suboxone": true, "vitamin d": false,
}

// languages are languages for "answer in German".
var languages = map[string]string{
	"english": "English", "german": "German", "french": "French", "spanish": "Spanish", "italian": "Italian",
	"portuguese": "Portuguese", "dutch": "Dutch", "polish": "Polish", "russian": "Russian",
	"ukrainian": "Ukrainian", "chinese": "Chinese", "mandarin": "Mandarin", "cantonese": "Cantonese",
	"japanese": "Japanese", "korean": "Korean", "arabic": "Arabic", "hebrew": "Hebrew", "hindi": "Hindi",
	"turkish": "Turkish", "greek": "Greek", "swedish": "Swedish", "norwegian": "Norwegian",
	"danish": "Danish", "finnish": "Finnish", "czech": "Czech", "hungarian": "Hungarian",
	"romanian": "Romanian", "vietnamese": "Vietnamese", "thai": "Thai", "indonesian": "Indonesian",
	"catalan": "Catalan", "swahili": "Swahili", "bengali": "Bengali", "urdu": "Urdu", "persian": "Persian",
	"farsi": "Persian", "tagalog": "Tagalog", "malay": "Malay", "irish": "Irish", "welsh": "Welsh",
	"spanglish": "Spanglish", "brazilian portuguese": "Brazilian Portuguese", "asl": "ASL",
	"sign language": "sign language", "american sign language": "ASL", "bsl": "BSL", "latin": "Latin",
	"icelandic": "Icelandic", "afrikaans": "Afrikaans", "tamil": "Tamil", "punjabi": "Punjabi",
	"gujarati": "Gujarati", "marathi": "Marathi", "telugu": "Telugu", "slovak": "Slovak",
	"slovenian": "Slovenian", "croatian": "Croatian", "serbian": "Serbian", "bulgarian": "Bulgarian",
	"lithuanian": "Lithuanian", "latvian": "Latvian", "estonian": "Estonian", "albanian": "Albanian",
	"amharic": "Amharic", "yoruba": "Yoruba", "zulu": "Zulu", "esperanto": "Esperanto",
	"basque": "Basque", "galician": "Galician", "armenian": "Armenian", "georgian": "Georgian",
	"nepali": "Nepali", "sinhala": "Sinhala", "khmer": "Khmer", "lao": "Lao", "burmese": "Burmese",
	"mongolian": "Mongolian", "kazakh": "Kazakh", "uzbek": "Uzbek", "pashto": "Pashto", "kurdish": "Kurdish",
	"maori": "Maori", "hawaiian": "Hawaiian", "swiss german": "Swiss German", "flemish": "Flemish",
	"scottish gaelic": "Scottish Gaelic", "gaelic": "Gaelic", "yiddish": "Yiddish", "hausa": "Hausa",
	"igbo": "Igbo", "somali": "Somali", "malayalam": "Malayalam", "kannada": "Kannada",
	"twi": "Twi", "bosnian": "Bosnian", "slovene": "Slovene", "maltese": "Maltese",
	"luxembourgish": "Luxembourgish", "xhosa": "Xhosa", "quechua": "Quechua", "guarani": "Guarani",
	"samoan": "Samoan", "tongan": "Tongan", "fijian": "Fijian", "hokkien": "Hokkien", "wolof": "Wolof",
	"hmong": "Hmong", "tigrinya": "Tigrinya", "oromo": "Oromo", "filipino": "Filipino", "cebuano": "Cebuano",
	"dari": "Dari", "belarusian": "Belarusian", "azerbaijani": "Azerbaijani", "azeri": "Azerbaijani",
	"frisian": "Frisian", "taiwanese": "Taiwanese", "shanghainese": "Shanghainese", "javanese": "Javanese",
	"malagasy": "Malagasy", "lingala": "Lingala", "kinyarwanda": "Kinyarwanda", "shona": "Shona",
	"kyrgyz": "Kyrgyz", "tajik": "Tajik", "turkmen": "Turkmen", "uyghur": "Uyghur", "tibetan": "Tibetan",
	"haitian creole": "Haitian Creole", "sicilian": "Sicilian", "neapolitan": "Neapolitan",
	"sardinian": "Sardinian", "corsican": "Corsican", "occitan": "Occitan", "breton": "Breton",
	"cornish": "Cornish", "romansh": "Romansh", "sami": "Sami", "tatar": "Tatar",
	"mandarin chinese": "Mandarin Chinese", "british sign language": "British Sign Language",
	"modern greek": "Greek", "standard arabic": "Arabic", "egyptian arabic": "Egyptian Arabic",
	"levantine arabic": "Levantine Arabic", "moroccan arabic": "Moroccan Arabic", "darija": "Darija",
	"castilian": "Castilian", "quebecois": "Québécois", "québécois": "Québécois",
}

// months are month names, which are not names of people.
var months = map[string]bool{
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true, "july": true,
	"august": true, "september": true, "october": true, "november": true, "december": true,
}

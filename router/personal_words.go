package router

import "github.com/factbase/factbase"

// The word tables of the personal-fact grammar in personal.go.

// keyPhrases name the personal facts after "my": the words, joined by spaces, to the
// key.
var keyPhrases = map[string]string{
	"email": factbase.KeyEmail, "email address": factbase.KeyEmail, "e mail": factbase.KeyEmail,
	"e mail address": factbase.KeyEmail, "mail address": factbase.KeyEmail,

	"work email": factbase.KeyWorkEmail, "work email address": factbase.KeyWorkEmail,
	"business email": factbase.KeyWorkEmail, "business email address": factbase.KeyWorkEmail,
	"office email": factbase.KeyWorkEmail,

	"phone": factbase.KeyPhone, "phone number": factbase.KeyPhone, "cell": factbase.KeyPhone,
	"cell phone": factbase.KeyPhone, "cell number": factbase.KeyPhone, "cell phone number": factbase.KeyPhone,
	"cellphone": factbase.KeyPhone, "cellphone number": factbase.KeyPhone, "mobile": factbase.KeyPhone,
	"mobile number": factbase.KeyPhone, "mobile phone": factbase.KeyPhone,
	"mobile phone number": factbase.KeyPhone, "telephone": factbase.KeyPhone,
	"telephone number": factbase.KeyPhone, "number": factbase.KeyPhone, "contact number": factbase.KeyPhone,
	"phone no": factbase.KeyPhone, "whatsapp": factbase.KeyPhone, "whatsapp number": factbase.KeyPhone,
	"personal number": factbase.KeyPhone, "personal phone": factbase.KeyPhone, "personal email": factbase.KeyEmail,
	"personal email address": factbase.KeyEmail, "private email": factbase.KeyEmail,

	"work phone": factbase.KeyWorkPhone, "work number": factbase.KeyWorkPhone,
	"work phone number": factbase.KeyWorkPhone, "office phone": factbase.KeyWorkPhone,
	"office number": factbase.KeyWorkPhone, "business phone": factbase.KeyWorkPhone,
	"office line": factbase.KeyWorkPhone, "work line": factbase.KeyWorkPhone, "work mobile": factbase.KeyWorkPhone,
	"work cell": factbase.KeyWorkPhone,

	"name": factbase.KeyName, "full name": factbase.KeyName, "real name": factbase.KeyName,

	"birthday": factbase.KeyUserBirthday, "bday": factbase.KeyUserBirthday, "b-day": factbase.KeyUserBirthday,
	"birth date": factbase.KeyUserBirthday, "birthdate": factbase.KeyUserBirthday,
	"date of birth": factbase.KeyUserBirthday, "dob": factbase.KeyUserBirthday,
	"birth day": factbase.KeyUserBirthday,

	"city": factbase.KeyCity, "home city": factbase.KeyCity, "city of residence": factbase.KeyCity,
	"place of residence": factbase.KeyCity, "home": factbase.KeyCity,

	// A hometown is where one comes from, not where one lives now.
	"hometown": factbase.KeyOrigin, "home town": factbase.KeyOrigin,

	"employer": factbase.KeyEmployer, "company": factbase.KeyEmployer, "workplace": factbase.KeyEmployer,
	"work place": factbase.KeyEmployer, "place of work": factbase.KeyEmployer,

	"job title": factbase.KeyRole, "job": factbase.KeyRole, "role": factbase.KeyRole,
	"position": factbase.KeyRole, "occupation": factbase.KeyRole, "profession": factbase.KeyRole,
	"job role": factbase.KeyRole,
}

// keyModifiers may come between "my" and a key phrase.
var keyModifiers = map[string]bool{
	"new": true, "current": true, "primary": true, "main": true, "personal": true,
	"actual": true, "preferred": true, "updated": true, "present": true,
	"correct": true, "usual": true,
}

// keyQuestions ask for a personal fact's value.
var keyQuestions = map[string]string{
	factbase.KeyEmail: "What is your email address?", factbase.KeyWorkEmail: "What is your work email address?",
	factbase.KeyPhone: "What is your phone number?", factbase.KeyWorkPhone: "What is your work phone number?",
	factbase.KeyName: "What is your name?", factbase.KeyUserBirthday: "When is your birthday?",
	factbase.KeyCity: "Where do you live?", factbase.KeyEmployer: "Where do you work?",
	factbase.KeyRole: "What do you do for work?",
}

// nameStops may not open a name: "call me later", "call me crazy".
var nameStops = map[string]bool{
	"not": true, "a": true, "an": true, "the": true, "later": true, "back": true,
	"tomorrow": true, "tonight": true, "today": true, "now": true, "soon": true,
	"anytime": true, "when": true, "whenever": true, "if": true, "at": true, "on": true,
	"in": true, "crazy": true, "sometime": true, "maybe": true, "please": true,
	"asap": true, "old": true, "never": true, "what": true, "whatever": true,
	"anything": true, "something": true, "nothing": true, "someone": true, "by": true,
	"my": true, "your": true, "his": true, "her": true, "their": true, "our": true,
	"it": true, "that": true, "this": true, "so": true, "too": true, "again": true,
	"first": true, "old-fashioned": true, "paranoid": true, "silly": true, "stupid": true,
	"weird": true, "biased": true, "lazy": true, "naive": true, "sentimental": true,
	"unknown": true, "private": true, "secret": true, "important": true, "irrelevant": true,
	"for": true, "with": true, "to": true, "about": true, "and": true, "or": true, "but": true,
	"still": true, "just": true, "very": true, "really": true, "no": true, "any": true,
	"up": true, "out": true, "over": true, "after": true, "before": true, "around": true,
	"between": true, "from": true, "since": true, "every": true, "sometimes": true,
	"tired": true, "happy": true, "sad": true, "fine": true, "good": true, "great": true,
	"sorry": true, "sure": true, "ready": true, "here": true, "there": true,
	"same": true, "different": true, "long": true, "short": true, "hard": true, "easy": true,
}

var months = map[string]bool{
	"january": true, "february": true, "march": true, "april": true, "may": true,
	"june": true, "july": true, "august": true, "september": true, "october": true,
	"november": true, "december": true, "jan": true, "feb": true, "mar": true, "apr": true,
	"jun": true, "jul": true, "aug": true, "sep": true, "sept": true, "oct": true,
	"nov": true, "dec": true,
}

// placeStops may not open a place: "I live in fear", "I live in a house".
var placeStops = map[string]bool{
	"a": true, "an": true, "my": true, "his": true, "her": true, "their": true, "our": true,
	"your": true, "this": true, "that": true, "fear": true, "hope": true, "denial": true,
	"peace": true, "sin": true, "harmony": true, "poverty": true, "luxury": true,
	"comfort": true, "it": true, "there": true, "here": true, "hell": true, "misery": true,
	"constant": true, "terror": true, "dread": true, "shame": true, "love": true,
	"darkness": true, "silence": true, "pain": true,
}

// placeStopsAfterThe follow "the" in a phrase that is not a place: "the past".
var placeStopsAfterThe = map[string]bool{
	"past": true, "present": true, "future": true, "moment": true, "now": true,
	"same": true, "city": true, "country": true, "countryside": true, "suburbs": true,
	"woods": true, "area": true, "middle": true, "house": true, "apartment": true,
	"flat": true, "basement": true, "dorm": true, "dorms": true, "shadows": true,
	"hope": true, "dark": true, "building": true, "neighborhood": true,
}

// cutWords end a place, employer or role value: "Paris with my wife".
var cutWords = map[string]bool{
	"with": true, "since": true, "because": true, "but": true, "where": true,
	"which": true, "who": true, "when": true, "so": true, "while": true, "though": true,
	"although": true, "until": true, "till": true, "btw": true, "thanks": true, "please": true,
	"now": true, "currently": true, "nowadays": true, "recently": true, "today": true,
	"yesterday": true, "lately": true, "again": true, "anymore": true,
	// texting: "berlin w my gf", "shrimp fyi", "lisbon rn"
	"w": true, "w/": true, "fyi": true, "tbh": true, "rn": true, "lol": true, "haha": true, "imo": true,
	"ngl": true, "omg": true,
}

// employerStops may not open an employer: "I work at home", "I work for myself".
var employerStops = map[string]bool{
	"home": true, "night": true, "nights": true, "weekends": true, "a": true, "an": true,
	"myself": true, "me": true, "free": true, "noon": true, "my": true, "his": true,
	"her": true, "their": true, "it": true, "this": true, "that": true, "least": true,
	"all": true, "times": true, "once": true, "fun": true, "money": true, "food": true,
	"nothing": true, "peace": true, "midnight": true, "dawn": true, "present": true,
	"hard": true, "best": true, "first": true, "last": true, "some": true, "any": true,
	"several": true, "many": true, "two": true, "three": true, "different": true,
	"various": true, "whoever": true, "whatever": true, "you": true, "your": true,
	"someone": true, "somebody": true, "anyone": true, "people": true,
	"lunch": true, "work": true,
	"weekend": true, "school": true, "college": true, "university": true,
}

// roleStops may not open a role.
var roleStops = map[string]bool{
	"to": true, "not": true, "my": true, "his": true, "her": true, "their": true,
	"it": true, "this": true, "that": true, "boring": true, "fun": true, "hard": true,
	"easy": true, "great": true, "good": true, "bad": true, "stressful": true,
	"tiring": true, "awesome": true, "amazing": true, "terrible": true, "okay": true,
	"ok": true, "fine": true, "interesting": true, "demanding": true, "exhausting": true,
	"done": true, "over": true, "gone": true, "remote": true, "safe": true, "secure": true,
	"important": true, "busy": true, "crazy": true, "hectic": true, "difficult": true,
}

// occupations are head nouns that make "I'm a ..." a role.
var occupations = map[string]bool{
	"engineer": true, "developer": true, "programmer": true, "teacher": true, "nurse": true,
	"doctor": true, "physician": true, "surgeon": true, "dentist": true, "lawyer": true,
	"attorney": true, "designer": true, "manager": true, "scientist": true, "accountant": true,
	"architect": true, "analyst": true, "consultant": true, "writer": true, "journalist": true,
	"editor": true, "artist": true, "musician": true, "chef": true, "cook": true, "pilot": true,
	"firefighter": true, "officer": true, "pharmacist": true, "therapist": true,
	"psychologist": true, "professor": true, "lecturer": true, "researcher": true,
	"student": true, "intern": true, "director": true, "executive": true, "ceo": true,
	"cto": true, "cfo": true, "founder": true, "cofounder": true, "co-founder": true,
	"administrator": true, "admin": true, "technician": true, "mechanic": true,
	"electrician": true, "plumber": true, "carpenter": true, "farmer": true, "librarian": true,
	"photographer": true, "translator": true, "paralegal": true, "veterinarian": true,
	"vet": true, "economist": true, "banker": true, "salesperson": true, "recruiter": true,
	"specialist": true, "coordinator": true, "assistant": true, "secretary": true,
	"clerk": true, "cashier": true, "barista": true, "bartender": true, "waiter": true,
	"waitress": true, "driver": true, "paramedic": true, "midwife": true, "tutor": true,
	"coach": true, "trainer": true, "biologist": true, "chemist": true, "physicist": true,
	"mathematician": true, "statistician": true, "actuary": true, "auditor": true,
	"marketer": true, "strategist": true, "producer": true, "actor": true, "actress": true,
	"dancer": true, "singer": true, "composer": true, "illustrator": true, "animator": true,
	"sre": true, "devops": true, "freelancer": true, "contractor": true, "entrepreneur": true,
	"professional": true, "lead": true, "supervisor": true, "instructor": true, "principal": true,
	"optometrist": true, "radiologist": true, "anesthesiologist": true, "pediatrician": true,
	"psychiatrist": true, "counselor": true, "counsellor": true, "caregiver": true,
	"hairdresser": true, "barber": true, "tailor": true, "baker": true, "butcher": true,
	"soldier": true, "policeman": true, "policewoman": true, "detective": true, "judge": true,
	"diplomat": true, "politician": true, "pastor": true, "priest": true, "rabbi": true,
	"imam": true, "geologist": true, "astronomer": true, "archaeologist": true,
	"welder": true, "machinist": true, "operator": true, "dispatcher": true, "planner": true,
	"surveyor": true, "inspector": true, "investigator": true, "agent": true, "broker": true,
	"advisor": true, "adviser": true, "representative": true, "rep": true, "buyer": true,
	"owner": true, "president": true, "vp": true, "partner": true, "associate": true,
}

// demonyms and selfWords describe a person rather than name them: "I'm French", "I'm
// Vegan".
var demonyms = map[string]bool{
	"american": true, "british": true, "english": true, "french": true, "german": true,
	"italian": true, "spanish": true, "portuguese": true, "dutch": true, "belgian": true,
	"swiss": true, "austrian": true, "irish": true, "scottish": true, "welsh": true,
	"canadian": true, "mexican": true, "brazilian": true, "argentinian": true,
	"chilean": true, "colombian": true, "peruvian": true, "cuban": true, "chinese": true,
	"japanese": true, "korean": true, "indian": true, "pakistani": true, "bangladeshi": true,
	"vietnamese": true, "thai": true, "filipino": true, "indonesian": true, "malaysian": true,
	"australian": true, "kiwi": true, "russian": true, "ukrainian": true, "polish": true,
	"czech": true, "slovak": true, "hungarian": true, "romanian": true, "bulgarian": true,
	"greek": true, "turkish": true, "israeli": true, "iranian": true, "iraqi": true,
	"egyptian": true, "moroccan": true, "nigerian": true, "kenyan": true, "ghanaian": true,
	"ethiopian": true, "african": true, "european": true, "asian": true, "latino": true,
	"latina": true, "swedish": true, "norwegian": true, "danish": true, "finnish": true,
	"icelandic": true, "arab": true, "jewish": true, "christian": true, "muslim": true,
	"hindu": true, "buddhist": true, "catholic": true, "protestant": true, "atheist": true,
	"mormon": true, "texan": true, "californian": true,
}

var selfWords = map[string]bool{
	"ok": true, "okay": true, "alright": true, "done": true, "home": true, "new": true,
	"bored": true, "hungry": true, "busy": true, "free": true, "late": true, "sick": true,
	"ill": true, "excited": true, "confused": true, "lost": true, "curious": true,
	"interested": true, "married": true, "single": true, "divorced": true, "pregnant": true,
	"retired": true, "vegan": true, "vegetarian": true, "gay": true, "straight": true,
	"back": true, "in": true, "out": true, "off": true, "on": true, "sorry": true,
	"glad": true, "thrilled": true, "stressed": true, "worried": true, "ready": true,
	"awake": true, "asleep": true, "alive": true, "right": true, "wrong": true, "serious": true,
	"kidding": true, "joking": true, "afraid": true, "scared": true, "angry": true, "upset": true,
	"well": true, "better": true, "cold": true, "hot": true, "warm": true,
	"human": true, "male": true, "female": true, "old": true, "young": true, "tall": true,
	"short": true, "broke": true, "rich": true, "poor": true,
}

// workAdverbs may come between "I work" and "at/for": "I work remotely for Acme".
var workAdverbs = map[string]bool{
	"just": true, "remotely": true, "full-time": true, "part-time": true, "fulltime": true,
	"parttime": true, "freelance": true, "mostly": true, "mainly": true,
	"primarily": true, "professionally": true, "happily": true,
}

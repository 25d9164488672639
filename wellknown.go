package factbase

// The well-known fact keys: the keys the product itself reads and writes. The router
// writes the user's own basics from Say, the personal-fact extractor (package people)
// writes facts about the user and the people they mention, and the engine's replies,
// recall and cardinality declarations name them. Any other key is the caller's own.

// The keys of the user's own basic facts, each single-valued: the router writes them
// from Say ("My email is ...", "I live in Oslo", "I'm a nurse at St. Mary's"). The
// personal-fact extractor writes KeyEmail, KeyPhone, KeyCity, KeyEmployer and KeyRole
// about anyone.
const (
	KeyName         = "person.name"
	KeyUserBirthday = "person.birthday" // the user's own birthday, as the router writes it
	KeyEmail        = "contact.email"
	KeyWorkEmail    = "contact.work_email"
	KeyPhone        = "contact.phone"
	KeyWorkPhone    = "contact.work_phone"
	KeyCity         = "home.city"
	KeyEmployer     = "work.employer"
	KeyRole         = "work.role"
)

// The keys of who a person is, as the personal-fact extractor writes them.
const (
	KeyRelation    = "relation" // "son", "wife", "son's friend"
	KeyAge         = "age"
	KeyBirthday    = "birthday" // a person's birthday; the router writes the user's as KeyUserBirthday
	KeyAnniversary = "anniversary"
	KeyOrigin      = "home.origin"        // where a person is from
	KeySpeaks      = "languages"          // the languages a person speaks (a set)
	KeyLearning    = "languages.learning" // the languages a person is learning (a set)
	KeyBreed       = "breed"              // a pet's breed ("golden retriever")
)

// The keys of what a person does: school, vehicles and hobbies. A school, grade and
// field of study are single-valued; vehicles and hobbies are sets.
const (
	KeySchool  = "education.school" // "Oak Hill Elementary", "MIT"
	KeyGrade   = "education.grade"  // "first grade", "year 3", "senior"
	KeyField   = "education.field"  // what a person studies: "law"
	KeyVehicle = "vehicle"          // make and model, no colour: "Toyota Corolla"
	KeyHobby   = "hobby"
)

// The keys of health and diet. Allergies, foods avoided, conditions and medications
// are sets; a diet is single-valued.
const (
	KeyAllergy    = "allergy"
	KeyDiet       = "diet"
	KeyAvoid      = "diet.avoid"
	KeyCondition  = "health.condition"
	KeyMedication = "medical.medication"
)

// The keys of tastes, each a set.
const (
	KeyLikes    = "likes"
	KeyDislikes = "dislikes"
	KeyFears    = "fears"
	KeyPrefers  = "prefers" // a comparison as said: "tea over coffee"
)

// The keys of what happens when, each a set of facts with a time anchor: recurring
// activities, one-off plans and trips.
const (
	KeySchedule = "schedule"
	KeyPlan     = "plan"
	KeyTravel   = "travel"
)

// CommPrefix starts the keys of the user's communication preferences: how the
// assistant should answer. Only the user has them.
const CommPrefix = "comm."

// The keys of communication preferences, each single-valued.
const (
	KeyLanguage = "comm.language" // the language to answer in
	KeyLength   = "comm.length"
	KeyFormat   = "comm.format"
	KeyTone     = "comm.tone"
	KeyEmoji    = "comm.emoji"
	KeyUnits    = "comm.units"
)

// FavoritesPrefix starts the keys of the user's ranked preference lists:
// favorites.movie, favorites.vacation_destinations. DefaultCardinalities declares
// them Ranked.
const FavoritesPrefix = "favorites."

// LeastFavoritePrefix starts the keys of the user's least favorites, one value
// each: least_favorite.vegetable is "okra". They are not lists.
const LeastFavoritePrefix = "least_favorite."

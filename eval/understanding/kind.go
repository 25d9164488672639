package understanding

import "strings"

// animals are the relations that make an entity a pet.
var animals = set("dog", "cat", "puppy", "kitten", "hamster", "rabbit", "bunny", "parrot", "horse",
	"pony", "goldfish", "fish", "pig", "beagle", "boxer", "bird", "budgie", "turtle", "tortoise",
	"lizard", "snake", "gecko", "ferret", "chicken", "hen", "cow", "goat")

// Kind is the fact kind a key belongs to, as the report groups facts. value matters
// only for relations: a pet's relation ("dog", "Gus's dog") is of kind pets.
func Kind(key, value string) string {
	switch {
	case key == "relation":
		v := strings.Fields(strings.ToLower(value))
		if len(v) > 0 && animals[v[len(v)-1]] {
			return "pets"
		}
		return "relation"
	case key == "breed":
		return "pets"
	case key == "person.name":
		return "name"
	case key == "age":
		return "age"
	case key == "birthday" || key == "person.birthday" || key == "anniversary":
		return "birthday"
	case key == "allergy":
		return "allergy"
	case key == "diet" || strings.HasPrefix(key, "diet."):
		return "diet"
	case key == "vehicle" || strings.HasPrefix(key, "vehicle."):
		return "vehicle"
	case key == "languages" || strings.HasPrefix(key, "languages."):
		return "languages"
	case key == "likes" || key == "dislikes" || key == "fears" || key == "prefers":
		return "tastes"
	case key == "hobby":
		return "hobby"
	case key == "schedule":
		return "schedule"
	case key == "plan" || key == "travel":
		return "plans"
	case strings.HasPrefix(key, "favorites.") || strings.HasPrefix(key, "least_favorite."):
		return "favorites"
	}
	family, _, _ := strings.Cut(key, ".")
	switch family {
	case "contact", "home", "work", "education", "comm":
		return family
	case "health", "medical":
		return "health"
	}
	return "other"
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

package storetest

// Fixtures of the tests that drive an engine over a store, shared so that the engine's
// integration tests (package memory) and the binary's end-to-end tests
// (cmd/factbase) check the same data.

// Episodes returns twenty episodes of a user: two hold the answers the search tests
// look for ("Martin is vegetarian", "The user is allergic to peanuts"), the others
// are the kind of thing a user tells an assistant.
func Episodes() []string {
	return []string{
		"Martin is vegetarian",
		"The user is allergic to peanuts",
		"Booked flights to Lisbon for the conference in May",
		"The quarterly report is due on Friday; finance wants the revenue numbers",
		"Dentist appointment moved to next Tuesday at 3pm",
		"Sarah started a new job at the hospital as a nurse",
		"The car needs new tyres before the winter",
		"We adopted a cat called Miso from the shelter",
		"Started learning Spanish with an app every morning",
		"The team agreed to ship the mobile release next sprint",
		"Grandma's birthday party is at the lake house on Saturday",
		"Running 5 km three times a week to train for the half marathon",
		"The kitchen sink is leaking again; call the plumber",
		"Reading a novel about the history of the Roman empire",
		"Martin's daughter plays violin in the school orchestra",
		"Paid the electricity bill and the internet bill",
		"The project deadline was pushed back by two weeks",
		"Bought a new laptop with 32 GB of memory for video editing",
		"Planning a hiking trip in the mountains with old friends",
		"The neighbours are renovating their house, it is noisy in the mornings",
	}
}

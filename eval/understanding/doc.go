// Package understanding measures how well Factbase understands everyday messages: a
// corpus of user messages, each with the exact facts that must (and must not) be
// stored, run through the engine's Say (package memory/chat) on a fresh user each,
// and scored per fact kind (precision, recall), with a count of garbage values among
// everything stored.
//
// It is the measuring instrument of issue #23 ("Remember what was said, only what was
// said"); the corpus is in testdata, the harness is TestUnderstanding, and README.md
// records the figures. The package is pure apart from Run, which drives an engine.
package understanding

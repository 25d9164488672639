// Package answers measures how well Factbase answers questions about what it
// stores: a corpus of scenarios (messages said to a fresh user, episodes and ops, at
// fixed times) and of questions asked over them, each with the answer items it must
// give, an expected yes or no, a count, or that it must say it does not know. The
// questions go through the engine's ask entry point and are scored per question kind
// (accuracy), with abstention accuracy and a count of invented answers.
//
// It is the measuring instrument of issue #24 ("Answer any question about the user");
// the corpus is in testdata, the harness is TestAnswers, and README.md records the
// figures. The package is pure apart from Run, which drives an engine, and Ask, the one
// adapter from the engine's answer to what is scored.
package answers

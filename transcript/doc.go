// Package transcript reads coding-agent session logs (JSONL, one JSON message per
// line, such as Claude Code's ~/.claude/projects/*/*.jsonl) and turns their messages
// into facts. It is pure: it stores nothing, and the engine stores what it returns.
//
// # Reading
//
// A Reader streams a file one line at a time (a line of up to Options.MaxLineSize,
// 64 MiB by default, is held in memory; the file never is). Next returns every line
// as a Message, whatever its type; a line it cannot use is returned as a *Malformed
// error naming the file and line, and reading goes on with the next line. The last
// line of a file that has no newline yet is reported as Incomplete and not
// consumed, even when it is valid JSON (an agent may be mid-write), unless
// Options.AcceptUnterminated says the file is finished.
//
// Offset and Sum (a running SHA-256 of the consumed bytes, from the start of the
// file) make a Checkpoint. An ingester stores it and later calls Resume, which
// re-hashes that prefix: if it is unchanged the new Reader continues after it, so a
// grown file yields only its new lines; if the file was rewritten or truncated it
// starts over from the beginning.
//
// # Facts
//
// An Extractor turns each Message into Facts (subject, predicate, object,
// confidence, and the file, line, uuid, session and time they came from):
//
//   - structural facts, confidence 1.0: a user's request is a task "task_<uuid>"
//     with task_text (its first 200 characters) and in_session; an assistant
//     message is an action "action_<uuid>" with part_of_task, used_tool and, for
//     shell tools, executed_command (the command in full; ExtractorOptions.Redact
//     masks passwords, off by default);
//   - pattern facts from Rules: connects_to_host 0.9 (the hosts a shell command
//     connects to: ssh targets, URL hosts, -h/--host of database clients),
//     operation_type 0.8, mentions_path 0.8, targets_system 0.7,
//     provides_solution 0.7, identifies_issue 0.7 and discovery 0.6 in the
//     built-in set.
//
// Pattern rules scan at most the first ExtractorOptions.ScanLimit bytes (64 KiB) of
// each text, so a multi-megabyte tool result costs little more than a small one.
//
// # Rules files
//
// The built-in rules are the embedded file rules.json (BuiltinRulesJSON), a JSON
// list in the format users write. Each entry has a predicate and a confidence
// (0..1), a pattern (an RE2 regular expression), keywords or a built-in parser
// (ssh_targets, url_hosts, host_options), and optionally a name,
// applies_to (command, user_text, assistant_text, text, thinking, tool_result,
// input, any), object ("match", "group:N", "snippet" or a fixed string), when,
// unless, stop, limit, disabled and description; see Rule. For example:
//
//	[
//	  {"name": "wireguard-up", "predicate": "uses_vpn", "confidence": 0.85,
//	   "applies_to": "command", "pattern": "\\bwg-quick\\s+up\\s+(\\S+)", "object": "group:1"},
//	  {"name": "discovery-words", "predicate": "discovery", "disabled": true}
//	]
//
// LoadRules reads such a file and refuses a bad one with a *RulesError that names
// the line, the rule and the reason. DefaultRules().Merge(loaded) gives the
// built-in rules with the file's added, and those with the same predicate and name
// replaced (or disabled).
//
// Sessions accumulates per-session metadata (working directory, branch, time range,
// counts, summary) from the same messages.
package transcript

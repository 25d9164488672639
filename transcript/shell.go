package transcript

import "strings"

// shellCommands splits a shell command line into its simple commands, each the
// list of its words with quotes and escapes removed. Commands end at newlines and
// at ; & | ( ) and backquotes, so that pipelines, lists, subshells and command
// substitutions each count as commands. Redirections and their targets, comments
// and here-document bodies are dropped. It is a reader for finding what a command
// runs, not a shell: expansions are left as written.
func shellCommands(s string) [][]string {
	var (
		cmds      [][]string
		words     []string
		word      strings.Builder
		inWord    bool
		skipNext  bool     // the next word is a redirection target
		heredocs  []string // delimiters of here-documents whose bodies start at the next line
		wantDelim bool     // the next word is a here-document delimiter
	)
	endWord := func() {
		if !inWord {
			return
		}
		w := word.String()
		word.Reset()
		inWord = false
		switch {
		case wantDelim:
			wantDelim = false
			heredocs = append(heredocs, strings.TrimPrefix(w, "-"))
		case skipNext:
			skipNext = false
		default:
			words = append(words, w)
		}
	}
	endCommand := func() {
		endWord()
		if len(words) > 0 {
			cmds = append(cmds, words)
		}
		words = nil
		skipNext = false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t', '\r':
			endWord()
		case '\n':
			endCommand()
			// Skip the bodies of here-documents started on this line.
			for _, d := range heredocs {
				for i+1 < len(s) {
					end := strings.IndexByte(s[i+1:], '\n')
					line := s[i+1:]
					if end >= 0 {
						line = s[i+1 : i+1+end]
					}
					if end < 0 {
						i = len(s)
					} else {
						i += 1 + end
					}
					if strings.TrimLeft(line, "\t") == d {
						break
					}
				}
			}
			heredocs = heredocs[:0]
		case ';', '&', '|', '(', ')', '`':
			endCommand()
		case '<', '>':
			if inWord && isDigits(word.String()) { // 2>&1: the 2 is part of the redirection
				word.Reset()
				inWord = false
			}
			endWord()
			if c == '<' && strings.HasPrefix(s[i:], "<<") && !strings.HasPrefix(s[i:], "<<<") {
				i++
				wantDelim = true
				continue
			}
			for i+1 < len(s) && (s[i+1] == '<' || s[i+1] == '>' || s[i+1] == '&' || s[i+1] == '|') {
				i++
			}
			skipNext = true
		case '#':
			if inWord {
				word.WriteByte(c)
				continue
			}
			for i+1 < len(s) && s[i+1] != '\n' {
				i++
			}
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					word.WriteByte(s[i])
					inWord = true
				}
			}
		case '\'':
			inWord = true
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				word.WriteString(s[i+1:])
				i = len(s)
			} else {
				word.WriteString(s[i+1 : i+1+end])
				i += 1 + end
			}
		case '"':
			inWord = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`\n", s[i+1]) >= 0 {
					i++
					if s[i] == '\n' {
						continue
					}
				}
				word.WriteByte(s[i])
			}
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	endCommand()
	return cmds
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

package transcript

import (
	"net/netip"
	"path"
	"strings"
)

// The built-in parsers a rule can name instead of a pattern or keywords
// (Rule.Parser). Each reads a shell command and returns the hosts it connects to,
// one form each, so that a fact's extractor tells which form was read.
const (
	// ParserSSHTargets finds the destinations of ssh, scp, sftp, rsync, mosh and
	// ssh-copy-id (also behind sudo, sshpass, timeout, env, sh -c ...): ssh's
	// destination and -J jump hosts, the host of scp and rsync's host:path and
	// host::module operands, and their ssh://, sftp:// and rsync:// URLs.
	ParserSSHTargets = "ssh_targets"
	// ParserURLHosts finds the hosts of the scheme://host URLs given to programs
	// that fetch or connect to them: curl, wget, httpie, xh, aria2c, and database
	// clients (psql, mysql, redis-cli, mongosh ...).
	ParserURLHosts = "url_hosts"
	// ParserHostOptions finds the -h/--host option values of database clients
	// (psql and the PostgreSQL tools, mysql and MariaDB tools, redis-cli,
	// clickhouse-client; mongo tools --host only, as their -h is help).
	ParserHostOptions = "host_options"
)

var parsers = map[string]func(string) []string{
	ParserSSHTargets:  func(s string) []string { return commandHosts(s, sshTargets) },
	ParserURLHosts:    func(s string) []string { return commandHosts(s, urlHosts) },
	ParserHostOptions: func(s string) []string { return commandHosts(s, hostOptions) },
}

// maxShellDepth bounds how deep sh -c, eval and ssh's remote commands are read.
const maxShellDepth = 4

// commandHosts splits the shell command line s into simple commands and applies
// find to each, with its wrappers (sudo, env, timeout, sshpass ...) removed; sh -c
// and eval strings are read as commands too. Hosts are returned once each, in
// order.
func commandHosts(s string, find func(prog string, args []string, add func(string), again func(string))) []string {
	var out []string
	seen := map[string]bool{}
	add := func(h string) {
		if h = hostOf(h); h != "" && !seen[h] {
			seen[h] = true
			out = append(out, h)
		}
	}
	var walk func(s string, depth int)
	walk = func(s string, depth int) {
		if depth > maxShellDepth {
			return
		}
		again := func(sub string) { walk(sub, depth+1) }
		for _, words := range shellCommands(s) {
			words = unwrap(words)
			if len(words) == 0 {
				continue
			}
			prog := path.Base(words[0])
			switch prog {
			case "sh", "bash", "zsh", "dash", "ksh":
				for i := 1; i+1 < len(words); i++ {
					if strings.HasPrefix(words[i], "-") && strings.Contains(words[i], "c") && !strings.HasPrefix(words[i], "--") {
						again(words[i+1])
						break
					}
				}
				continue
			case "eval":
				again(strings.Join(words[1:], " "))
				continue
			}
			find(prog, words[1:], add, again)
		}
	}
	walk(s, 0)
	return out
}

// unwrap drops leading assignments (X=1), shell keywords (do, then, !) and
// wrapper commands with their options (sudo -u x, env, timeout 10, nice -n 5,
// sshpass -p pw, watch -n 2 ...), returning the command they run.
func unwrap(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		if isAssignment(w) {
			words = words[1:]
			continue
		}
		var valued string // the wrapper's options that take a value
		switch path.Base(w) {
		case "do", "then", "else", "elif", "if", "while", "until", "!", "{", "time", "nohup", "exec", "command", "builtin", "stdbuf", "ionice", "chronic":
		case "sudo":
			valued = "ugpCDrtUhR"
		case "doas":
			valued = "uC"
		case "env":
			valued = "uCS"
		case "nice":
			valued = "n"
		case "timeout":
			valued = "sk"
		case "watch":
			valued = "nd"
		case "sshpass":
			valued = "pfdP"
		default:
			return words
		}
		words = words[1:]
		for len(words) > 0 {
			o := words[0]
			switch {
			case o == "--":
				words = words[1:]
			case strings.HasPrefix(o, "--"):
				words = words[1:]
				continue
			case len(o) > 1 && o[0] == '-':
				words = words[1:]
				if len(o) == 2 && strings.IndexByte(valued, o[1]) >= 0 && len(words) > 0 {
					words = words[1:]
				}
				continue
			case isAssignment(o):
				words = words[1:]
				continue
			case path.Base(w) == "timeout" && o != "" && o[0] >= '0' && o[0] <= '9':
				words = words[1:] // the duration
			}
			break
		}
	}
	return words
}

func isAssignment(w string) bool {
	i := strings.IndexByte(w, '=')
	if i <= 0 {
		return false
	}
	for j := 0; j < i; j++ {
		c := w[j]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || j > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// options describes a program's options: the short letters that take a value and
// the long ones that take the next word when not written with "=".
type options struct {
	short string
	long  []string
}

// operands returns the words of args that are not options or option values; "--"
// ends the options.
func (o options) operands(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i+1:]...)
		case strings.HasPrefix(a, "--"):
			name, _, hasValue := strings.Cut(a[2:], "=")
			for _, l := range o.long {
				if l == name && !hasValue {
					i++
					break
				}
			}
		case len(a) > 1 && a[0] == '-':
			// A cluster like -vvp: a letter that takes a value takes the rest of
			// the word or, if it ends the word, the next one.
			for j := 1; j < len(a); j++ {
				if strings.IndexByte(o.short, a[j]) >= 0 {
					if j == len(a)-1 {
						i++
					}
					break
				}
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// optionValues returns the values of the short option letter in args (-J x, -Jx).
func (o options) optionValues(args []string, letter byte) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		if len(a) < 2 || a[0] != '-' || a[1] == '-' {
			continue
		}
		for j := 1; j < len(a); j++ {
			if strings.IndexByte(o.short, a[j]) < 0 {
				continue
			}
			v := a[j+1:]
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if a[j] == letter {
				out = append(out, v)
			}
			break
		}
	}
	return out
}

var (
	sshOpts     = options{short: "BbcDEeFIiJLlmOoPpQRSWw"}
	scpOpts     = options{short: "cDFiJlOoPSX"}
	sftpOpts    = options{short: "BbcDFiJlOoPRSs"}
	sshCopyOpts = options{short: "iopFt"}
	moshOpts    = options{short: "p", long: []string{"ssh", "port", "predict", "family", "server", "client", "bind-server", "experimental-remote-ip"}}
	rsyncOpts   = options{short: "efTBM@", long: []string{"rsh", "rsync-path", "exclude", "include", "filter",
		"exclude-from", "include-from", "files-from", "chown", "chmod", "usermap", "groupmap", "log-file",
		"log-file-format", "out-format", "temp-dir", "partial-dir", "link-dest", "compare-dest", "copy-dest",
		"backup-dir", "suffix", "password-file", "port", "bwlimit", "timeout", "contimeout", "max-size",
		"min-size", "max-delete", "block-size", "checksum-choice", "compress-choice", "compress-level",
		"skip-compress", "address", "sockopts", "outbuf", "iconv", "modify-window", "write-batch",
		"read-batch", "only-write-batch", "protocol", "info", "debug", "stop-after", "stop-at", "remote-option"}}
)

// sshTargets finds the hosts of ssh-family commands; ssh's remote command is read
// again as a command line (a jump host's ssh).
func sshTargets(prog string, args []string, add func(string), again func(string)) {
	switch prog {
	case "ssh", "autossh":
		for _, j := range sshOpts.optionValues(args, 'J') {
			for _, h := range strings.Split(j, ",") {
				add(destination(h))
			}
		}
		ops := sshOpts.operands(args)
		if len(ops) == 0 {
			return
		}
		add(destination(ops[0]))
		if len(ops) > 1 {
			again(strings.Join(ops[1:], " "))
		}
	case "sftp", "ssh-copy-id", "mosh":
		o := map[string]options{"sftp": sftpOpts, "ssh-copy-id": sshCopyOpts, "mosh": moshOpts}[prog]
		if ops := o.operands(args); len(ops) > 0 {
			d := destination(ops[0])
			if prog == "sftp" {
				d, _, _ = strings.Cut(d, ":") // sftp host:path
			}
			add(d)
		}
	case "scp":
		for _, j := range scpOpts.optionValues(args, 'J') {
			for _, h := range strings.Split(j, ",") {
				add(destination(h))
			}
		}
		for _, op := range scpOpts.operands(args) {
			add(remoteHost(op))
		}
	case "rsync":
		for _, op := range rsyncOpts.operands(args) {
			add(remoteHost(op))
		}
	}
}

// destination returns the host of an ssh destination: [user@]host, or
// ssh://[user@]host[:port].
func destination(d string) string {
	if h, ok := urlHost(d); ok {
		return h
	}
	if i := strings.LastIndexByte(d, '@'); i >= 0 {
		d = d[i+1:]
	}
	return d
}

// remoteHost returns the host of an scp or rsync operand that names a remote
// file: [user@]host:path, host::module, or a scp://, sftp:// or rsync:// URL; ""
// for a local path (one with a slash before its first colon, as scp reads it).
func remoteHost(op string) string {
	if h, ok := urlHost(op); ok {
		return h
	}
	var host string
	if strings.HasPrefix(op, "[") { // [v6]:path
		end := strings.IndexByte(op, ']')
		if end < 0 || end+1 >= len(op) || op[end+1] != ':' {
			return ""
		}
		host = op[:end+1]
	} else {
		i := strings.IndexByte(op, ':')
		if i <= 0 || strings.ContainsRune(op[:i], '/') {
			return ""
		}
		host = op[:i]
	}
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:]
	}
	return host
}

// urlHost returns the host of scheme://[userinfo@]host[:port][/...] and whether s
// is such a URL.
func urlHost(s string) (string, bool) {
	i := strings.Index(s, "://")
	if i <= 0 {
		return "", false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || j > 0 && (c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-')) {
			return "", false
		}
	}
	rest := s[i+3:]
	if k := strings.IndexAny(rest, "/?#"); k >= 0 {
		rest = rest[:k]
	}
	if k := strings.LastIndexByte(rest, '@'); k >= 0 {
		rest = rest[k+1:]
	}
	if strings.HasPrefix(rest, "[") {
		if k := strings.IndexByte(rest, ']'); k >= 0 {
			return rest[:k+1], true
		}
		return "", true
	}
	if k := strings.IndexByte(rest, ','); k >= 0 { // mongodb://a,b/ lists hosts
		rest = rest[:k]
	}
	h, _, _ := strings.Cut(rest, ":")
	return h, true
}

// urlPrograms are the programs whose URL arguments they connect to; the value
// lists the options whose value is not such a URL (a referer, a header, data).
var urlPrograms = map[string]options{
	"curl": {short: "eHdAbcoFuTKwXY", long: []string{"referer", "header", "data", "data-raw", "data-binary", "data-urlencode", "user-agent", "output", "form", "json", "cookie", "cookie-jar", "write-out", "request"}},
	"wget": {short: "OoaPUeiB", long: []string{"referer", "header", "user-agent", "output-document", "post-data", "base"}},
	"http": {}, "https": {}, "xh": {}, "xhs": {}, "aria2c": {},
	"websocat": {}, "wscat": {},
	"psql": {}, "pg_dump": {}, "pg_dumpall": {}, "pg_restore": {}, "pg_isready": {}, "pg_basebackup": {},
	"mysql": {}, "mysqldump": {}, "mariadb": {}, "mysqlsh": {},
	"redis-cli": {}, "valkey-cli": {},
	"mongo": {}, "mongosh": {}, "mongodump": {}, "mongorestore": {}, "mongoexport": {}, "mongoimport": {},
	"clickhouse-client": {},
}

// urlHosts finds the hosts of the URLs given to the programs of urlPrograms.
func urlHosts(prog string, args []string, add func(string), _ func(string)) {
	o, ok := urlPrograms[prog]
	if !ok {
		return
	}
	for _, a := range o.operands(args) {
		if h, ok := urlHost(a); ok {
			add(h)
		}
	}
	for i, a := range args { // --url URL, --url=URL
		if a == "--url" && i+1 < len(args) {
			if h, ok := urlHost(args[i+1]); ok {
				add(h)
			}
		} else if v, ok := strings.CutPrefix(a, "--url="); ok {
			if h, ok := urlHost(v); ok {
				add(h)
			}
		}
	}
}

// hostOptionPrograms are the programs whose -h or --host option names the server;
// false for those where only --host does (-h is help).
var hostOptionPrograms = map[string]bool{
	"psql": true, "pg_dump": true, "pg_dumpall": true, "pg_restore": true, "pg_isready": true,
	"pg_basebackup": true, "createdb": true, "dropdb": true, "vacuumdb": true, "reindexdb": true,
	"clusterdb": true, "createuser": true, "dropuser": true, "pgbench": true,
	"mysql": true, "mysqldump": true, "mysqladmin": true, "mysqlimport": true, "mysqlshow": true,
	"mysqlcheck": true, "mariadb": true, "mariadb-dump": true, "mariadb-admin": true,
	"redis-cli": true, "valkey-cli": true, "clickhouse-client": true,
	"mongo": false, "mongosh": false, "mongodump": false, "mongorestore": false,
	"mongoexport": false, "mongoimport": false,
}

// hostOptions finds -h HOST, -hHOST, --host HOST and --host=HOST of the programs
// of hostOptionPrograms.
func hostOptions(prog string, args []string, add func(string), _ func(string)) {
	short, ok := hostOptionPrograms[prog]
	if !ok {
		return
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		var v string
		switch {
		case a == "--":
			return
		case a == "--host" || short && a == "-h":
			if i+1 < len(args) {
				i++
				v = args[i]
			}
		case strings.HasPrefix(a, "--host="):
			v = a[len("--host="):]
		case short && strings.HasPrefix(a, "-h") && len(a) > 2:
			v = a[2:]
		default:
			continue
		}
		if strings.HasPrefix(v, "-") {
			continue // -h followed by another option: no host
		}
		if h, ok := urlHost(v); ok { // mongosh --host mongodb://...
			v = h
		}
		if k := strings.IndexByte(v, '/'); k > 0 && strings.HasPrefix(prog, "mongo") { // --host rs0/a:27017,b:27017
			v = v[k+1:]
		}
		v, _, _ = strings.Cut(v, ",")
		if !strings.HasPrefix(v, "[") {
			v, _, _ = strings.Cut(v, ":")
		}
		add(v)
	}
}

// hostOf returns h as a host name or address, or "" if it is not one: an empty
// string, a shell variable or placeholder ($HOST, <host>, {}), a path, a number.
// A [v6] address loses its brackets; a trailing dot is dropped.
func hostOf(h string) string {
	if strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") {
		if a, err := netip.ParseAddr(h[1 : len(h)-1]); err == nil {
			return a.String()
		}
		return ""
	}
	h = strings.TrimSuffix(h, ".")
	if h == "" || len(h) > 253 {
		return ""
	}
	if a, err := netip.ParseAddr(h); err == nil {
		return a.String()
	}
	letter := false
	for _, label := range strings.Split(h, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return ""
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			switch {
			case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
				letter = true
			case c >= '0' && c <= '9' || c == '-':
			default:
				return ""
			}
		}
	}
	if !letter {
		return "" // 10.0.0 or 12345: not an address, not a name
	}
	return h
}

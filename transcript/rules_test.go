package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

func TestBuiltinRulesLoad(t *testing.T) {
	rs, err := parseRules(builtinRules, "rules.json")
	if err != nil {
		t.Fatalf("the embedded rules.json does not load: %v", err)
	}
	want := map[string]float64{
		"connects_to_host": 0.9, "operation_type": 0.8, "mentions_path": 0.8, "targets_system": 0.7,
		"provides_solution": 0.7, "identifies_issue": 0.7, "discovery": 0.6,
	}
	seen := map[string]bool{}
	for _, r := range rs.List() {
		if c, ok := want[r.Predicate]; !ok || c != r.Confidence {
			t.Errorf("rule %q: predicate %q confidence %v; want one of %v", r.Name, r.Predicate, r.Confidence, want)
		}
		seen[r.Predicate] = true
	}
	if len(seen) != len(want) {
		t.Errorf("built-in predicates %v, want all of %v", seen, want)
	}
	if got, want := rs.Predicates(), []string{"connects_to_host", "discovery", "identifies_issue", "mentions_path", "operation_type", "provides_solution", "targets_system"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Predicates() = %v, want %v", got, want)
	}
	if got, want := len(DefaultRules().List()), len(rs.List()); got != want || got == 0 {
		t.Errorf("DefaultRules has %d rules, want %d", got, want)
	}
	again, err := LoadRules(bytes.NewReader(BuiltinRulesJSON()), "copy.json")
	if err != nil {
		t.Fatalf("LoadRules(BuiltinRulesJSON()): %v", err)
	}
	if !reflect.DeepEqual(again.List(), rs.List()) {
		t.Errorf("BuiltinRulesJSON loads to different rules")
	}
}

// ruleCase is one text scanned by the rules and the facts expected of it.
type ruleCase struct {
	name    string
	kind    string // command, user_text, assistant_text, tool_result, thinking, input
	text    string
	want    []string // "predicate=object" that must be present
	without []string // "predicate=object" or "predicate" that must be absent
}

// factsFor builds a message of the given kind around text and extracts its facts,
// returning the pattern facts as "predicate=object".
func factsFor(t *testing.T, x *Extractor, kind, text string) []string {
	t.Helper()
	var m Message
	q := jsonString(text)
	var line string
	switch kind {
	case "command":
		line = `{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":` + q + `}}]}}`
	case "assistant_text":
		line = `{"type":"assistant","uuid":"a1","message":{"content":[{"type":"text","text":` + q + `}]}}`
	case "thinking":
		line = `{"type":"assistant","uuid":"a1","message":{"content":[{"type":"thinking","thinking":` + q + `}]}}`
	case "input":
		line = `{"type":"assistant","uuid":"a1","message":{"content":[{"type":"tool_use","id":"t1","name":"Read","input":{"file_path":` + q + `}}]}}`
	case "user_text":
		line = `{"type":"user","uuid":"u1","message":{"content":` + q + `}}`
	case "tool_result":
		line = `{"type":"user","uuid":"u1","parentUuid":"a1","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":` + q + `}]}}`
	default:
		t.Fatalf("unknown kind %q", kind)
	}
	r := NewReader(strings.NewReader(line+"\n"), "f", Options{})
	m, err := r.Next()
	if err != nil {
		t.Fatalf("parse %s: %v", line, err)
	}
	var out []string
	for _, f := range x.Extract(m) {
		if f.Rule != RuleStructural {
			out = append(out, f.Predicate+"="+f.Object)
		}
	}
	return out
}

func jsonString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if r < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

func runRuleCases(t *testing.T, x *Extractor, cases []ruleCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := factsFor(t, x, tc.kind, tc.text)
			for _, w := range tc.want {
				if !contains(got, w) {
					t.Errorf("facts of %s %q = %q, want %q", tc.kind, tc.text, got, w)
				}
			}
			for _, w := range tc.without {
				for _, g := range got {
					if g == w || !strings.Contains(w, "=") && strings.HasPrefix(g, w+"=") {
						t.Errorf("facts of %s %q = %q, want no %q", tc.kind, tc.text, got, w)
					}
				}
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestBuiltinRules(t *testing.T) {
	cases := []ruleCase{
		// connects_to_host
		{name: "ssh user@ip", kind: "command", text: "ssh admin@10.0.0.7 uptime", want: []string{"connects_to_host=10.0.0.7"}},
		{name: "ssh user@name", kind: "command", text: "ssh -i ~/.ssh/id_ed25519 deploy@web01.example.com 'sudo systemctl reload nginx'", want: []string{"connects_to_host=web01.example.com", "targets_system=systemd", "targets_system=nginx"}},
		{name: "scp", kind: "command", text: "scp ./backup.sql root@192.168.1.20:/root/", want: []string{"connects_to_host=192.168.1.20"}},
		{name: "rsync two hosts", kind: "command", text: "rsync -avz backup@nas:/data/ root@mirror-2:/data/", want: []string{"connects_to_host=nas", "connects_to_host=mirror-2"}},
		{name: "sshpass", kind: "command", text: "sshpass -p secret ssh pi@raspberrypi.local 'df -h'", want: []string{"connects_to_host=raspberrypi.local"}},
		{name: "user@host without ssh is not a connection", kind: "command", text: "git clone git@github.com:acme/site.git", without: []string{"connects_to_host"}},
		{name: "email is not a connection", kind: "command", text: "echo ops@example.com | mail -s hi", without: []string{"connects_to_host"}},
		{name: "hosts are not read from prose", kind: "assistant_text", text: "Run ssh root@10.0.0.1 to log in.", without: []string{"connects_to_host"}},

		// connects_to_host is the host of a connection only (issue #23): not an @
		// in a config path or an e-mail address, even inside an ssh command.
		{name: "uci config path", kind: "command", text: "uci set firewall.@defaults[0].input=ACCEPT", without: []string{"connects_to_host"}},
		{name: "uci over ssh", kind: "command", text: "ssh root@192.168.1.1 'uci set firewall.@defaults[0].input=ACCEPT && uci commit firewall'", want: []string{"connects_to_host=192.168.1.1"}, without: []string{"connects_to_host=defaults"}},
		{name: "uci list over ssh", kind: "command", text: "ssh root@openwrt \"uci show wireless.@wifi-iface[0]; uci get network.@device[0].name\"", want: []string{"connects_to_host=openwrt"}, without: []string{"connects_to_host=wifi-iface", "connects_to_host=device"}},
		{name: "git email", kind: "command", text: "git config user.email me@x.org", without: []string{"connects_to_host"}},
		{name: "git email over ssh", kind: "command", text: "ssh deploy@ci.example.com \"git config --global user.email me@x.org\"", want: []string{"connects_to_host=ci.example.com"}, without: []string{"connects_to_host=x.org"}},
		{name: "email beside ssh-copy-id", kind: "command", text: "ssh-keygen -t ed25519 -C me@x.org -f ~/.ssh/pi && ssh-copy-id -i ~/.ssh/pi.pub pi@10.0.0.9", want: []string{"connects_to_host=10.0.0.9"}, without: []string{"connects_to_host=x.org"}},
		{name: "ssh root@ip", kind: "command", text: "ssh root@192.168.1.1", want: []string{"connects_to_host=192.168.1.1"}},
		{name: "ssh without a user", kind: "command", text: "ssh -p 2222 -o StrictHostKeyChecking=no nas.lan uptime", want: []string{"connects_to_host=nas.lan"}, without: []string{"connects_to_host=StrictHostKeyChecking"}},
		{name: "ssh jump host", kind: "command", text: "ssh -J admin@bastion.example.com root@10.1.0.5 hostname", want: []string{"connects_to_host=bastion.example.com", "connects_to_host=10.1.0.5"}},
		{name: "ssh URL", kind: "command", text: "ssh ssh://git@git.example.com:2222", want: []string{"connects_to_host=git.example.com"}},
		{name: "ssh in a loop", kind: "command", text: "for h in a b; do ssh root@$h uptime; done", without: []string{"connects_to_host"}},
		{name: "ssh placeholder", kind: "command", text: "ssh user@<host>", without: []string{"connects_to_host"}},
		{name: "ssh inside sh -c", kind: "command", text: "sudo -u backup bash -c 'ssh backup@nas df -h'", want: []string{"connects_to_host=nas"}},
		{name: "ssh inside echo is not run", kind: "command", text: "echo 'ssh root@10.0.0.1' >> notes.txt", without: []string{"connects_to_host"}},
		{name: "scp to a named host", kind: "command", text: "scp f.txt deploy@build.example.com:/tmp", want: []string{"connects_to_host=build.example.com"}},
		{name: "scp local paths", kind: "command", text: "scp ./a:b /tmp/x", without: []string{"connects_to_host"}},
		{name: "rsync to a host", kind: "command", text: "rsync -az ./ u@host:/srv", want: []string{"connects_to_host=host"}},
		{name: "rsync chown is not a host", kind: "command", text: "rsync -a --chown www-data:www-data ./site/ /var/www/", without: []string{"connects_to_host"}},
		{name: "rsync daemon", kind: "command", text: "rsync -av mirror.example.org::debian/ /srv/debian/", want: []string{"connects_to_host=mirror.example.org"}},
		{name: "sftp", kind: "command", text: "sftp -P 2222 backup@nas.lan:/share", want: []string{"connects_to_host=nas.lan"}},
		{name: "mosh", kind: "command", text: "mosh --ssh='ssh -p 2222' me@devbox", want: []string{"connects_to_host=devbox"}},
		{name: "psql -h", kind: "command", text: "psql -h db.internal -U app -c 'select 1'", want: []string{"connects_to_host=db.internal"}},
		{name: "psql socket dir is not a host", kind: "command", text: "psql -h /var/run/postgresql app", without: []string{"connects_to_host"}},
		{name: "mysql --host=", kind: "command", text: "mysql --host=10.0.0.5 -u root -p", want: []string{"connects_to_host=10.0.0.5"}},
		{name: "mysql -hHOST", kind: "command", text: "mysqldump -hdb1.example.com shop > shop.sql", want: []string{"connects_to_host=db1.example.com"}},
		{name: "redis-cli -h", kind: "command", text: "redis-cli -h cache.local -p 6379 ping", want: []string{"connects_to_host=cache.local"}},
		{name: "mongosh --host", kind: "command", text: "mongosh --host mongo1:27017", want: []string{"connects_to_host=mongo1"}},
		{name: "-h of other programs is not a host", kind: "command", text: "df -h /srv && du -sh /var && ls -lh && grep -h x *.log && docker run -h web nginx", without: []string{"connects_to_host"}},
		{name: "--host of a server is not a connection", kind: "command", text: "uvicorn app:app --host 0.0.0.0 --port 8000", without: []string{"connects_to_host"}},
		{name: "curl URL", kind: "command", text: "curl https://api.example.com/v1", want: []string{"connects_to_host=api.example.com"}},
		{name: "curl with options and credentials", kind: "command", text: "curl -sS -X POST -H 'Origin: https://web.example.com' -d @body.json https://admin:pw@10.0.0.8:8443/api", want: []string{"connects_to_host=10.0.0.8"}, without: []string{"connects_to_host=web.example.com", "connects_to_host=body.json"}},
		{name: "wget in a pipe", kind: "command", text: "wget -qO- http://192.168.1.50:8080/status | jq .", want: []string{"connects_to_host=192.168.1.50"}},
		{name: "psql URL", kind: "command", text: "psql postgres://app:secret@db.example.com:5432/app -c 'select 1'", want: []string{"connects_to_host=db.example.com"}},
		{name: "a URL echoed is not a connection", kind: "command", text: "echo https://example.com/docs && sed -i 's#http://old.example#https://new.example#' site.conf", without: []string{"connects_to_host"}},
		{name: "a URL in a heredoc is not a connection", kind: "command", text: "cat > run.sh <<'EOF'\ncurl https://inside.example.com\nssh root@10.9.9.9\nEOF\nchmod +x run.sh", without: []string{"connects_to_host"}},

		// operation_type: archive manipulation
		{name: "tar", kind: "command", text: "tar -xzf release.tar.gz -C /opt/app", want: []string{"operation_type=archive manipulation"}},
		{name: "zip", kind: "command", text: "cd dist && zip -r ../site.zip .", want: []string{"operation_type=archive manipulation"}},
		{name: "unzip", kind: "command", text: "unzip -o fonts.zip", want: []string{"operation_type=archive manipulation"}},
		{name: "gzip", kind: "command", text: "gzip -9 access.log", want: []string{"operation_type=archive manipulation"}},
		{name: "gunzip in a pipe", kind: "command", text: "curl -s https://x.example/db.sql.gz | gunzip | psql app", want: []string{"operation_type=archive manipulation", "targets_system=postgresql"}},
		{name: "7z", kind: "command", text: "7z x archive.7z", want: []string{"operation_type=archive manipulation"}},
		{name: "archive over ssh", kind: "command", text: "ssh root@nas 'tar -czf /tmp/x.tgz /etc'", want: []string{"operation_type=archive manipulation", "connects_to_host=nas"}},
		{name: "archive file name is not archiving", kind: "command", text: "ls backup.tar.gz && cat start.sh", without: []string{"operation_type=archive manipulation"}},

		// operation_type: verification
		{name: "sha256sum", kind: "command", text: "sha256sum -c SHA256SUMS", want: []string{"operation_type=verification"}},
		{name: "md5sum", kind: "command", text: "md5sum image.iso", want: []string{"operation_type=verification"}},
		{name: "shasum", kind: "command", text: "shasum -a 256 file", want: []string{"operation_type=verification"}},
		{name: "cksum", kind: "command", text: "cksum file", want: []string{"operation_type=verification"}},
		{name: "ls -la", kind: "command", text: "ls -la /var/www", want: []string{"operation_type=verification", "mentions_path=/var/www"}},
		{name: "ls -l", kind: "command", text: "ls -l", want: []string{"operation_type=verification"}},
		{name: "ls -lah", kind: "command", text: "cd /srv && ls -lah", want: []string{"operation_type=verification"}},
		{name: "plain ls is not verification", kind: "command", text: "ls -a; ls", without: []string{"operation_type"}},
		{name: "diff", kind: "command", text: "diff -u old.conf new.conf", want: []string{"operation_type=verification"}},
		{name: "git diff", kind: "command", text: "git diff --stat", want: []string{"operation_type=verification"}},
		{name: "go test", kind: "command", text: "go test ./... -race", want: []string{"operation_type=verification"}},
		{name: "pytest", kind: "command", text: "python -m pytest -q tests/", want: []string{"operation_type=verification"}},
		{name: "npm test", kind: "command", text: "npm test", want: []string{"operation_type=verification"}},
		{name: "cargo test", kind: "command", text: "cargo test --release", want: []string{"operation_type=verification"}},
		{name: "make test", kind: "command", text: "make test", want: []string{"operation_type=verification"}},
		{name: "go build is not verification", kind: "command", text: "go build ./cmd/app", without: []string{"operation_type"}},

		// mentions_path
		{name: "path in a command", kind: "command", text: "cat /etc/nginx/nginx.conf", want: []string{"mentions_path=/etc/nginx/nginx.conf", "targets_system=nginx"}},
		{name: "path in user text with punctuation", kind: "user_text", text: "Why is /etc/hosts, or rather /etc/resolv.conf.", want: []string{"mentions_path=/etc/hosts", "mentions_path=/etc/resolv.conf"}},
		{name: "path in brackets and quotes", kind: "assistant_text", text: "The log (/var/log/syslog) and '/opt/app/config.yaml' agree.", want: []string{"mentions_path=/var/log/syslog", "mentions_path=/opt/app/config.yaml"}},
		{name: "trailing slash dropped", kind: "command", text: "cp -r build/ /srv/www/", want: []string{"mentions_path=/srv/www"}},
		{name: "host:path", kind: "command", text: "scp a.txt root@nas:/mnt/user/share/a.txt", want: []string{"mentions_path=/mnt/user/share/a.txt"}},
		{name: "path from a tool input", kind: "input", text: "/home/anna/project/main.go", want: []string{"mentions_path=/home/anna/project/main.go"}},
		{name: "URLs are not paths", kind: "assistant_text", text: "See https://example.com/docs/install and file:///etc/x", without: []string{"mentions_path"}},
		{name: "root and bare dirs are not stored", kind: "command", text: "cd / && ls /tmp && echo a/b", without: []string{"mentions_path"}},
		{name: "stoplist", kind: "command", text: "make > /dev/null 2>&1; /bin/bash -c x; /usr/bin/env python3", without: []string{"mentions_path"}},
		{name: "relative and home paths are not absolute", kind: "command", text: "cat ./src/main.go ~/notes/todo.md", without: []string{"mentions_path"}},
		{name: "slash commands are not paths", kind: "user_text", text: "<command-name>/clear</command-name> then /compact", without: []string{"mentions_path"}},
		{name: "paths are not read from tool results", kind: "tool_result", text: "drwxr-xr-x /var/lib/docker/volumes", without: []string{"mentions_path"}},

		// targets_system
		{name: "unraid", kind: "user_text", text: "My Unraid server is slow", want: []string{"targets_system=unraid"}},
		{name: "docker compose", kind: "command", text: "docker-compose up -d", want: []string{"targets_system=docker"}},
		{name: "Dockerfile", kind: "assistant_text", text: "I updated the Dockerfile.", want: []string{"targets_system=docker"}},
		{name: "k8s", kind: "user_text", text: "deploy it to our k8s cluster", want: []string{"targets_system=kubernetes"}},
		{name: "kubectl", kind: "command", text: "kubectl rollout restart deploy/web", want: []string{"targets_system=kubernetes"}},
		{name: "postgres", kind: "user_text", text: "the Postgres database is full", want: []string{"targets_system=postgresql"}},
		{name: "psql", kind: "command", text: "psql -U app -c 'select 1'", want: []string{"targets_system=postgresql"}},
		{name: "redis-cli", kind: "command", text: "redis-cli ping", want: []string{"targets_system=redis"}},
		{name: "mariadb", kind: "user_text", text: "MariaDB keeps crashing", want: []string{"targets_system=mysql"}},
		{name: "systemctl", kind: "command", text: "systemctl restart app.service", want: []string{"targets_system=systemd"}},
		{name: "proxmox", kind: "user_text", text: "a new VM on Proxmox", want: []string{"targets_system=proxmox"}},
		{name: "truenas", kind: "user_text", text: "the TrueNAS pool", want: []string{"targets_system=truenas"}},
		{name: "traefik", kind: "assistant_text", text: "Traefik routes the requests.", want: []string{"targets_system=traefik"}},
		{name: "part of a word is not a system", kind: "user_text", text: "dockerized nginxish predis", without: []string{"targets_system"}},

		// provides_solution
		{name: "fixed", kind: "assistant_text", text: "I fixed the permissions on the appdata share so the container can write.", want: []string{"provides_solution=I fixed the permissions on the appdata share so the container can write."}},
		{name: "solution", kind: "assistant_text", text: "Done. The solution was to raise the upload limit in nginx. Anything else?", want: []string{"provides_solution=The solution was to raise the upload limit in nginx."}},
		{name: "resolved", kind: "assistant_text", text: "This resolved the DNS timeouts on the VPN.", want: []string{"provides_solution=This resolved the DNS timeouts on the VPN."}},
		{name: "too short to be a fact", kind: "assistant_text", text: "Fixed it.", without: []string{"provides_solution"}},
		{name: "a user's fix is a request", kind: "user_text", text: "Please fix the broken backup script today", without: []string{"provides_solution"}},
		{name: "prefix is not the word", kind: "assistant_text", text: "I added a prefix to every resolvedness counter in the code.", without: []string{"provides_solution"}},

		// identifies_issue
		{name: "failed in text", kind: "assistant_text", text: "The build failed because the linker cannot find libssl.", want: []string{"identifies_issue=The build failed because the linker cannot find libssl."}},
		{name: "error in a tool result", kind: "tool_result", text: "Starting...\nError: connect ECONNREFUSED 127.0.0.1:5432\n    at TCPConnectWrap", want: []string{"identifies_issue=Error: connect ECONNREFUSED 127.0.0.1:5432"}},
		{name: "exception", kind: "tool_result", text: "Traceback:\nValueError exception raised in parse_config()", want: []string{"identifies_issue=ValueError exception raised in parse_config()"}},
		{name: "error alone is noise", kind: "tool_result", text: "error", without: []string{"identifies_issue"}},
		{name: "no errors is not an issue", kind: "tool_result", text: "Build finished with 0 errors and 2 warnings in the frontend", without: []string{"identifies_issue"}},
		{name: "no errors in prose", kind: "assistant_text", text: "The config parsed with no errors on the first attempt.", without: []string{"identifies_issue"}},
		{name: "error in a file name is not an issue", kind: "tool_result", text: "2\terror_log /var/log/nginx/error.log warn;", without: []string{"identifies_issue"}},
		{name: "thinking is not scanned", kind: "thinking", text: "Maybe the error is in the proxy configuration of the server.", without: []string{"identifies_issue"}},

		// discovery
		{name: "found", kind: "assistant_text", text: "I found that the cron job runs as nobody instead of root.", want: []string{"discovery=I found that the cron job runs as nobody instead of root."}},
		{name: "turns out", kind: "assistant_text", text: "It turns out the disk was mounted read-only after the crash.", want: []string{"discovery=It turns out the disk was mounted read-only after the crash."}},
		{name: "discovered", kind: "assistant_text", text: "We discovered a stale lock file in /var/lib/app/lock.", want: []string{"discovery=We discovered a stale lock file in /var/lib/app/lock.", "mentions_path=/var/lib/app/lock"}},
		{name: "not found is not a discovery", kind: "assistant_text", text: "The config file was not found on the server at all.", without: []string{"discovery"}},
		{name: "found in a tool result is not a discovery", kind: "tool_result", text: "3 matches found in the source tree of the app", without: []string{"discovery"}},
	}
	runRuleCases(t, NewExtractor(nil, ExtractorOptions{}), cases)
}

func TestLoadRulesAddsAndOverrides(t *testing.T) {
	f, err := os.Open("testdata/rules/custom.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	custom, err := LoadRules(f, "custom.json")
	if err != nil {
		t.Fatalf("LoadRules: %v", err)
	}
	def := DefaultRules()
	before := def.List()
	rs := def.Merge(custom)
	if !reflect.DeepEqual(def.List(), before) {
		t.Errorf("Merge changed its receiver")
	}
	if got, want := len(rs.List()), len(before)+1; got != want {
		t.Errorf("merged set has %d rules, want %d (one added, two replaced)", got, want)
	}
	x := NewExtractor(rs, ExtractorOptions{})
	runRuleCases(t, x, []ruleCase{
		{name: "the override matches its new keyword", kind: "command", text: "openresty -s reload", want: []string{"targets_system=nginx"}},
		{name: "the added rule", kind: "command", text: "sudo wg-quick up wg0", want: []string{"uses_vpn=wg0"}},
		{name: "the disabled rule", kind: "assistant_text", text: "I found that the cron job runs as nobody instead of root.", without: []string{"discovery"}},
		{name: "the other rules still apply", kind: "command", text: "ssh root@10.1.1.1 'ls -la'", want: []string{"connects_to_host=10.1.1.1", "operation_type=verification"}},
	})
	facts := factsWithConfidence(t, x, "command", "nginx -t")
	if got, want := facts["targets_system=nginx"], 0.75; got != want {
		t.Errorf("confidence of the overridden rule's fact = %v, want %v", got, want)
	}
	if !contains(rs.Predicates(), "uses_vpn") || contains(rs.Predicates(), "discovery") {
		t.Errorf("Predicates() = %v, want uses_vpn and no discovery", rs.Predicates())
	}
}

func factsWithConfidence(t *testing.T, x *Extractor, kind, text string) map[string]float64 {
	t.Helper()
	r := NewReader(strings.NewReader(`{"type":"assistant","uuid":"a","message":{"content":[{"type":"tool_use","id":"t","name":"Bash","input":{"command":`+jsonString(text)+`}}]}}`+"\n"), "f", Options{})
	m, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for _, f := range x.Extract(m) {
		out[f.Predicate+"="+f.Object] = f.Confidence
	}
	return out
}

func TestLoadRulesErrors(t *testing.T) {
	tests := []struct {
		file   string
		line   int
		rule   string
		reason []string
	}{
		{file: "bad-syntax.json", line: 6, reason: []string{"invalid character '}'"}},
		{file: "bad-unknown-field.json", line: 6, rule: "typo", reason: []string{`unknown field "patern"`}},
		{file: "bad-regexp.json", line: 5, rule: "unbalanced", reason: []string{"bad pattern", "missing closing )"}},
		{file: "bad-confidence.json", line: 4, rule: "too-sure", reason: []string{"confidence 1.5 is outside 0..1"}},
		{file: "bad-type.json", line: 4, rule: "words", reason: []string{"field confidence is a string, want a number"}},
		{file: "bad-applies-to.json", line: 6, rule: "where", reason: []string{`applies_to "commands" is not one of`}},
		{file: "bad-group.json", line: 6, rule: "host", reason: []string{`object "group:2"`, "only 1 capture group(s)"}},
		{file: "bad-both.json", line: 6, rule: "both", reason: []string{"pattern or keywords, not both"}},
		{file: "bad-neither.json", line: 2, rule: "empty", reason: []string{"pattern or keywords is missing"}},
		{file: "bad-no-confidence.json", line: 2, rule: "unsure", reason: []string{"confidence is missing"}},
		{file: "bad-no-predicate.json", line: 2, rule: "orphan", reason: []string{"predicate is missing"}},
		{file: "bad-duplicate.json", line: 3, rule: "twice", reason: []string{"already used by the rule at line 2"}},
		{file: "bad-top.json", line: 1, reason: []string{"want a JSON list of rules, got an object"}},
		{file: "bad-element.json", line: 3, rule: "#2", reason: []string{"must be a JSON object"}},
		{file: "bad-when.json", line: 3, rule: "guarded", reason: []string{"bad when", "missing closing ]"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open("testdata/rules/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			rs, err := LoadRules(f, tc.file)
			if err == nil {
				t.Fatalf("LoadRules = %d rules, want an error", len(rs.List()))
			}
			var re *RulesError
			if !errors.As(err, &re) {
				t.Fatalf("error %v is %T, want *RulesError", err, err)
			}
			if re.File != tc.file || re.Line != tc.line || re.Rule != tc.rule {
				t.Errorf("error at %s:%d rule %q, want %s:%d rule %q (%v)", re.File, re.Line, re.Rule, tc.file, tc.line, tc.rule, err)
			}
			for _, r := range tc.reason {
				if !strings.Contains(err.Error(), r) {
					t.Errorf("error %q does not say %q", err, r)
				}
			}
			if got, want := factbase.ErrorCode(err), factbase.EINVALID; got != want {
				t.Errorf("ErrorCode = %q, want %q", got, want)
			}
			if got := factbase.ErrorMessage(err); got != err.Error() {
				t.Errorf("ErrorMessage = %q, want %q", got, err.Error())
			}
		})
	}
}

func TestLoadRulesEdgeCases(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		wantErr string // "" for success
		check   func(t *testing.T, rs *Rules)
	}{
		{name: "empty list", in: "[]", check: func(t *testing.T, rs *Rules) {
			if n := len(rs.List()); n != 0 {
				t.Errorf("%d rules, want 0", n)
			}
		}},
		{name: "empty file", in: "", wantErr: "unexpected end of JSON input"},
		{name: "too large", in: "[" + strings.Repeat(" ", MaxRulesFileSize) + "]", wantErr: "larger than"},
		{name: "defaults filled in", in: `[{"predicate":"p","confidence":0.5,"keywords":["Zebra"]}]`, check: func(t *testing.T, rs *Rules) {
			r := rs.List()[0]
			if r.Name != "p" || r.Object != "match" || !reflect.DeepEqual(r.AppliesTo, AppliesTo{"any"}) {
				t.Errorf("rule = %+v, want name p, object match, applies_to any", r)
			}
		}},
		{name: "applies_to as one string", in: `[{"predicate":"p","confidence":0.5,"keywords":["x"],"applies_to":"tool_result"}]`, check: func(t *testing.T, rs *Rules) {
			if got := rs.list[0].src; got != srcToolResult {
				t.Errorf("sources = %b, want tool_result only", got)
			}
		}},
		{name: "applies_to of the wrong type", in: `[{"predicate":"p","confidence":0.5,"keywords":["x"],"applies_to":3}]`, wantErr: "applies_to must be a string or a list of strings"},
		{name: "bad object group", in: `[{"predicate":"p","confidence":0.5,"pattern":"(x)","object":"group:one"}]`, wantErr: "want group:N"},
		{name: "empty keyword", in: `[{"predicate":"p","confidence":0.5,"keywords":["x"," "]}]`, wantErr: "a keyword is empty"},
		{name: "negative limit", in: `[{"predicate":"p","confidence":0.5,"keywords":["x"],"limit":-1}]`, wantErr: "limit -1 is negative"},
		{name: "predicate with space", in: `[{"predicate":"uses vpn","confidence":0.5,"keywords":["x"]}]`, wantErr: "contains white space"},
		{name: "bad unless", in: `[{"predicate":"p","confidence":0.5,"keywords":["x"],"unless":"("}]`, wantErr: "bad unless"},
		{name: "unknown parser", in: `[{"predicate":"p","confidence":0.5,"parser":"hosts"}]`, wantErr: `parser "hosts" is not one of ssh_targets`},
		{name: "parser and pattern", in: `[{"predicate":"p","confidence":0.5,"parser":"url_hosts","pattern":"x"}]`, wantErr: "only one"},
		{name: "parser with a group object", in: `[{"predicate":"p","confidence":0.5,"parser":"url_hosts","object":"group:1"}]`, wantErr: "a parser's object is what it finds"},
		{name: "parser rule", in: `[{"predicate":"reaches","confidence":0.5,"parser":"host_options","stop":["localhost"]}]`, check: func(t *testing.T, rs *Rules) {
			x := NewExtractor(rs, ExtractorOptions{})
			if got, want := factsFor(t, x, "command", "psql -h localhost && redis-cli -h cache ping"), []string{"reaches=cache"}; !reflect.DeepEqual(got, want) {
				t.Errorf("facts = %q, want %q (localhost stopped)", got, want)
			}
		}},
		{name: "disable needs only predicate and name", in: `[{"predicate":"discovery","name":"discovery-words","disabled":true}]`, check: func(t *testing.T, rs *Rules) {
			if !rs.List()[0].Disabled {
				t.Errorf("rule not disabled")
			}
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, err := LoadRules(strings.NewReader(tc.in), "r.json")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("LoadRules error = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadRules: %v", err)
			}
			tc.check(t, rs)
		})
	}
}

func TestMerge(t *testing.T) {
	load := func(s string) *Rules {
		t.Helper()
		rs, err := LoadRules(strings.NewReader(s), "r.json")
		if err != nil {
			t.Fatal(err)
		}
		return rs
	}
	a := load(`[{"name":"one","predicate":"p","confidence":0.1,"keywords":["a"]},
	             {"name":"two","predicate":"p","confidence":0.2,"keywords":["b"]},
	             {"name":"one","predicate":"q","confidence":0.3,"keywords":["c"]}]`)
	b := load(`[{"name":"two","predicate":"p","confidence":0.9,"keywords":["bb"]},
	             {"name":"three","predicate":"p","confidence":0.4,"keywords":["d"]},
	             {"name":"one","predicate":"q","disabled":true}]`)
	got := a.Merge(b).List()
	var names []string
	for _, r := range got {
		names = append(names, r.Predicate+"/"+r.Name)
	}
	if want := []string{"p/one", "p/two", "q/one", "p/three"}; !reflect.DeepEqual(names, want) {
		t.Errorf("merged order %v, want %v", names, want)
	}
	if got[1].Confidence != 0.9 || !got[2].Disabled {
		t.Errorf("merged rules %+v, want p/two replaced and q/one disabled", got)
	}
	if n := len(a.Merge(nil).List()); n != 3 {
		t.Errorf("Merge(nil) has %d rules, want 3", n)
	}
	x := NewExtractor(a.Merge(b), ExtractorOptions{})
	if got := factsFor(t, x, "user_text", "c b bb d"); !reflect.DeepEqual(got, []string{"p=bb", "p=d"}) {
		t.Errorf("facts = %q, want p=bb and p=d (q/one disabled, p/two replaced)", got)
	}
}

func TestRequiredLiteral(t *testing.T) {
	tests := []struct{ expr, want string }{
		{expr: `(?:^|\s)(/[a-z]+(?:/[a-z]+)+)`, want: "/"},
		{expr: `[a-z]+@([a-z.]+)`, want: "@"},
		{expr: `\bwg-quick\s+up\s+(\S+)`, want: "wg-quick"},
		{expr: `(?i)error`, want: ""},
		{expr: `tar|zip`, want: ""},
		{expr: `(?:abc)?x`, want: "x"},
		{expr: `a*b{2,}`, want: "b"},
		{expr: `(`, want: ""},
	}
	for _, tc := range tests {
		if got := requiredLiteral(tc.expr); got != tc.want {
			t.Errorf("requiredLiteral(%q) = %q, want %q", tc.expr, got, tc.want)
		}
	}
	for _, r := range DefaultRules().list {
		if r.re != nil && r.reLit != "" {
			// The prefilter must never hide a match: every built-in match contains it.
			for _, text := range []string{"ssh root@10.0.0.1", "cat /etc/x/y", "tar -x"} {
				for _, m := range r.re.FindAllString(text, -1) {
					if !strings.Contains(m, r.reLit) {
						t.Errorf("rule %s: match %q lacks its literal %q", r.Name, m, r.reLit)
					}
				}
			}
		}
	}
}

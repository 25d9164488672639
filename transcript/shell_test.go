package transcript

import (
	"reflect"
	"testing"
)

func TestShellCommands(t *testing.T) {
	tests := []struct {
		in   string
		want [][]string
	}{
		{in: "ls -la", want: [][]string{{"ls", "-la"}}},
		{in: `ssh h 'a b' "c \"d\"" e\ f`, want: [][]string{{"ssh", "h", "a b", `c "d"`, "e f"}}},
		{in: "a && b || c; d | e & f", want: [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}}},
		{in: "x=$(hostname) `id` (cd /; ls)", want: [][]string{{"x=$"}, {"hostname"}, {"id"}, {"cd", "/"}, {"ls"}}},
		{in: "make >build.log 2>&1 < in.txt", want: [][]string{{"make"}}},
		{in: "cat > f <<'EOF'\nssh root@h\nEOF\nls # ssh x", want: [][]string{{"cat"}, {"ls"}}},
		{in: "cat <<-END | wc -l\n\tcurl http://x\n\tEND\necho done", want: [][]string{{"cat"}, {"wc", "-l"}, {"echo", "done"}}},
		{in: "grep a#b f", want: [][]string{{"grep", "a#b", "f"}}},
		{in: "echo 'unterminated", want: [][]string{{"echo", "unterminated"}}},
		{in: "", want: nil},
	}
	for _, tc := range tests {
		if got := shellCommands(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("shellCommands(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestHostOf(t *testing.T) {
	tests := []struct{ in, want string }{
		{"10.0.0.7", "10.0.0.7"}, {"[fe80::1]", "fe80::1"}, {"web01.example.com.", "web01.example.com"},
		{"nas", "nas"}, {"my_host", "my_host"}, {"$HOST", ""}, {"<host>", ""}, {"{}", ""}, {"10.0.0", ""},
		{"12345", ""}, {"/var/run/postgresql", ""}, {"-bad", ""}, {"a..b", ""}, {"", ""},
	}
	for _, tc := range tests {
		if got := hostOf(tc.in); got != tc.want {
			t.Errorf("hostOf(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzConnectionHosts: the host parsers never panic and return only hosts.
func FuzzConnectionHosts(f *testing.F) {
	for _, s := range []string{"ssh -J a,b root@[::1] 'ssh x'", "scp [fe80::1]:/a b", "rsync --chown a:b x::m/", "psql -h", "curl -e", "bash -c", "cat <<EOF\nx", "mongosh --host rs/a:1,b:2", "timeout", "sudo -u"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name, parse := range parsers {
			for _, h := range parse(s) {
				if hostOf(h) != h {
					t.Errorf("%s(%q) found %q, not a host", name, s, h)
				}
			}
		}
	})
}

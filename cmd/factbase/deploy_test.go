package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The deployment files at the repository's root run "factbase serve": compose.yaml
// (with PostgreSQL) and deploy/factbase.service (systemd). Every flag they pass and
// every FACTBASE_* variable they set or mention must be one the binary knows: an
// unknown flag stops the service at start, and an unknown variable is silently
// ignored. (The Dockerfile is checked against the release image, whose binary runs
// its CMD, in tools/release.)

// binaryEnv returns the FACTBASE_* variables the binary reads, recorded as it reads
// them: while serve registers its flags (their defaults come from the environment)
// and while it configures the OpenAI-compatible embedder.
func binaryEnv(t *testing.T) map[string]bool {
	t.Helper()
	read := map[string]bool{}
	getenv := func(k string) string {
		read[k] = true
		if k == "FACTBASE_EMBED_URL" || k == "FACTBASE_EMBED_MODEL" {
			return "http://127.0.0.1:1/v1" // so that the embedder reads on; nothing is sent
		}
		return ""
	}
	m := &Main{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Getenv: getenv}
	if code := m.Run(context.Background(), []string{"serve", "-h"}); code != 0 {
		t.Fatalf("serve -h = %d", code)
	}
	if _, err := m.embedder(&common{embedder: "openai"}); err != nil {
		t.Fatalf("the openai embedder: %v", err)
	}
	for k := range read {
		if !strings.HasPrefix(k, "FACTBASE_") {
			delete(read, k)
		}
	}
	for _, k := range []string{"FACTBASE_DB", "FACTBASE_EMBEDDER", "FACTBASE_LLM_URL", "FACTBASE_EMBED_KEY"} {
		if !read[k] { // the recording itself works
			t.Fatalf("the binary was not seen reading %s (read %v)", k, read)
		}
	}
	return read
}

// checkServe checks one invocation of serve: args are what follows the binary's
// name, env the variables set for it. It parses args with serve's own flag set
// ("serve ARGS -h" stops before serving), so an unknown flag or a malformed value
// fails; each FACTBASE_* variable must be one the binary reads, and an embedder it
// names must be one the binary has.
func checkServe(t *testing.T, file string, args []string, env map[string]string, known map[string]bool) {
	t.Helper()
	if len(args) == 0 || args[0] != "serve" {
		t.Errorf("%s runs %q, want serve", file, args)
		return
	}
	for k, v := range env {
		if strings.HasPrefix(k, "FACTBASE_") && !known[k] {
			t.Errorf("%s sets %s, which the binary does not read", file, k)
		}
		if k == "FACTBASE_EMBEDDER" && v != "openai" { // openai needs its server's URL
			if _, err := (&Main{Getenv: func(string) string { return "" }}).embedder(&common{embedder: v}); err != nil {
				t.Errorf("%s: %s=%s: %v", file, k, v, err)
			}
		}
	}
	var stderr bytes.Buffer
	m := &Main{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &stderr, Getenv: func(k string) string { return env[k] }}
	if code := m.Run(context.Background(), append(slices.Clone(args), "-h")); code != 0 {
		t.Errorf("%s: factbase %s: exit %d: %s", file, strings.Join(args, " "), code, firstLine(stderr.String()))
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// mentionedEnv returns the FACTBASE_* names text mentions anywhere, comments too,
// but for ${...} interpolations (variables of compose itself).
func mentionedEnv(text string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`(\$\{)?\b(FACTBASE_[A-Z0-9_]+)`).FindAllStringSubmatch(text, -1) {
		if m[1] == "" && !slices.Contains(out, m[2]) {
			out = append(out, m[2])
		}
	}
	return out
}

func readRepoFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDeploymentFiles(t *testing.T) {
	known := binaryEnv(t)
	for _, name := range []string{"compose.yaml", "deploy/factbase.service", "Dockerfile"} {
		for _, k := range mentionedEnv(readRepoFile(t, name)) {
			if !known[k] {
				t.Errorf("%s mentions %s, which the binary does not read", name, k)
			}
		}
	}

	t.Run("compose", func(t *testing.T) {
		var c struct {
			Services map[string]struct {
				Image       string    `yaml:"image"`
				Command     []string  `yaml:"command"`
				Environment yaml.Node `yaml:"environment"`
				DependsOn   map[string]struct {
					Condition string `yaml:"condition"`
				} `yaml:"depends_on"`
			} `yaml:"services"`
		}
		if err := yaml.Unmarshal([]byte(readRepoFile(t, "compose.yaml")), &c); err != nil {
			t.Fatal(err)
		}
		pg, fb := c.Services["postgres"], c.Services["factbase"]
		if pg.Image != "pgvector/pgvector:pg16" {
			t.Errorf("postgres image %q, want pgvector/pgvector:pg16", pg.Image)
		}
		if fb.DependsOn["postgres"].Condition != "service_healthy" {
			t.Errorf("factbase depends on postgres %+v, want service_healthy", fb.DependsOn)
		}
		env := composeEnv(t, &fb.Environment)
		if !strings.HasPrefix(env["FACTBASE_DB"], "postgres://") || !strings.Contains(env["FACTBASE_DB"], "@postgres:5432/") {
			t.Errorf("FACTBASE_DB = %q, want the postgres service's URL", env["FACTBASE_DB"])
		}
		checkServe(t, "compose.yaml", fb.Command, env, known)
	})

	t.Run("systemd", func(t *testing.T) {
		unit := readRepoFile(t, "deploy/factbase.service")
		env := map[string]string{}
		var exec []string
		section := ""
		sc := bufio.NewScanner(strings.NewReader(unit))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if strings.HasPrefix(line, "[") {
				section = line
				continue
			}
			k, v, ok := strings.Cut(line, "=")
			if !ok || strings.HasPrefix(line, "#") || section != "[Service]" {
				continue
			}
			switch k {
			case "ExecStart":
				exec = strings.Fields(v)
			case "Environment":
				for _, kv := range strings.Fields(v) {
					ek, ev, _ := strings.Cut(kv, "=")
					env[ek] = ev
				}
			}
		}
		if len(exec) == 0 || filepath.Base(exec[0]) != "factbase" {
			t.Fatalf("ExecStart = %q, want the factbase binary", exec)
		}
		checkServe(t, "deploy/factbase.service", exec[1:], env, known)
	})
}

// composeEnv reads a service's environment in either of compose's forms: a map, or
// a list of KEY=VALUE.
func composeEnv(t *testing.T, n *yaml.Node) map[string]string {
	t.Helper()
	env := map[string]string{}
	if n.Kind == yaml.SequenceNode {
		var list []string
		if err := n.Decode(&list); err != nil {
			t.Fatal(err)
		}
		for _, kv := range list {
			k, v, _ := strings.Cut(kv, "=")
			env[k] = v
		}
		return env
	}
	if err := n.Decode(&env); err != nil {
		t.Fatal(err)
	}
	return env
}

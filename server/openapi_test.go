package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
)

// openAPIDoc is the part of the served document the hygiene tests read.
type openAPIDoc struct {
	Security []map[string][]string `json:"security"`
	Servers  []struct {
		URL string `json:"url"`
	} `json:"servers"`
	Tags []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tags"`
	Paths map[string]map[string]struct {
		OperationID string                  `json:"operationId"`
		Tags        []string                `json:"tags"`
		Security    *[]map[string][]string  `json:"security"`
		RequestBody openAPIReply            `json:"requestBody"`
		Responses   map[string]openAPIReply `json:"responses"`
	} `json:"paths"`
	Components struct {
		SecuritySchemes map[string]any `json:"securitySchemes"`
	} `json:"components"`
}

// openAPIReply is a request or response body's content.
type openAPIReply struct {
	Content map[string]struct {
		Example any `json:"example"`
	} `json:"content"`
}

// publicPaths need no key on any server.
var publicPaths = []string{"/healthz", "/readyz", "/metrics", "/openapi.json"}

// TestOpenAPIHygiene checks, for a server with keys and one without, what the
// linters of .ci/openapi-lint check and a little more, so that go test alone
// catches it: servers, tags with descriptions, one style of operation id, public
// health endpoints, the security of everything else, a 4XX on every /v1 operation,
// and examples on the main operations.
func TestOpenAPIHygiene(t *testing.T) {
	idStyle := regexp.MustCompile(`^[a-z]+(-[a-z0-9]+)+$`)
	for _, noAuth := range []bool{false, true} {
		t.Run(fmt.Sprintf("noAuth=%v", noAuth), func(t *testing.T) {
			e := newTestEnv(t, func(o *Options) { o.NoAuth = noAuth })
			var doc openAPIDoc
			e.do("GET", "/openapi.json", "", "").json(t, &doc)
			if len(doc.Servers) == 0 || doc.Servers[0].URL == "" {
				t.Errorf("servers = %+v, want one", doc.Servers)
			}
			described := map[string]bool{}
			for _, tag := range doc.Tags {
				if tag.Description == "" {
					t.Errorf("tag %q has no description", tag.Name)
				}
				described[tag.Name] = true
			}
			if _, ok := doc.Components.SecuritySchemes[bearerScheme]; ok == noAuth {
				t.Errorf("bearer scheme offered = %v on a server with noAuth = %v", ok, noAuth)
			}
			if got := len(doc.Security); got != 0 == noAuth {
				t.Errorf("root security = %v, want the bearer key only when keys are required", doc.Security)
			}
			seen := map[string]string{}
			for path, ops := range doc.Paths {
				for method, op := range ops {
					where := method + " " + path
					if !idStyle.MatchString(op.OperationID) {
						t.Errorf("%s: operation id %q is not kebab-case verb-noun", where, op.OperationID)
					}
					if other, ok := seen[op.OperationID]; ok {
						t.Errorf("%s and %s share the operation id %q", where, other, op.OperationID)
					}
					seen[op.OperationID] = where
					if len(op.Tags) != 1 || !described[op.Tags[0]] {
						t.Errorf("%s: tags %v, want one tag of the document's tags", where, op.Tags)
					}
					switch {
					case slices.Contains(publicPaths, path) || noAuth:
						if op.Security == nil || len(*op.Security) != 0 {
							t.Errorf("%s: security %v, want [] (public)", where, op.Security)
						}
					case op.Security == nil || len(*op.Security) != 1 || (*op.Security)[0][bearerScheme] == nil:
						t.Errorf("%s: security %v, want the bearer key", where, op.Security)
					}
					if strings.HasPrefix(path, "/v1/") && !has4xx(op.Responses) {
						t.Errorf("%s documents no 4XX response", where)
					}
				}
			}
			for _, p := range publicPaths {
				if doc.Paths[p]["get"].OperationID == "" {
					t.Errorf("the document lacks GET %s", p)
				}
			}
			for id, ex := range examples() {
				where, ok := seen[id]
				if !ok {
					t.Errorf("example of operation %q, which the document lacks", id)
					continue
				}
				method, path, _ := strings.Cut(where, " ")
				op := doc.Paths[path][method]
				if ex.request != nil && op.RequestBody.Content["application/json"].Example == nil {
					t.Errorf("%s: no request example", where)
				}
				if op.Responses["200"].Content["application/json"].Example == nil {
					t.Errorf("%s: no response example", where)
				}
			}
		})
	}
}

func has4xx(rs map[string]openAPIReply) bool {
	for status := range rs {
		if strings.HasPrefix(status, "4") {
			return true
		}
	}
	return false
}

// TestOpenAPIOperationIDs keeps the operation ids stable: clients generated from
// the document name their methods after them, so a change must be deliberate.
// testdata/openapi/operation-ids.txt is written by hand, one "METHOD path id" a line.
func TestOpenAPIOperationIDs(t *testing.T) {
	e := newTestEnv(t, nil)
	var doc openAPIDoc
	e.do("GET", "/openapi.json", "", "").json(t, &doc)
	var got []string
	for path, ops := range doc.Paths {
		for method, op := range ops {
			got = append(got, strings.ToUpper(method)+" "+path+" "+op.OperationID)
		}
	}
	slices.Sort(got)
	f, err := os.Open(filepath.Join("testdata", "openapi", "operation-ids.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var want []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			want = append(want, line)
		}
	}
	slices.Sort(want)
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("the document lacks %q", w)
		}
	}
	for _, g := range got {
		if !slices.Contains(want, g) {
			t.Errorf("the document has %q, not in testdata/openapi/operation-ids.txt", g)
		}
	}
}

// TestOpenAPIExamples validates every example in the document against the schema
// beside it, as Spectral's oas3-valid-media-example does in CI.
func TestOpenAPIExamples(t *testing.T) {
	e := newTestEnv(t, nil)
	oapi := e.srv.API().OpenAPI()
	reg := oapi.Components.Schemas
	check := func(where string, mt *huma.MediaType) {
		if mt == nil || mt.Example == nil || mt.Schema == nil {
			return
		}
		b, err := json.Marshal(mt.Example)
		if err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		var res huma.ValidateResult
		huma.Validate(reg, mt.Schema, huma.NewPathBuffer([]byte(""), 0), huma.ModeWriteToServer, v, &res)
		for _, err := range res.Errors {
			t.Errorf("%s: the example does not match its schema: %v", where, err)
		}
	}
	n := 0
	for id := range examples() {
		op := operation(oapi, id)
		if op == nil {
			t.Errorf("no operation %q", id)
			continue
		}
		if op.RequestBody != nil {
			check(id+" request", op.RequestBody.Content["application/json"])
		}
		for status, r := range op.Responses {
			if mt := r.Content["application/json"]; mt != nil && mt.Example != nil {
				check(id+" "+status, mt)
				n++
			}
		}
	}
	if n < 9 {
		t.Errorf("%d response examples, want one for each of the 9 main operations", n)
	}
}

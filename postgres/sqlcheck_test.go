package postgres

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/jackc/pgx/v5"
)

// The second half of "shardable by user": no statement joins rows of different
// users. Each statement this package can send is checked by reading it: every
// reference to a per-user table in a statement that reads more than one table (a
// join, a subquery, a correlated EXISTS) must equate that table's user column, within
// its own query level, to a parameter ($n), to the user of the row a trigger fired
// for (OLD.u, NEW.u), or to another table's user column (x.u). That is what lets
// Citus route the statement to one user's shard. The statements are the string
// constants and expressions of the package's Go files, their constant parts folded
// (a part computed at run time, such as a built WHERE clause, reads as a parameter),
// and the bodies of the schema's trigger functions, read from the catalogue.

// sqlToken is a token of a statement: a word (keyword or identifier, lower-cased,
// quotes removed), a parameter ("$"), a string or number literal ("'"), or a
// punctuation character.
type sqlToken struct {
	text  string
	depth int // parentheses around it
}

// tokenize splits a statement into tokens, dropping comments and the contents of
// string literals.
func tokenize(sql string) []sqlToken {
	var (
		out   []sqlToken
		depth int
	)
	rs := []rune(sql)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
		case r == '-' && i+1 < len(rs) && rs[i+1] == '-':
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
		case r == '\'':
			for i++; i < len(rs); i++ {
				if rs[i] == '\'' {
					if i+1 < len(rs) && rs[i+1] == '\'' {
						i++
						continue
					}
					break
				}
			}
			out = append(out, sqlToken{"'", depth})
		case r == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				j++
			}
			out = append(out, sqlToken{strings.ToLower(string(rs[i+1 : min(j, len(rs))])), depth})
			i = j
		case r == '$':
			j := i + 1
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '%' || rs[j] == 'd' || rs[j] == '?') {
				j++
			}
			out = append(out, sqlToken{"$", depth})
			i = j - 1
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_') {
				j++
			}
			out = append(out, sqlToken{strings.ToLower(string(rs[i:j])), depth})
			i = j - 1
		case unicode.IsDigit(r):
			j := i
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.') {
				j++
			}
			out = append(out, sqlToken{"'", depth})
			i = j - 1
		case r == '(':
			out = append(out, sqlToken{"(", depth})
			depth++
		case r == ')':
			depth--
			out = append(out, sqlToken{")", depth})
		default:
			out = append(out, sqlToken{string(r), depth})
		}
	}
	return out
}

// clauseWords end a FROM list or stand where an alias cannot.
var clauseWords = map[string]bool{
	"where": true, "on": true, "join": true, "left": true, "right": true, "inner": true, "full": true,
	"cross": true, "natural": true, "lateral": true, "group": true, "order": true, "limit": true, "offset": true,
	"set": true, "with": true, "union": true, "except": true, "intersect": true,
	"returning": true, "for": true, "window": true, "having": true, "values": true, "select": true,
	"and": true, "or": true, "not": true, "as": true, "tablesample": true,
}

// tableRef is a reference to a per-user table in a statement.
type tableRef struct {
	table, alias, user string
	start, end         int // the tokens of its query level
}

// name is what the statement calls the table.
func (r tableRef) name() string {
	if r.alias != "" {
		return r.alias
	}
	return r.table
}

// crossUserJoins returns the references to per-user tables (users maps each to its
// user column) in the statement sql that are read beside another table or in a
// subquery without their user column equated to a parameter, a trigger row's user or
// another table's user column, each described.
// With all, every reference is checked, the single table of a statement too.
func crossUserJoins(sql string, users map[string]string, all bool) []string {
	var problems []string
	for _, stmt := range splitStatements(tokenize(sql)) {
		refs := tableRefs(stmt, users)
		nested := slices.ContainsFunc(refs, func(r tableRef) bool { return r.start > 0 })
		if len(refs) < 2 && !nested && !all {
			continue
		}
		for _, r := range refs {
			if !userEquated(stmt[r.start:r.end], r, refs) {
				problems = append(problems, fmt.Sprintf("%s %s is not tied to one user (%s.%s = $n, OLD.%s or another table's user column)",
					r.table, r.name(), r.name(), r.user, r.user))
			}
		}
	}
	return problems
}

// splitStatements splits tokens at top-level semicolons.
func splitStatements(ts []sqlToken) [][]sqlToken {
	var out [][]sqlToken
	start := 0
	for i, t := range ts {
		if t.text == ";" && t.depth == 0 {
			out = append(out, ts[start:i])
			start = i + 1
		}
	}
	return append(out, ts[start:])
}

// tableRefs finds the per-user tables a statement reads: the table after FROM, JOIN,
// UPDATE or USING (of a DELETE), or after a comma of a FROM list, with its alias, and the extent of its
// query level (from the parenthesis that opens it to the one that closes it, or the
// whole statement). A scan's r.start > 0 marks a table of a subquery.
func tableRefs(ts []sqlToken, users map[string]string) []tableRef {
	var refs []tableRef
	fromList := map[int]bool{} // depth -> in a FROM list
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		switch {
		case t.text == "from" || t.text == "join" || t.text == "update" || t.text == "using":
			fromList[t.depth] = t.text != "update"
		case t.text == "," && fromList[t.depth]:
		case t.text == "(":
			for d := range fromList {
				if d > t.depth {
					delete(fromList, d)
				}
			}
			continue
		case clauseWords[t.text] && t.text != "as":
			fromList[t.depth] = false
			continue
		default:
			continue
		}
		// A table name follows: schema.table, or table.
		j := i + 1
		if j+2 < len(ts) && ts[j+1].text == "." {
			j += 2
		}
		if j >= len(ts) || j+1 < len(ts) && ts[j+1].text == "(" {
			continue // a function (unnest) or a subquery
		}
		user, ok := users[ts[j].text]
		if !ok {
			continue
		}
		r := tableRef{table: ts[j].text, user: user}
		k := j + 1
		if k < len(ts) && ts[k].text == "as" {
			k++
		}
		if k < len(ts) && isWord(ts[k].text) && !clauseWords[ts[k].text] {
			r.alias = ts[k].text
		}
		r.start, r.end = levelOf(ts, j)
		refs = append(refs, r)
	}
	return refs
}

// levelOf returns the tokens of the query level of token i: from just after the
// parenthesis that opens it to the one that closes it, or the whole statement.
func levelOf(ts []sqlToken, i int) (start, end int) {
	d := ts[i].depth
	start, end = i, i
	for start > 0 && !(ts[start-1].text == "(" && ts[start-1].depth == d-1) {
		start--
	}
	for end < len(ts) && !(ts[end].text == ")" && ts[end].depth == d-1) {
		end++
	}
	return start, end
}

func isWord(s string) bool {
	return s != "" && (unicode.IsLetter(rune(s[0])) || s[0] == '_')
}

// userEquated reports whether the tokens hold r's user column (alias.column, or the
// bare column for a table without an alias) = a parameter, OLD.x or NEW.x, or another
// reference's user column, either way round.
func userEquated(ts []sqlToken, r tableRef, refs []tableRef) bool {
	// operand reads the operand that ends before i (left) or starts at i (right): a
	// qualified name "a.b", a word, a parameter (with a cast), and says what it is.
	isOwn := func(q, col string) bool {
		return col == r.user && (q == r.name() || q == "" && r.alias == "")
	}
	isOther := func(q, col string) bool {
		switch {
		case q == "":
			return false
		case q == "old" || q == "new":
			return col == r.user
		case col == "u":
			return true
		}
		for _, o := range refs {
			if o.name() == q && o.user == col {
				return true
			}
		}
		return false
	}
	left := func(i int) (q, col string, param bool) {
		// skip a cast: x::type
		for i-2 >= 0 && ts[i-2].text == ":" && ts[i-1].depth == ts[i].depth {
			if i-3 >= 0 && ts[i-3].text == ":" {
				i -= 3
				continue
			}
			break
		}
		switch {
		case i-1 < 0:
			return "", "", false
		case ts[i-1].text == "$":
			return "", "", true
		case i-3 >= 0 && ts[i-2].text == ".":
			return ts[i-3].text, ts[i-1].text, false
		}
		return "", ts[i-1].text, false
	}
	right := func(i int) (q, col string, param bool) {
		switch {
		case i >= len(ts):
			return "", "", false
		case ts[i].text == "$":
			return "", "", true
		case i+2 < len(ts) && ts[i+1].text == ".":
			return ts[i].text, ts[i+2].text, false
		}
		return "", ts[i].text, false
	}
	for i, t := range ts {
		if t.text != "=" || i > 0 && strings.ContainsAny(ts[i-1].text, "<>!") {
			continue
		}
		lq, lc, lp := left(i)
		rq, rc, rp := right(i + 1)
		if isOwn(lq, lc) && (rp || isOther(rq, rc)) || isOwn(rq, rc) && (lp || isOther(lq, lc)) {
			return true
		}
	}
	return false
}

// TestCrossUserJoins checks the reader above on statements it must pass and fail.
func TestCrossUserJoins(t *testing.T) {
	users := map[string]string{"facts": "u", "embeddings": "u", "fact_references": "u", "users": "id", "sheets": "u", "sheet_facts": "u"}
	cases := []struct {
		name, sql string
		all       bool     // every table, not only those read beside another
		bad       []string // the tables named, in order
	}{
		{name: "one table", sql: "SELECT id FROM facts WHERE key = $1"},
		{name: "one table, read whole", sql: "DELETE FROM embeddings WHERE kind = $1 AND item = $2", all: true, bad: []string{"embeddings"}},
		{name: "one table by its user, read whole", sql: "DELETE FROM embeddings WHERE u = $3 AND kind = $1 AND item = $2", all: true},
		{name: "join on the user", sql: "SELECT f.id FROM embeddings m JOIN facts f ON f.u = m.u AND f.seq = m.item WHERE m.u = $1"},
		{name: "join without the user", sql: "SELECT f.id FROM embeddings m JOIN facts f ON f.seq = m.item WHERE m.u = $1",
			bad: []string{"facts"}},
		{name: "both filtered by a parameter", sql: "SELECT 1 FROM facts f, fact_references r WHERE f.u = $1 AND r.u = $1::uuid AND r.fact = f.seq"},
		{name: "comma join, one side loose", sql: "SELECT 1 FROM facts f, fact_references r WHERE f.u = $1 AND r.fact = f.seq",
			bad: []string{"fact_references"}},
		{name: "left join", sql: "SELECT f.id FROM facts f LEFT JOIN fact_references r ON r.fact = f.seq WHERE f.u = $1",
			bad: []string{"fact_references"}},
		{name: "correlated subquery", sql: "SELECT 1 FROM facts f WHERE f.u = $1 AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE m.item = f.seq)",
			bad: []string{"embeddings"}},
		{name: "correlated subquery on the user", sql: "SELECT 1 FROM facts f WHERE f.u = $1 AND NOT EXISTS (SELECT 1 FROM embeddings m WHERE f.u = m.u AND m.item = f.seq)"},
		{name: "the user outside the subquery's level", sql: "SELECT 1 FROM facts f WHERE f.u = $1 AND f.seq IN (SELECT m.item FROM embeddings m) AND f.u = m.u",
			bad: []string{"embeddings"}},
		{name: "subqueries by parameter", sql: "SELECT (SELECT count(*) FROM facts WHERE u = $1 AND current), (SELECT count(*) FROM sheets WHERE u = $1)"},
		{name: "subquery unfiltered", sql: "SELECT (SELECT count(*) FROM facts WHERE current)", bad: []string{"facts"}},
		{name: "update correlated by table name", sql: "UPDATE facts SET rank = (SELECT count(*) FROM facts m WHERE m.u = facts.u AND m.rank <= facts.rank) WHERE u = $3"},
		{name: "trigger body", sql: "UPDATE sheets SET count = 0 WHERE u = OLD.u AND seq IN (SELECT sf.sheet FROM sheet_facts sf WHERE sf.fact = OLD.seq); DELETE FROM sheet_facts WHERE fact = OLD.seq",
			bad: []string{"sheet_facts"}},
		{name: "inequality is no tie", sql: "SELECT 1 FROM facts f JOIN embeddings m ON m.u <> f.u WHERE f.u = $1", bad: []string{"embeddings"}},
		{name: "unnest and catalogue tables are not per user", sql: "SELECT f.id FROM unnest($2::text[]) AS k (s) JOIN facts f ON f.u = $1 AND f.subject = k.s JOIN pg_class c ON c.oid = 1"},
		{name: "delete using, tied", sql: "DELETE FROM embeddings m USING facts f WHERE m.u = $1 AND f.u = m.u AND m.item = f.seq"},
		{name: "delete using, loose", sql: "DELETE FROM embeddings m USING facts f WHERE m.u = $1 AND m.item = f.seq", bad: []string{"facts"}},
		{name: "users by id", sql: "SELECT 1 FROM users x JOIN facts f ON f.u = x.id WHERE x.id = $1"},
		{name: "strings and comments are not read", sql: "SELECT 'FROM facts' FROM facts f -- JOIN embeddings m\nWHERE f.u = $1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range crossUserJoins(tc.sql, users, tc.all) {
				got = append(got, strings.Fields(p)[0])
			}
			if !slices.Equal(got, tc.bad) {
				t.Errorf("crossUserJoins(%q) names %q, want %q\n%q", tc.sql, got, tc.bad, crossUserJoins(tc.sql, users, tc.all))
			}
		})
	}
}

// packageStatements returns the string expressions of the package's Go files (not
// its tests) that read like SQL statements, by position, their constant parts folded
// and every other part replaced by a parameter.
func packageStatements(t *testing.T, fsys fs.FS) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	names, err := fs.Glob(fsys, "*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	consts := map[string]ast.Expr{} // package-level and local constants by name
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
		ast.Inspect(f, func(n ast.Node) bool {
			if d, ok := n.(*ast.GenDecl); ok && d.Tok == token.CONST {
				for _, spec := range d.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, id := range vs.Names {
						if i < len(vs.Values) {
							consts[id.Name] = vs.Values[i]
						}
					}
				}
			}
			return true
		})
	}
	var fold func(e ast.Expr, depth int) string
	fold = func(e ast.Expr, depth int) string {
		switch e := e.(type) {
		case *ast.BasicLit:
			if e.Kind == token.STRING {
				if s, err := strconv.Unquote(e.Value); err == nil {
					return s
				}
			}
		case *ast.Ident:
			if c, ok := consts[e.Name]; ok && depth < 20 {
				return fold(c, depth+1)
			}
		case *ast.ParenExpr:
			return fold(e.X, depth)
		case *ast.BinaryExpr:
			if e.Op == token.ADD {
				return fold(e.X, depth) + fold(e.Y, depth)
			}
		}
		return " $? "
	}
	out := map[string]string{}
	for _, f := range files {
		var stack []ast.Node
		ast.Inspect(f, func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			parent := ast.Node(nil)
			if len(stack) > 0 {
				parent = stack[len(stack)-1]
			}
			stack = append(stack, n)
			if p, ok := parent.(*ast.BinaryExpr); ok && p.Op == token.ADD {
				return true // part of a larger expression
			}
			switch e := n.(type) {
			case *ast.BasicLit, *ast.BinaryExpr:
				s := fold(e.(ast.Expr), 0)
				if strings.Contains(s, "FROM") || strings.Contains(s, "UPDATE") || strings.Contains(s, "JOIN") {
					out[fset.Position(n.Pos()).String()] = s
				}
			}
			return true
		})
	}
	return out
}

// everyUserStatements read every user's rows by design, and why: on Citus each is
// a query of every shard.
var everyUserStatements = map[string]string{
	qUsers:        "Store.Users lists every user, for operators' commands (export of all users, re-embedding)",
	qVecMostOfDim: "Store.VectorIndexWanted asks whether any user would walk an HNSW index, after a bulk load",
}

// TestNoCrossUserJoins: no statement of the package, nor any trigger function of
// the schema, reads a per-user table beside another without tying it to one user.
func TestNoCrossUserJoins(t *testing.T) {
	ctx := context.Background()
	s := openRanks(t)
	users := map[string]string{}
	rows, err := s.pool.Query(ctx, `SELECT c.relname, bool_or(a.attname = 'u') FROM pg_class c
		JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
		WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') GROUP BY c.relname`)
	if err != nil {
		t.Fatal(err)
	}
	var (
		table string
		hasU  bool
	)
	if _, err := pgx.ForEachRow(rows, []any{&table, &hasU}, func() error {
		_, listed := notPerUser[table]
		if col := userColumn(table, map[string]bool{"u": hasU}); col != "" && !listed {
			users[table] = col
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(users) < 10 {
		t.Fatalf("only %d per-user tables found: %v", len(users), users)
	}

	stmts := packageStatements(t, os.DirFS("."))
	if len(stmts) < 50 {
		t.Fatalf("only %d statements found in the package's source", len(stmts))
	}
	rows, err = s.pool.Query(ctx, `SELECT p.proname, p.prosrc FROM pg_proc p
		WHERE p.pronamespace = current_schema()::regnamespace AND p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql')`)
	if err != nil {
		t.Fatal(err)
	}
	var name, body string
	functions := 0
	if _, err := pgx.ForEachRow(rows, []any{&name, &body}, func() error {
		stmts["function "+name] = body
		functions++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if functions < 5 {
		t.Fatalf("only %d trigger functions found", functions)
	}
	checked := 0
	for _, at := range slices.Sorted(maps.Keys(stmts)) {
		// A statement that is all constant is read whole: it names its user even
		// when it reads one table, unless it reads every user's rows by design.
		_, everyUser := everyUserStatements[strings.Join(strings.Fields(stmts[at]), " ")]
		problems := crossUserJoins(stmts[at], users, !strings.Contains(stmts[at], "$?") && !everyUser)
		if len(tableRefs(tokenize(stmts[at]), users)) > 0 {
			checked++
		}
		for _, p := range problems {
			t.Errorf("%s: %s\n\t%s", at, p, strings.Join(strings.Fields(stmts[at]), " "))
		}
	}
	t.Logf("%d statements and trigger functions read, %d of them on per-user tables", len(stmts), checked)
}

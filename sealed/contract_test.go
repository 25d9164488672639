package sealed_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

// passThrough names, per type of the sealed store, the contract methods it leaves to
// the inner store because they hold no text. Every other method of the contract is
// defined by the sealed store: a method added to the contract fails this test until
// it is sealed, opened, or named here.
var passThrough = map[string][]string{
	"Store": {"Users", "Purge", "Ping", "Close", "AppendAudit", "Audit", "Setting", "SwapSetting", "ResealRows",
		"CreateKey", "KeyByHash", "Keys", "RevokeKey", "ExtendJob", "ReleaseJob", "JobUsage", "JobTokens"},
	"readTx": {"Now", "Keys", "MaxRank", "UserRows", "TranscriptCheckpoint", "References", "CountEpisodes",
		"VectorCandidates", "CountUnembedded", "VectorModels", "ExportReferences", "ExportVectors",
		"ExportTranscriptCheckpoints", "ExportTranscriptLinks"},
	"tx": nil, // every write is defined, so that none reaches the store by accident
}

func TestEveryMethodClassified(t *testing.T) {
	defined := map[string][]string{}
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pkgs["sealed"].Files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			name := typ.(*ast.Ident).Name
			defined[name] = append(defined[name], fn.Name.Name)
		}
	}
	methods := func(iface any) []string {
		typ := reflect.TypeOf(iface).Elem()
		var out []string
		for i := range typ.NumMethod() {
			out = append(out, typ.Method(i).Name)
		}
		return out
	}
	read := methods((*factbase.ReadTx)(nil))
	contract := map[string][]string{
		"Store":  methods((*factbase.Store)(nil)),
		"readTx": read,
		"tx":     slices.DeleteFunc(methods((*factbase.Tx)(nil)), func(m string) bool { return slices.Contains(read, m) }),
	}
	for typ, ms := range contract {
		for _, m := range ms {
			own, passed := slices.Contains(defined[typ], m), slices.Contains(passThrough[typ], m)
			switch {
			case own && passed:
				t.Errorf("%s.%s is defined and named as passed through", typ, m)
			case !own && !passed:
				t.Errorf("%s.%s is neither defined nor named as passed through: does it hold a text?", typ, m)
			}
		}
		for _, m := range passThrough[typ] {
			if !slices.Contains(ms, m) {
				t.Errorf("%s.%s is named as passed through but is not in the contract", typ, m)
			}
		}
	}
}

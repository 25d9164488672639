package canon

import (
	"strings"
	"testing"

	"github.com/factbase/factbase"
)

func TestLoadAliases(t *testing.T) {
	tests := []struct {
		name     string
		file     string
		want     map[string]string
		wantErr  string // substring of the error; "" for none
		wantCode string
	}{
		{name: "empty object", file: `{}`, want: map[string]string{}},
		{name: "entries", file: "{\n  \"crypto\": \"cryptocurrency\",\n  \"Flicks\": \"Movies\"\n}\n",
			want: map[string]string{"crypto": "cryptocurrency", "Flicks": "Movies"}},
		{name: "syntax error names line", file: "{\n  \"a\": \"b\",\n  \"c\" \"d\"\n}",
			wantErr: "line 3", wantCode: factbase.EINVALID},
		{name: "number value", file: "{\n\"a\": \"b\",\n\"c\": 3\n}", wantErr: `line 3, column 7: the topic for alias "c" is not a string`, wantCode: factbase.EINVALID},
		{name: "object value", file: `{"c": {"x": 1}}`, wantErr: "line 1", wantCode: factbase.EINVALID},
		{name: "array", file: `["a", "b"]`, wantErr: "want a JSON object", wantCode: factbase.EINVALID},
		{name: "empty key", file: "{\n\"  \": \"b\"}", wantErr: "line 2", wantCode: factbase.EINVALID},
		{name: "empty value", file: `{"a": "!!"}`, wantErr: `topic for alias "a" is empty`, wantCode: factbase.EINVALID},
		{name: "duplicate after normalising", file: "{\"crypto\": \"x\",\n \"Cryptos\": \"y\"}", wantErr: "line 2", wantCode: factbase.EINVALID},
		{name: "truncated", file: "{\"a\": \"b\",", wantErr: "unexpected end", wantCode: factbase.EINVALID},
		{name: "trailing data", file: `{"a": "b"} {}`, wantErr: "after the object", wantCode: factbase.EINVALID},
		{name: "empty file", file: ``, wantErr: "line 1", wantCode: factbase.EINVALID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LoadAliases(strings.NewReader(tc.file))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("LoadAliases(%q) error = %v, want one containing %q", tc.file, err, tc.wantErr)
				}
				if code := factbase.ErrorCode(err); code != tc.wantCode {
					t.Errorf("LoadAliases(%q) error code = %q, want %q", tc.file, code, tc.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadAliases(%q) error = %v", tc.file, err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("LoadAliases(%q) = %v, want %v", tc.file, got, tc.want)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("LoadAliases(%q)[%q] = %q, want %q", tc.file, k, got[k], v)
				}
			}
		})
	}
}

func TestLoadAliasesTooLarge(t *testing.T) {
	big := `{"a": "` + strings.Repeat("b", MaxAliasFile) + `"}`
	_, err := LoadAliases(strings.NewReader(big))
	if code := factbase.ErrorCode(err); code != factbase.EINVALID {
		t.Errorf("LoadAliases(%d bytes) code = %q (%v), want %q", len(big), code, err, factbase.EINVALID)
	}
}

func TestDefaultAliasesNormalised(t *testing.T) {
	for k, v := range DefaultAliases() {
		if Normalize(k) != k {
			t.Errorf("default alias key %q is not in Normalize form (%q)", k, Normalize(k))
		}
		if Normalize(v) != v {
			t.Errorf("default alias %q -> %q: topic not in Normalize form (%q)", k, v, Normalize(v))
		}
		if _, chained := defaultAliases[v]; chained {
			t.Errorf("default alias %q -> %q, itself an alias", k, v)
		}
	}
	// A copy: changing it does not change the defaults.
	m := DefaultAliases()
	m["crypto"] = "x"
	if DefaultAliases()["crypto"] != "cryptocurrency" {
		t.Errorf("DefaultAliases shares its map")
	}
}

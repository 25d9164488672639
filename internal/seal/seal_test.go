package seal

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func testKey(t *testing.T) *Key {
	t.Helper()
	k, err := ParseKey(NewKey())
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestSealOpen(t *testing.T) {
	kr, _ := NewKeyring(testKey(t))
	s := kr.Seal("u1", "f1", "Ana is allergic to peanuts")
	if !IsSealed(s) || strings.Contains(s, "peanut") || KeyID(s) != kr.KeyID() {
		t.Fatalf("sealed %q", s)
	}
	if s2 := kr.Seal("u1", "f1", "Ana is allergic to peanuts"); s2 == s {
		t.Fatal("two seals of one text are equal: the nonce is not random")
	}
	got, err := kr.Open("u1", "f1", s)
	if err != nil || got != "Ana is allergic to peanuts" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	for _, c := range []struct{ user, row string }{{"u2", "f1"}, {"u1", "f2"}, {"u1f", "1"}} {
		if _, err := kr.Open(c.user, c.row, s); !errors.Is(err, ErrOpen) {
			t.Errorf("opened as user %q row %q: %v", c.user, c.row, err)
		}
	}
	other, _ := NewKeyring(testKey(t))
	if _, err := other.Open("u1", "f1", s); !errors.Is(err, ErrOpen) || !strings.Contains(err.Error(), kr.KeyID()) {
		t.Errorf("another key: %v", err)
	}
	// Damage: a flipped bit, a cut, bad base64.
	body, _ := base64.RawStdEncoding.DecodeString(s[len(Prefix)+9:])
	body[len(body)-1] ^= 1
	for _, bad := range []string{s[:len(Prefix)+9] + base64.RawStdEncoding.EncodeToString(body), s[:len(s)-10], s + "!", Prefix + "zz"} {
		if _, err := kr.Open("u1", "f1", bad); !errors.Is(err, ErrOpen) {
			t.Errorf("damaged %q opened: %v", bad, err)
		}
	}
	if kr.Seal("u1", "f1", "") != "" {
		t.Error("the empty text is sealed")
	}
	if got, err := kr.Open("u1", "f1", "plain"); got != "plain" || err != nil {
		t.Errorf("Open of a text not sealed = %q, %v", got, err)
	}
}

func TestParseKey(t *testing.T) {
	raw := NewKey()
	want, _ := ParseKey(raw)
	for name, b := range map[string][]byte{
		"hex":    []byte(hex.EncodeToString(raw) + "\n"),
		"base64": []byte(" " + base64.StdEncoding.EncodeToString(raw) + "\n"),
		"raw64":  []byte(base64.RawStdEncoding.EncodeToString(raw)),
	} {
		k, err := ParseKey(b)
		if err != nil || k.ID() != want.ID() {
			t.Errorf("%s: %v, id %v want %s", name, err, k, want.ID())
		}
	}
	for _, b := range [][]byte{nil, []byte("short"), raw[:31], append(raw, 1), []byte(strings.Repeat("zz", 32))} {
		if _, err := ParseKey(b); err == nil || !strings.Contains(err.Error(), "32 random bytes") {
			t.Errorf("ParseKey(%d bytes) = %v", len(b), err)
		}
	}
}

func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.key")
	k, err := WriteKeyFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 || fi.Size() != KeySize {
		t.Errorf("key file mode %v size %d", fi.Mode(), fi.Size())
	}
	if _, err := WriteKeyFile(path); err == nil {
		t.Error("WriteKeyFile overwrote a key")
	}
	k2, err := LoadKeyFile(path)
	if err != nil || k2.ID() != k.ID() {
		t.Fatalf("LoadKeyFile = %v, %v", k2, err)
	}
	if _, err := LoadKeyFile(path + ".missing"); err == nil {
		t.Error("a missing key file loaded")
	}
}

func TestRecordAndRotation(t *testing.T) {
	old, nk := testKey(t), testKey(t)
	kr, rec := NewKeyring(old)
	rec, err := ParseRecord(rec.String())
	if err != nil {
		t.Fatal(err)
	}
	sealedOld := kr.Seal("u", "r", "text of the old key")
	blind := kr.Blind("oolong")

	if _, err := OpenKeyring(rec, nk); err == nil || !strings.Contains(err.Error(), old.ID()) {
		t.Fatalf("a wrong key opened the database: %v", err)
	}
	kr1, err := OpenKeyring(rec, old)
	if err != nil || kr1.Blind("oolong") != blind {
		t.Fatalf("reopen: %v", err)
	}

	// Rotation: servers with the old key and with the new key read both and seal new.
	kr2, rot, err := kr1.Rotate(rec, nk)
	if err != nil {
		t.Fatal(err)
	}
	if kr2.KeyID() != nk.ID() || !kr2.Stale(sealedOld) {
		t.Fatalf("rotating keyring seals with %s", kr2.KeyID())
	}
	rot, _ = ParseRecord(rot.String())
	for _, k := range []*Key{old, nk} {
		r, err := OpenKeyring(rot, k)
		if err != nil {
			t.Fatalf("key %s during the rotation: %v", k.ID(), err)
		}
		if r.KeyID() != nk.ID() || r.Blind("oolong") != blind {
			t.Fatalf("key %s during the rotation seals with %s", k.ID(), r.KeyID())
		}
		if k == old {
			if got, err := r.Open("u", "r", sealedOld); err != nil || got != "text of the old key" {
				t.Fatalf("old text during the rotation: %q %v", got, err)
			}
		}
	}
	if _, _, err := kr1.Rotate(rot, testKey(t)); err == nil {
		t.Error("a second rotation started while one runs")
	}
	if _, again, err := kr1.Rotate(rot, nk); err != nil || again.String() != rot.String() {
		t.Errorf("resuming the rotation: %v", err)
	}
	done := kr2.Finish()
	if !slices.Equal(done.Keys, []string{nk.ID()}) || done.NewKey != "" {
		t.Fatalf("finished record %+v", done)
	}
	if _, err := OpenKeyring(done, old); err == nil {
		t.Error("the old key opens the database after the rotation")
	}
	r3, err := OpenKeyring(done, nk)
	if err != nil || r3.Blind("oolong") != blind {
		t.Fatalf("new key after the rotation: %v", err)
	}
	if _, err := ParseRecord(`{"version":2}`); err == nil {
		t.Error("a record of another version parsed")
	}
}

func TestBlindAndTerms(t *testing.T) {
	kr, _ := NewKeyring(testKey(t))
	other, _ := NewKeyring(testKey(t))
	if kr.Blind("oolong") != kr.Blind("oolong") || kr.Blind("oolong") == kr.Blind("sencha") || kr.Blind("oolong") == other.Blind("oolong") {
		t.Error("Blind is not a keyed function of the value")
	}
	if kr.Blind("") != "" {
		t.Error("the empty value has a blind index")
	}
	if got := Words("Café allergies, v2.3 Allergy"); !slices.Equal(got, []string{"cafe", "allergi", "v2", "3", "allergi"}) {
		t.Errorf("Words = %q", got)
	}
	idx := kr.IndexText("Ana is allergic to peanuts", "New York")
	if strings.Contains(idx, "peanut") || len(strings.Fields(idx)) != 7 {
		t.Errorf("IndexText = %q", idx)
	}
	q := kr.QueryTerms([]string{"peanut", "new york", "!!"})
	if len(q) != 3 || q[2] != "" || !strings.Contains(idx, q[0]) || !strings.Contains(idx, q[1]) {
		t.Errorf("QueryTerms = %q for index %q", q, idx)
	}
	if other.QueryTerms([]string{"peanut"})[0] == q[0] {
		t.Error("terms do not depend on the index key")
	}
}

func TestSealExact(t *testing.T) {
	k := testKey(t)
	kr, rec := NewKeyring(k)
	s := kr.SealExact("u1", "pets", "dog")
	if !strings.HasPrefix(s, ExactPrefix) || strings.Contains(s, "dog") || IsSealed(s) {
		t.Fatalf("sealed %q", s)
	}
	if s2 := kr.SealExact("u1", "pets", "dog"); s2 != s {
		t.Fatalf("two exact seals of one text differ: %q, %q", s, s2)
	}
	for _, c := range []struct{ user, row, plain string }{{"u2", "pets", "dog"}, {"u1", "pet", "dog"}, {"u1", "pets", "dogs"}} {
		if kr.SealExact(c.user, c.row, c.plain) == s {
			t.Errorf("SealExact(%q, %q, %q) equals the seal of (u1, pets, dog)", c.user, c.row, c.plain)
		}
	}
	if got, err := kr.OpenExact("u1", "pets", s); got != "dog" || err != nil {
		t.Fatalf("OpenExact = %q, %v", got, err)
	}
	for _, c := range []struct{ user, row, s string }{{"u2", "pets", s}, {"u1", "pet", s}, {"u1", "pets", s[:len(s)-2]},
		{"u1", "pets", "dog"}, {"u1", "pets", ExactPrefix + "!!"}} {
		if _, err := kr.OpenExact(c.user, c.row, c.s); !errors.Is(err, ErrOpen) {
			t.Errorf("OpenExact(%q, %q, %q) = %v, want ErrOpen", c.user, c.row, c.s, err)
		}
	}
	if kr.SealExact("u1", "pets", "") != "" {
		t.Error("the empty text is sealed")
	}
	// Another database (another index key) neither makes nor opens the same text;
	// a rotation of the data key keeps the index key, so its texts stay equal.
	other, _ := NewKeyring(k)
	if other.SealExact("u1", "pets", "dog") == s {
		t.Error("two index keys seal a text equally")
	}
	if _, err := other.OpenExact("u1", "pets", s); !errors.Is(err, ErrOpen) {
		t.Errorf("another index key opened it: %v", err)
	}
	rotated, _, err := kr.Rotate(rec, testKey(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := rotated.SealExact("u1", "pets", "dog"); got != s {
		t.Errorf("after a rotation SealExact = %q, want %q", got, s)
	}
}

// FuzzOpen: a key file, a key record and a sealed text of any bytes never panic,
// and what opens is what was sealed.
func FuzzOpen(f *testing.F) {
	k, _ := ParseKey(make([]byte, KeySize))
	kr, rec := NewKeyring(k)
	f.Add([]byte("0000"), rec.String(), kr.Seal("u", "r", "text"), "text")
	f.Add(make([]byte, KeySize), `{"version":1,"keys":["x"],"index_key":"fb1.x"}`, Prefix+"00000000.AAAA", "")
	f.Fuzz(func(t *testing.T, keyFile []byte, record, sealed, plain string) {
		if k2, err := ParseKey(keyFile); err == nil {
			if r, err := ParseRecord(record); err == nil {
				OpenKeyring(r, k2)
			}
		}
		if got, err := kr.Open("u", "r", sealed); err == nil && IsSealed(sealed) && got == "" {
			t.Errorf("%q opened to nothing", sealed)
		}
		if got, err := kr.Open("u", "r", kr.Seal("u", "r", plain)); err != nil || got != plain {
			t.Errorf("round trip of %q: %q, %v", plain, got, err)
		}
		kr.IndexText(sealed, plain)
		kr.QueryTerms([]string{sealed, plain})
	})
}

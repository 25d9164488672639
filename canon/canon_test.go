package canon

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/factbase/factbase"
)

// vectors is the fake embedding table: Normalize forms to small fixed vectors, made up
// by hand so that "science fiction book" and "sci-fi book" are close (cosine 0.995),
// "dog breed" and "pet" fairly close (0.909) and "houseplant" far from everything.
var vectors = map[string][]float32{
	"science fiction book": {1, 0.1, 0},
	"sci-fi book":          {1, 0.2, 0},
	"pet":                  {0, 1, 0},
	"dog breed":            {0.4, 0.9, 0.1},
	"tea":                  {-1, 0, 0},
	"houseplant":           {0.1, 0.1, 1},
	"indoor plant":         {0.2, 0.1, 1},
	"short":                {1},
}

// fakeEmbed embeds from the vectors table and counts its calls.
type fakeEmbed struct {
	calls atomic.Int64
	fail  error
}

func (f *fakeEmbed) embed(ctx context.Context, text string) ([]float32, error) {
	f.calls.Add(1)
	if f.fail != nil {
		return nil, f.fail
	}
	v, ok := vectors[text]
	if !ok {
		return nil, fmt.Errorf("no vector for %q", text)
	}
	return v, nil
}

// fakeTeach answers from a table and counts its calls.
type fakeTeach struct {
	calls   atomic.Int64
	answers map[string]teachAnswer
}

type teachAnswer struct {
	topic string
	conf  float64
	err   error
}

func (f *fakeTeach) teach(ctx context.Context, raw string, known []string) (string, float64, error) {
	f.calls.Add(1)
	a, ok := f.answers[raw]
	if !ok {
		return "", 0, errors.New("teacher has no answer")
	}
	return a.topic, a.conf, a.err
}

func TestCanonicalize(t *testing.T) {
	errTeacher := &factbase.Error{Code: factbase.EUNAVAILABLE, Message: "teacher down"}
	answers := map[string]teachAnswer{
		"houseplants":   {topic: "Indoor Plants", conf: 0.9},
		"Dog breeds":    {topic: "PETS", conf: 0.85},
		"cinema things": {topic: "films", conf: 0.95},
		"odd topic":     {topic: "odd thing", conf: 0.3},
		"broken":        {err: errTeacher},
		"nan":           {topic: "nan topic", conf: math.NaN()},
		"too sure":      {topic: "sure thing", conf: 7},
		"empty answer":  {topic: "  ", conf: 0.9},
	}
	known := []string{"sci-fi book", "pet", "Houseplants", "tea"}
	tests := []struct {
		name       string
		opts       func(e *fakeEmbed, tt *fakeTeach) Options
		raw        string
		known      []string
		want       Decision
		wantCode   string // error code; "" for no error
		wantEmbeds bool   // whether the embedder must have been called
		wantTeach  int64  // teacher calls
	}{
		{name: "alias", raw: "Cryptos", want: Decision{"cryptocurrency", MethodAlias, 1}},
		{name: "alias multi-word", raw: "my favourite TV series", want: Decision{"tv show", MethodAlias, 1}},
		{name: "alias canonical topic", raw: "Movies", want: Decision{"movie", MethodAlias, 1}},
		{name: "alias holiday destinations", raw: "holiday destinations", want: Decision{"vacation destination", MethodAlias, 1}},
		{name: "alias colour", raw: "colours", want: Decision{"color", MethodAlias, 1}},
		{name: "alias genre of music", raw: "genres of music", want: Decision{"music genre", MethodAlias, 1}},
		{name: "alias kind of films", raw: "kinds of films", want: Decision{"movie genre", MethodAlias, 1}},
		{name: "alias beats embedding", raw: "films", known: known,
			opts: func(e *fakeEmbed, _ *fakeTeach) Options { return Options{Embed: e.embed} },
			want: Decision{"movie", MethodAlias, 1}},
		{name: "user alias", raw: "Flicks!",
			opts: func(*fakeEmbed, *fakeTeach) Options {
				return Options{Aliases: map[string]string{"flicks": "Cinema Pictures"}}
			},
			want: Decision{"cinema picture", MethodAlias, 1}},
		{name: "user alias chains to default", raw: "cine",
			opts: func(*fakeEmbed, *fakeTeach) Options { return Options{Aliases: map[string]string{"cine": "films"}} },
			want: Decision{"movie", MethodAlias, 1}},
		{name: "user alias switches default off", raw: "shows",
			opts: func(*fakeEmbed, *fakeTeach) Options { return Options{Aliases: map[string]string{"show": "show"}} },
			want: Decision{"show", MethodFallback, FallbackConfidence}},
		{name: "exact keeps known spelling", raw: "houseplant", known: known, want: Decision{"Houseplants", MethodExact, 1}},
		{name: "exact after normalising", raw: "My favorite Sci-Fi Books.", known: known, want: Decision{"sci-fi book", MethodExact, 1}},
		{name: "kind of, exact", raw: "types of tea", known: known, want: Decision{"tea", MethodExact, 1}},
		{name: "kind of, fallback", raw: "sorts of cheese", want: Decision{"cheese", MethodFallback, FallbackConfidence}},
		{name: "fallback without embedder", raw: "science fiction books", known: known,
			want: Decision{"science fiction book", MethodFallback, FallbackConfidence}},
		{name: "embedding", raw: "Science Fiction Books", known: known,
			opts:       func(e *fakeEmbed, _ *fakeTeach) Options { return Options{Embed: e.embed} },
			want:       Decision{"sci-fi book", MethodEmbedding, 0.9952},
			wantEmbeds: true},
		{name: "embedding below threshold", raw: "dog breeds", known: known,
			opts:       func(e *fakeEmbed, _ *fakeTeach) Options { return Options{Embed: e.embed} },
			want:       Decision{"dog breed", MethodFallback, FallbackConfidence},
			wantEmbeds: true},
		{name: "embedding with lower threshold", raw: "dog breeds", known: known,
			opts:       func(e *fakeEmbed, _ *fakeTeach) Options { return Options{Embed: e.embed, Threshold: 0.9} },
			want:       Decision{"pet", MethodEmbedding, 0.9091},
			wantEmbeds: true},
		{name: "embedding skipped without known topics", raw: "science fiction books",
			opts: func(e *fakeEmbed, _ *fakeTeach) Options { return Options{Embed: e.embed} },
			want: Decision{"science fiction book", MethodFallback, FallbackConfidence}},
		{name: "embedding error falls back and reports", raw: "science fiction books", known: known,
			opts: func(e *fakeEmbed, _ *fakeTeach) Options {
				e.fail = &factbase.Error{Code: factbase.ETIMEOUT, Message: "slow"}
				return Options{Embed: e.embed}
			},
			want: Decision{"science fiction book", MethodFallback, FallbackConfidence}, wantCode: factbase.ETIMEOUT, wantEmbeds: true},
		{name: "embedding dimension mismatch", raw: "short", known: known,
			opts: func(e *fakeEmbed, _ *fakeTeach) Options { return Options{Embed: e.embed} },
			want: Decision{"short", MethodFallback, FallbackConfidence}, wantCode: factbase.EINTERNAL, wantEmbeds: true},
		{name: "teacher not asked when embedding is sure", raw: "science fiction books", known: known,
			opts: func(e *fakeEmbed, tt *fakeTeach) Options { return Options{Embed: e.embed, Teach: tt.teach} },
			want: Decision{"sci-fi book", MethodEmbedding, 0.9952}, wantEmbeds: true},
		{name: "teacher asked below TeachBelow", raw: "science fiction books", known: known,
			opts: func(e *fakeEmbed, tt *fakeTeach) Options {
				tt.answers["science fiction books"] = teachAnswer{topic: "sci-fi books", conf: 0.999}
				return Options{Embed: e.embed, Teach: tt.teach, TeachBelow: 0.999}
			},
			want: Decision{"sci-fi book", MethodTeacher, 0.999}, wantEmbeds: true, wantTeach: 1},
		{name: "teacher", raw: "houseplants",
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"indoor plant", MethodTeacher, 0.9}, wantTeach: 1},
		{name: "teacher answer matched to known", raw: "Dog breeds", known: known,
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"pet", MethodTeacher, 0.85}, wantTeach: 1},
		{name: "teacher answer through aliases", raw: "cinema things",
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"movie", MethodTeacher, 0.95}, wantTeach: 1},
		{name: "teacher less sure than fallback", raw: "odd topic",
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"odd topic", MethodFallback, FallbackConfidence}, wantTeach: 1},
		{name: "teacher NaN confidence", raw: "nan",
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"nan", MethodFallback, FallbackConfidence}, wantTeach: 1},
		{name: "teacher confidence clamped", raw: "too sure",
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"sure thing", MethodTeacher, 1}, wantTeach: 1},
		{name: "teacher error falls back and reports", raw: "broken",
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"broken", MethodFallback, FallbackConfidence}, wantCode: factbase.EUNAVAILABLE, wantTeach: 1},
		{name: "teacher empty answer", raw: "empty answer",
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"empty answer", MethodFallback, FallbackConfidence}, wantCode: factbase.EINTERNAL, wantTeach: 1},
		{name: "teacher not asked for aliases", raw: "films",
			opts: func(_ *fakeEmbed, tt *fakeTeach) Options { return Options{Teach: tt.teach} },
			want: Decision{"movie", MethodAlias, 1}},
		{name: "empty", raw: " my favorite ", want: Decision{}, wantCode: factbase.EINVALID},
		{name: "punctuation only", raw: "?!", want: Decision{}, wantCode: factbase.EINVALID},
		{name: "too long", raw: strings.Repeat("word ", 40), want: Decision{}, wantCode: factbase.EINVALID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e := &fakeEmbed{}
			tt := &fakeTeach{answers: map[string]teachAnswer{}}
			for k, v := range answers {
				tt.answers[k] = v
			}
			var o Options
			if tc.opts != nil {
				o = tc.opts(e, tt)
			}
			c := New(o)
			got, err := c.Canonicalize(context.Background(), tc.raw, tc.known)
			if code := factbase.ErrorCode(err); code != tc.wantCode {
				t.Errorf("Canonicalize(%q) error = %v (code %q), want code %q", tc.raw, err, code, tc.wantCode)
			}
			if got.Topic != tc.want.Topic || got.Method != tc.want.Method || math.Abs(got.Confidence-tc.want.Confidence) > 5e-4 {
				t.Errorf("Canonicalize(%q) = %+v, want %+v", tc.raw, got, tc.want)
			}
			if embeds := e.calls.Load() > 0; embeds != tc.wantEmbeds {
				t.Errorf("embedder called: %v, want %v", embeds, tc.wantEmbeds)
			}
			if n := tt.calls.Load(); n != tc.wantTeach {
				t.Errorf("teacher called %d times, want %d", n, tc.wantTeach)
			}
		})
	}
}

func TestCanonicalizeCache(t *testing.T) {
	e := &fakeEmbed{}
	tt := &fakeTeach{answers: map[string]teachAnswer{"houseplants": {topic: "indoor plants", conf: 0.9}}}
	c := New(Options{Embed: e.embed, Teach: tt.teach})
	ctx := context.Background()
	known := []string{"sci-fi book", "pet"}

	first, err := c.Canonicalize(ctx, "Science fiction books", known)
	if err != nil {
		t.Fatal(err)
	}
	embeds := e.calls.Load()
	if embeds != 3 {
		t.Errorf("first decision embedded %d texts, want 3 (the topic and two known)", embeds)
	}
	// The same normal form with the known set in another order: a cache hit.
	again, err := c.Canonicalize(ctx, "science fiction book", []string{"pet", "sci-fi book"})
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Errorf("cached decision = %+v, want %+v", again, first)
	}
	if n := e.calls.Load(); n != embeds {
		t.Errorf("embedder called %d more times on a cache hit, want 0", n-embeds)
	}
	if hits, misses := c.CacheStats(); hits != 1 || misses != 1 {
		t.Errorf("CacheStats() = %d hits, %d misses, want 1, 1", hits, misses)
	}

	// A changed known set is a new version: decided again, but the known topics'
	// vectors come from the vector cache, so only the new one is embedded.
	if _, err := c.Canonicalize(ctx, "science fiction books", append(known, "houseplant")); err != nil {
		t.Fatal(err)
	}
	if n := e.calls.Load() - embeds; n != 1 {
		t.Errorf("new known set embedded %d texts, want 1", n)
	}

	// Teacher decisions are cached too.
	for i := 0; i < 3; i++ {
		d, err := c.Canonicalize(ctx, "houseplants", nil)
		if err != nil || d.Method != MethodTeacher {
			t.Fatalf("Canonicalize(houseplants) = %+v, %v, want a teacher decision", d, err)
		}
	}
	if n := tt.calls.Load(); n != 1 {
		t.Errorf("teacher called %d times for one phrase, want 1", n)
	}
}

func TestCanonicalizeErrorsNotCached(t *testing.T) {
	tt := &fakeTeach{answers: map[string]teachAnswer{"broken": {err: errors.New("down")}}}
	c := New(Options{Teach: tt.teach})
	for i := 0; i < 2; i++ {
		d, err := c.Canonicalize(context.Background(), "broken", nil)
		if err == nil {
			t.Fatalf("Canonicalize(broken) error = nil, want the teacher's")
		}
		if d.Method != MethodFallback || d.Topic != "broken" {
			t.Errorf("Canonicalize(broken) = %+v, want the fallback decision", d)
		}
	}
	if n := tt.calls.Load(); n != 2 {
		t.Errorf("teacher called %d times, want 2 (failures are not cached)", n)
	}
}

func TestCanonicalizeContextDone(t *testing.T) {
	e := &fakeEmbed{}
	c := New(Options{Embed: e.embed})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, err := c.Canonicalize(ctx, "science fiction books", []string{"sci-fi book"})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Canonicalize with a canceled context: error = %v, want context.Canceled", err)
	}
	if d.Method != MethodFallback {
		t.Errorf("Canonicalize with a canceled context = %+v, want a fallback decision", d)
	}
	if n := e.calls.Load(); n != 0 {
		t.Errorf("embedder called %d times after cancel, want 0", n)
	}
}

func TestCanonicalizeConcurrent(t *testing.T) {
	e := &fakeEmbed{}
	tt := &fakeTeach{answers: map[string]teachAnswer{
		"houseplants": {topic: "indoor plants", conf: 0.9},
		"dog breeds":  {topic: "dog breeds", conf: 0.7},
	}}
	c := New(Options{Embed: e.embed, Teach: tt.teach})
	phrases := []struct{ raw, want string }{
		{"Science fiction books", "sci-fi book"},
		{"houseplants", "indoor plant"},
		{"Cryptos", "cryptocurrency"},
		{"pets", "pet"},
		{"dog breeds", "dog breed"},
	}
	known := []string{"sci-fi book", "pet"}
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				p := phrases[(g+i)%len(phrases)]
				d, err := c.Canonicalize(context.Background(), p.raw, known)
				if err != nil || d.Topic != p.want {
					select {
					case errs <- fmt.Sprintf("Canonicalize(%q) = %+v, %v, want topic %q", p.raw, d, err, p.want):
					default:
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for msg := range errs {
		t.Error(msg)
	}
	if hits, _ := c.CacheStats(); hits == 0 {
		t.Errorf("no cache hits after 3200 calls over 5 phrases")
	}
}

func TestLRUBounded(t *testing.T) {
	l := newLRU[string, int](2)
	l.put("a", 1)
	l.put("b", 2)
	if _, ok := l.get("a"); !ok { // a is now the most recent
		t.Fatalf("get(a) missed")
	}
	l.put("c", 3) // evicts b
	if _, ok := l.get("b"); ok {
		t.Errorf("get(b) hit after eviction")
	}
	if v, ok := l.get("a"); !ok || v != 1 {
		t.Errorf("get(a) = %d, %v, want 1, true", v, ok)
	}
	if v, ok := l.get("c"); !ok || v != 3 {
		t.Errorf("get(c) = %d, %v, want 3, true", v, ok)
	}
	l.put("c", 4)
	if v, _ := l.get("c"); v != 4 {
		t.Errorf("get(c) after update = %d, want 4", v)
	}
	if n := l.len(); n != 2 {
		t.Errorf("len() = %d, want 2", n)
	}
}

func TestFingerprint(t *testing.T) {
	a := fingerprint([]string{"x", "y", "z"})
	if b := fingerprint([]string{"z", "x", "y"}); a != b {
		t.Errorf("fingerprint depends on order: %q vs %q", a, b)
	}
	for _, other := range [][]string{{"x", "y"}, {"x", "y", "z", "z"}, {"x", "y", "w"}, nil} {
		if b := fingerprint(other); a == b {
			t.Errorf("fingerprint(%q) = fingerprint([x y z]) = %q", other, a)
		}
	}
}

func BenchmarkCanonicalizeCached(b *testing.B) {
	c := New(Options{})
	known := []string{"movie", "book", "color", "food", "city"}
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		if _, err := c.Canonicalize(ctx, "My favorite Vacation Destinations", known); err != nil {
			b.Fatal(err)
		}
	}
}

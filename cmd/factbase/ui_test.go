package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/factbase/factbase/internal/version"
)

// The browser tests drive Debian's Chromium (headless) against "factbase serve"
// started through Main on a loopback port. They are skipped when no Chromium is
// installed, unless FACTBASE_REQUIRE_BROWSER is set (CI sets it and installs one).

func browser(t *testing.T) context.Context {
	t.Helper()
	return browserSized(t, 1100, 900)
}

func browserSized(t *testing.T, width, height int) context.Context {
	t.Helper()
	path := os.Getenv("FACTBASE_CHROMIUM")
	if path == "" {
		for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
			if p, err := exec.LookPath(name); err == nil {
				path = p
				break
			}
		}
	}
	if path == "" {
		if os.Getenv("FACTBASE_REQUIRE_BROWSER") != "" {
			t.Fatal("no Chromium found and FACTBASE_REQUIRE_BROWSER is set: install Debian's chromium package")
		}
		t.Skip("no Chromium found (apt-get install chromium); browser tests skipped")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(width, height))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 90*time.Second)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	return ctx
}

// do runs browser steps and fails the test with what was being done.
func do(t *testing.T, ctx context.Context, what string, steps ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, steps...); err != nil {
		shot(t, ctx, "failed-"+strings.ReplaceAll(what, " ", "-"))
		t.Fatalf("%s: %v", what, err)
	}
}

// until waits for a JavaScript predicate to hold.
func until(t *testing.T, ctx context.Context, what, js string) {
	t.Helper()
	wctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	if _, err := chromedp.Run(wctx, chromedp.Poll[bool](js, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		shot(t, ctx, "failed-"+strings.ReplaceAll(what, " ", "-"))
		body, _ := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body.innerText"))
		t.Fatalf("waiting for %s: %v\npage text:\n%s", what, err, body)
	}
}

// shot saves a screenshot of the page into the test's artifact directory.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Logf("screenshot %s: %v", name, err)
		return
	}
	p := filepath.Join(t.ArtifactDir(), name+".png")
	if err := os.WriteFile(p, png, 0o644); err != nil {
		t.Logf("screenshot %s: %v", name, err)
	}
}

func TestUIOpenServer(t *testing.T) {
	ctx := browser(t)
	env := testEnv(t)
	s := serve(t, env, "--no-auth")
	user := testUser
	say := func(text string) {
		t.Helper()
		body, _ := json.Marshal(map[string]string{"text": text})
		if st, _, b := call(t, "POST", s.base+"/v1/users/"+user+"/messages", "", string(body)); st != 200 {
			t.Fatalf("say %q: %d %s", text, st, b)
		}
	}
	say("My favorite teas are oolong, sencha and rooibos")
	say("My email is ada@example.com")

	// The open server asks whose memory to show.
	do(t, ctx, "open the page", chromedp.Navigate(s.base+"/"), chromedp.WaitVisible("#pick-user"),
		chromedp.SendKeys("#pick-user", user), chromedp.Click("#pick-form button"))
	until(t, ctx, "the facts said through the API", `document.querySelector('#facts-list') && document.querySelector('#facts-list').innerText.includes('rooibos') && document.querySelector('#facts-list').innerText.includes('ada@example.com')`)
	shot(t, ctx, "facts")
	// The footer names the build that serves the page (a test binary is "dev").
	if footer, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('footer').innerText`)); err != nil || footer != "Factbase "+version.Get().Version {
		t.Errorf("footer = %q (%v), want %q", footer, err, "Factbase "+version.Get().Version)
	}

	// History of a fact, as a timeline.
	do(t, ctx, "open history", chromedp.Click(`#facts-list tr button`))
	until(t, ctx, "the history timeline", `!document.querySelector('#history').hidden && document.querySelector('#history .timeline') !== null`)

	// Lists: rooibos moves from #3 to #1 with the keyboard-reachable buttons.
	do(t, ctx, "open the lists tab", chromedp.Click("#tab-lists"))
	until(t, ctx, "three teas", `document.querySelectorAll('#list-items li').length === 3`)
	do(t, ctx, "move rooibos up", chromedp.Click(`button[aria-label="Move rooibos up"]`))
	until(t, ctx, "rooibos at #2", `document.querySelector('#list-items li:nth-child(2)').dataset.value === 'rooibos'`)
	do(t, ctx, "move rooibos up again", chromedp.Click(`button[aria-label="Move rooibos up"]`))
	until(t, ctx, "rooibos at #1", `document.querySelector('#list-items li:nth-child(1)').dataset.value === 'rooibos'`)
	shot(t, ctx, "lists")
	var list struct {
		Items []struct {
			Rank  int    `json:"rank"`
			Value string `json:"value"`
		} `json:"items"`
	}
	st, _, b := call(t, "GET", s.base+"/v1/users/"+user+"/lists/favorites.tea", "", "")
	if err := json.Unmarshal(b, &list); st != 200 || err != nil || len(list.Items) != 3 || list.Items[0].Value != "rooibos" || list.Items[0].Rank != 1 || list.Items[1].Value != "oolong" {
		t.Fatalf("the API after the reorder: %d %s", st, b)
	}
	// A duplicate is reported as "already at #N".
	do(t, ctx, "add a duplicate", chromedp.SendKeys("#list-add-value", "Oolong"), chromedp.Click("#list-add button"))
	until(t, ctx, "the duplicate note", `document.querySelector('#lists-note').innerText.includes('already at #2')`)

	// Fact sheet: the empty state, then a generated sheet with an explanation.
	if has, _ := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('#tab-sheet') !== null`)); has {
		// A user who has said nothing has no sheet: the page says so.
		const other = "9d3e6f1a-5b2c-4d7e-8f90-a1b2c3d4e5f6"
		do(t, ctx, "switch to a user with no data",
			chromedp.Evaluate[chromedp.Void](`sessionStorage.setItem('fb_user', '`+other+`')`),
			chromedp.Navigate(s.base+"/?u=other#sheet"))
		until(t, ctx, "the empty sheet state", `document.querySelector('#sheet-empty') !== null`)
		shot(t, ctx, "sheet-empty")
		do(t, ctx, "switch back",
			chromedp.Evaluate[chromedp.Void](`sessionStorage.setItem('fb_user', '`+user+`')`),
			chromedp.Navigate(s.base+"/?u=back#sheet"))
		// Saying facts regenerated this user's sheet; regenerate on demand too.
		until(t, ctx, "the sheet said facts made", `document.querySelectorAll('#sheet-body details').length >= 4`)
		// A marker in the rendered sheet goes when the page renders the new one.
		do(t, ctx, "regenerate",
			chromedp.Evaluate[chromedp.Void](`document.querySelector('#sheet-body').append(Object.assign(document.createElement('span'), {id: 'stale'}))`),
			chromedp.Click("#sheet-regen"))
		until(t, ctx, "a new sheet", `document.querySelector('#stale') === null && document.querySelectorAll('#sheet-body details').length >= 4`)
		// Click on a fresh look-up: the list was just rendered anew.
		do(t, ctx, "expand an entry", chromedp.Evaluate[chromedp.Void](`document.querySelector('#sheet-body details summary').click()`))
		until(t, ctx, "the explanation", `document.querySelector('#sheet-body details[open]') && document.querySelector('#sheet-body details[open]').innerText.includes('Weight 10')`)
		shot(t, ctx, "sheet")
	} else {
		t.Log("no fact-sheet routes in this build: sheet tab not tested")
	}

	// An API error is shown next to the control: retract a fact deleted behind the page's back.
	do(t, ctx, "back to facts", chromedp.Click("#tab-facts"))
	until(t, ctx, "facts again", `document.querySelectorAll('#facts-list tr[data-id]').length > 0`)
	id, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#facts-list tr[data-id]').dataset.id`))
	if err != nil {
		t.Fatal(err)
	}
	if st, _, b := call(t, "DELETE", s.base+"/v1/users/"+user+"/facts/"+id, "", ""); st != 200 {
		t.Fatalf("delete behind the page's back: %d %s", st, b)
	}
	do(t, ctx, "retract the deleted fact",
		chromedp.Evaluate[chromedp.Void](`window.confirm = () => true`),
		chromedp.Click(`#facts-list tr[data-id="`+id+`"] button:nth-of-type(2)`))
	until(t, ctx, "the error message", `document.querySelector('#facts-error').innerText.includes('not found')`)
	shot(t, ctx, "error")
}

func TestUISignIn(t *testing.T) {
	ctx := browser(t)
	env := testEnv(t)
	out, stderr, code := run(t, env, "keys", "create", "--user", testUser, "--name", "ui", "--json")
	if code != 0 {
		t.Fatalf("keys create: %d %s", code, stderr)
	}
	var k struct {
		Key string `json:"key"`
	}
	if err := json.Unmarshal([]byte(out), &k); err != nil || k.Key == "" {
		t.Fatalf("keys create printed %q", out)
	}
	s := serve(t, env)
	if st, _, b := call(t, "POST", s.base+"/v1/users/"+testUser+"/messages", k.Key, `{"text": "My favorite editors are Helix and Neovim"}`); st != 200 {
		t.Fatalf("say: %d %s", st, b)
	}
	do(t, ctx, "open the page", chromedp.Navigate(s.base+"/"), chromedp.WaitVisible("#key"))
	// A wrong key is refused with a message next to the form.
	do(t, ctx, "sign in with a wrong key", chromedp.SendKeys("#key", "fb_wrongwrongwrongwrongwrongwrongwrongwrongwro"), chromedp.Click("#signin-form button"))
	until(t, ctx, "the sign-in error", `document.querySelector('#signin-error').innerText.length > 0`)
	shot(t, ctx, "signin-error")
	do(t, ctx, "sign in with the user key", chromedp.Evaluate[chromedp.Void](`document.querySelector('#key').value = ''`),
		chromedp.SendKeys("#key", k.Key), chromedp.Click("#signin-form button"))
	until(t, ctx, "the user's facts", `!document.querySelector('#app').hidden && document.querySelector('#facts-list').innerText.includes('Neovim')`)
	until(t, ctx, "whose memory", `document.querySelector('#who').innerText.includes('`+testUser+`')`)
	shot(t, ctx, "signed-in")
}

// TestUIPeopleConflictsMemory: a queued change is confirmed from the Conflicts tab and
// the API then shows the new value; a person is renamed from the People tab; a question
// on the Memory tab is answered by ask, citing the fact, beside the search's hits.
func TestUIPeopleConflictsMemory(t *testing.T) {
	ctx := browser(t)
	env := testEnv(t)
	s := serve(t, env, "--no-auth")
	user := testUser
	base := s.base + "/v1/users/" + user
	for _, text := range []string{"My colleague Martin works at Acme.", "Martin works at Globex."} {
		body, _ := json.Marshal(map[string]string{"text": text})
		if st, _, b := call(t, "POST", base+"/messages", "", string(body)); st != 200 {
			t.Fatalf("say %q: %d %s", text, st, b)
		}
	}
	if st, _, b := call(t, "POST", base+"/episodes", "", `{"content": "Martin is vegetarian and cooks lentil curry on Fridays."}`); st != 200 {
		t.Fatalf("episode: %d %s", st, b)
	}
	do(t, ctx, "open the page", chromedp.Navigate(s.base+"/"), chromedp.WaitVisible("#pick-user"),
		chromedp.SendKeys("#pick-user", user), chromedp.Click("#pick-form button"))
	until(t, ctx, "the app", `document.querySelector('#tab-conflicts') !== null`)

	do(t, ctx, "open conflicts", chromedp.Click("#tab-conflicts"))
	until(t, ctx, "the pending change", `document.querySelector('#conflicts').innerText.includes('Acme') && document.querySelector('#conflicts .proposed') && document.querySelector('#conflicts .proposed').innerText === 'Globex'`)
	shot(t, ctx, "conflicts")
	do(t, ctx, "confirm it", chromedp.Click(`#conflicts button.primary`))
	until(t, ctx, "nothing left to confirm", `document.querySelector('#conflicts').innerText.includes('Nothing to confirm')`)
	var ents struct {
		Entities []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"entities"`
	}
	st, _, b := call(t, "GET", base+"/entities", "", "")
	if err := json.Unmarshal(b, &ents); st != 200 || err != nil || len(ents.Entities) != 1 {
		t.Fatalf("entities: %d %s", st, b)
	}
	st, _, b = call(t, "GET", base+"/facts?key=work.employer&subject=entity:"+ents.Entities[0].ID, "", "")
	if st != 200 || !strings.Contains(string(b), `"value":"Globex"`) || strings.Contains(string(b), `"value":"Acme"`) {
		t.Fatalf("after confirming, the current employer: %d %s", st, b)
	}

	do(t, ctx, "open people", chromedp.Click("#tab-people"),
		chromedp.Evaluate[chromedp.Void](`window.prompt = () => 'Martin Ruiz'`))
	until(t, ctx, "Martin", `document.querySelector('#people details.entity') !== null`)
	do(t, ctx, "rename", chromedp.Evaluate[chromedp.Void](`document.querySelector('#people details.entity').open = true; document.querySelector('#people details.entity button').click()`))
	until(t, ctx, "the new name", `document.querySelector('#people').innerText.includes('Martin Ruiz')`)
	shot(t, ctx, "people")
	st, _, b = call(t, "GET", base+"/entities", "", "")
	if st != 200 || !strings.Contains(string(b), `"name":"Martin Ruiz"`) {
		t.Fatalf("after renaming: %d %s", st, b)
	}

	do(t, ctx, "open memory", chromedp.Click("#tab-memory"))
	until(t, ctx, "the episode", `document.querySelector('#episodes').innerText.includes('lentil curry')`)
	do(t, ctx, "search", chromedp.SendKeys("#search-q", "What does Martin eat?"), chromedp.Click("#search-form button"))
	until(t, ctx, "the answer and hits", `document.querySelector('#answer') !== null && document.querySelectorAll('#search-results details.hit').length > 0 && document.querySelector('#search-results').innerText.includes('vegetarian')`)
	do(t, ctx, "ask", chromedp.Evaluate[chromedp.Void](`document.querySelector('#search-q').value = ''`),
		chromedp.SendKeys("#search-q", "Where does Martin work?"), chromedp.Click("#search-form button"))
	until(t, ctx, "ask's answer, citing the fact", `document.querySelector('#answer') !== null && document.querySelector('#answer').innerText.includes('Globex') && document.querySelector('#answer .cite') !== null && document.querySelector('#answer').innerText.includes('Answered from the facts')`)
	shot(t, ctx, "memory")
}

// TestUIPaging: a long list is shown a page at a time.
func TestUIPaging(t *testing.T) {
	ctx := browser(t)
	s := serve(t, testEnv(t), "--no-auth")
	vals := make([]string, 150)
	for i := range vals {
		vals[i] = "item" + strconv.Itoa(i+1)
	}
	body, _ := json.Marshal(map[string][]string{"values": vals})
	if st, _, b := call(t, "POST", s.base+"/v1/users/"+testUser+"/lists/favorites.long", "", string(body)); st != 200 {
		t.Fatalf("add 150: %d %s", st, b)
	}
	do(t, ctx, "open the page", chromedp.Navigate(s.base+"/#lists"), chromedp.WaitVisible("#pick-user"),
		chromedp.SendKeys("#pick-user", testUser), chromedp.Click("#pick-form button"))
	until(t, ctx, "the first page", `document.querySelectorAll('#list-items li').length === 100 && document.querySelector('#list-page').innerText.includes('of 150')`)
	do(t, ctx, "next page", chromedp.Click("#list-next"))
	until(t, ctx, "the second page", `document.querySelectorAll('#list-items li').length === 50 && document.querySelector('#list-items li').dataset.value === 'item101' && document.querySelector('#list-next').disabled`)
	shot(t, ctx, "list-page-2")
}

// TestUIPhoneWidth: at a phone's width (390 px) the facts and lists fit the screen:
// nothing scrolls sideways.
func TestUIPhoneWidth(t *testing.T) {
	ctx := browserSized(t, 390, 844)
	s := serve(t, testEnv(t), "--no-auth")
	if st, _, b := call(t, "POST", s.base+"/v1/users/"+testUser+"/messages", "", `{"text": "My favorite teas are oolong, sencha and rooibos. My email is ada.lovelace@example.com"}`); st != 200 {
		t.Fatalf("say: %d %s", st, b)
	}
	do(t, ctx, "open the page", chromedp.Navigate(s.base+"/"), chromedp.WaitVisible("#pick-user"),
		chromedp.SendKeys("#pick-user", testUser), chromedp.Click("#pick-form button"))
	until(t, ctx, "the facts", `document.querySelector('#facts-list').innerText.includes('rooibos')`)
	until(t, ctx, "no sideways scrolling on facts", `document.documentElement.scrollWidth <= window.innerWidth + 1`)
	shot(t, ctx, "phone-facts")
	do(t, ctx, "open lists", chromedp.Click("#tab-lists"))
	until(t, ctx, "the teas", `document.querySelectorAll('#list-items li').length === 3`)
	until(t, ctx, "no sideways scrolling on lists", `document.documentElement.scrollWidth <= window.innerWidth + 1`)
	shot(t, ctx, "phone-lists")
}

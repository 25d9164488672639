"""The client against a real "factbase serve": each test uses a user of its own."""
import unittest

from support import TESTDATA, new_user, shared

from factbase_client import Factbase, FactbaseError


class ClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = shared()
        cls.fb = Factbase(cls.server.url, api_key=cls.server.key)

    def test_say_messages(self):
        u = new_user()
        said = self.fb.say_messages(u, [{"role": "system", "content": "You are helpful."},
                                        {"role": "user", "content": "My favorite teas are oolong and chai."},
                                        {"role": "assistant", "content": "My favorite tea is green tea."}])
        self.assertEqual(said["result"]["stored"], 2)
        answer = self.fb.ask(u, "What are my favorite teas?")
        self.assertEqual([i["value"] for i in answer["items"]], ["oolong", "chai"])

    def test_say_then_ask(self):
        u = new_user()
        said = self.fb.say(u, "My favorite cryptos are BTC, ETH, and XMR")
        self.assertEqual(said["route"], "write")
        self.assertEqual(said["result"]["stored"], 3)
        self.assertEqual(said["reply"], "Added BTC, ETH and XMR to your favorite cryptocurrencies (#1-#3).")
        self.assertEqual(said["topics"][0]["key"], "favorites.cryptocurrency")

        moved = self.fb.say(u, "Move XMR to #1 in my favorite cryptocurrencies")
        self.assertEqual([(m["value"], m["action"], m["from"], m["to"]) for m in moved["result"]["mutations"]],
                         [("XMR", "MOVE", 3, 1)])
        answer = self.fb.ask(u, "What's my second favorite crypto?")
        self.assertEqual(answer["route"], "read")
        self.assertEqual(answer["key"], "favorites.cryptocurrency")
        self.assertEqual([(i["rank"], i["value"]) for i in answer["items"]], [(2, "BTC")])
        self.assertEqual(answer["reply"], "Your #2 favorite cryptocurrency is BTC.")

        unknown = self.fb.ask(u, "What is my favorite movie?")
        self.assertEqual(unknown["items"], [])
        self.assertIn("I don't know", unknown["reply"])

    def test_remember_recall_search(self):
        u = new_user()
        remembered = self.fb.remember(u, "My son Leo is 8 and loves dinosaurs.")
        self.assertEqual(remembered["extraction"], "rules")
        self.assertEqual(remembered["result"]["stored"], 3)
        self.assertNotIn("job", remembered, "no model is configured, so no job")
        self.assertIn("Leo (son): age 8", remembered["reply"])

        recalled = self.fb.recall(u, "How old is Leo?", limit=5)
        self.assertEqual(recalled["query"], "How old is Leo?")
        self.assertEqual((recalled["hits"][0]["key"], recalled["hits"][0]["value"]), ("age", "8"))
        self.assertIn("- Leo (son) is 8 years old", recalled["prompt"])
        self.assertEqual(recalled["facts_by_entity"][0]["about"], "Leo")

        found = self.fb.search(u, "dinosaurs", kinds=["fact"], limit=3)
        self.assertTrue(found["hits"], "search found nothing")
        self.assertLessEqual(len(found["hits"]), 3)
        self.assertEqual(found["hits"][0]["kind"], "fact")
        self.assertIn("dinosaurs", found["hits"][0]["text"])

    def test_facts(self):
        u = new_user()
        first = self.fb.facts.set(u, "contact.email", "anna@example.com", category="core")
        self.assertEqual(first["stored"], 1)
        fid = first["facts"][0]["id"]
        fact = self.fb.facts.get(u, fid)
        self.assertEqual((fact["key"], fact["value"], fact["current"]), ("contact.email", "anna@example.com", True))

        self.fb.facts.set(u, "contact.email", "anna@work.example")
        current = self.fb.facts.list(u, key="contact.email")
        self.assertEqual([f["value"] for f in current["facts"]], ["anna@work.example"])
        self.assertFalse(current["more"])
        self.assertEqual(len(self.fb.facts.list(u, key="contact.email", history=True)["facts"]), 2)
        history = self.fb.facts.history(u, "contact.email")
        self.assertEqual([f["value"] for f in history["versions"]], ["anna@work.example", "anna@example.com"])

        self.assertEqual(self.fb.facts.retract(u, current["facts"][0]["id"])["retracted"], 1)
        self.assertEqual(self.fb.facts.list(u, key="contact.email")["facts"], [])
        self.assertEqual(self.fb.facts.delete(u, fid)["deleted"], 1)

    def test_lists(self):
        u, key = new_user(), "favorites.text_editor"
        self.assertEqual(self.fb.lists.add(u, key, ["Helix", "Neovim", "Emacs"])["stored"], 3)
        again = self.fb.lists.add(u, key, "Neovim")
        self.assertEqual(again["stored"], 0)
        self.assertEqual(again["duplicates"][0]["rank"], 2)

        moved = self.fb.lists.rank(u, key, "Emacs", 1)
        self.assertEqual([(m["action"], m["from"], m["to"], m["shifted"]) for m in moved["mutations"]],
                         [("MOVE", 3, 1, 2)])
        page = self.fb.lists.show(u, key)
        self.assertEqual(page["total"], 3)
        self.assertEqual([(f["rank"], f["value"]) for f in page["items"]], [(1, "Emacs"), (2, "Helix"), (3, "Neovim")])

        self.fb.lists.remove(u, key, "Helix")
        page = self.fb.lists.show(u, key, limit=1)
        self.assertEqual(page["total"], 2)
        self.assertEqual([(f["rank"], f["value"]) for f in page["items"]], [(1, "Emacs")])

        # A value with a slash travels percent-encoded in the path.
        self.fb.lists.add(u, "favorites.band", "AC/DC")
        self.fb.lists.remove(u, "favorites.band", "AC/DC")
        self.assertEqual(self.fb.lists.show(u, "favorites.band")["total"], 0)

    def test_people(self):
        u = new_user()
        created = self.fb.people.create(u, "Martin", role="colleague", relation="accountant")
        eid = created["entity"]["id"]
        self.assertEqual((created["entity"]["name"], created["entity"]["role"]), ("Martin", "colleague"))
        self.assertEqual([e["name"] for e in self.fb.people.list(u)["entities"]], ["Martin"])
        self.assertEqual(self.fb.people.rename(u, eid, "Martin Berg")["name"], "Martin Berg")
        self.assertIn("Marty", self.fb.people.add_alias(u, eid, "Marty")["aliases"])
        view = self.fb.people.get(u, eid)
        self.assertEqual(view["name"], "Martin Berg")
        self.assertEqual([(f["key"], f["value"]) for f in view["facts"]], [("relation", "accountant")])

    def test_conflicts(self):
        u = new_user()
        self.fb.say(u, "My wife Sarah works at Google.")
        self.assertIn("until you confirm", self.fb.say(u, "Sarah works at Apple.")["reply"])
        pending = self.fb.conflicts.list(u)["conflicts"]
        self.assertEqual(len(pending), 1)
        c = pending[0]
        self.assertEqual((c["key"], c["current_value"], c["proposed"]["value"], c["status"]),
                         ("work.employer", "Google", "Apple", "pending"))

        self.assertEqual(self.fb.conflicts.confirm(u, c["id"])["conflict"]["status"], "confirmed")
        self.assertEqual(self.fb.conflicts.list(u)["conflicts"], [])
        self.assertEqual(len(self.fb.conflicts.list(u, status="all")["conflicts"]), 1)
        self.assertIn("Apple", self.fb.ask(u, "Where does Sarah work?")["reply"])

    def test_episodes(self):
        u = new_user()
        content = "Session 14 complete: NEXUS v2.3.1 deployed, accuracy 94.2% on 500 questions."
        added = self.fb.episodes.add(u, content, tags=["Nexus", "deploy"], importance=0.8)
        eid = added["episode"]["id"]
        self.assertEqual(added["episode"]["tags"], ["deploy", "nexus"], "tags are lower-cased and sorted")
        self.assertEqual(added["episode"]["importance"], 0.8)

        got = self.fb.episodes.get(u, eid)
        self.assertEqual(got["episode"]["content"], content)
        self.assertEqual(len(got["facts"]), len(added["facts"]))
        page = self.fb.episodes.list(u, tags="nexus")
        self.assertEqual(page["total"], 1)
        self.assertEqual(page["episodes"][0]["id"], eid)
        self.assertEqual(self.fb.episodes.delete(u, eid)["episodes"], 1)

    def test_sheet(self):
        u = new_user()
        with self.assertRaises(FactbaseError) as caught:
            self.fb.sheet.get(u)
        self.assertEqual(caught.exception.status, 404)
        self.fb.say(u, "My email is anna@example.com")  # every write regenerates the sheet
        self.assertIn("anna@example.com", self.fb.sheet.get(u)["entries"][0]["text"])
        sheet = self.fb.sheet.generate(u)
        self.assertGreaterEqual(sheet["count"], 1)
        self.assertEqual(self.fb.sheet.get(u)["id"], sheet["id"])

        prompt = self.fb.sheet.prompt(u, max_chars=2000)
        self.assertIn("anna@example.com", prompt["text"])
        self.assertGreater(prompt["tokens"], 0)

    def test_transcripts(self):
        u = new_user()
        jsonl = (TESTDATA / "session.jsonl").read_bytes()
        summary = self.fb.transcripts.ingest(u, "ref.jsonl", jsonl)
        self.assertEqual((summary["file"], summary["lines"], summary["stored"]), ("ref.jsonl", 2, 8))
        with open(TESTDATA / "session.jsonl", "rb") as f:  # a file: sent chunked
            again = self.fb.transcripts.ingest(u, "ref.jsonl", f)
        self.assertEqual(again["stored"], 0, "an unchanged file stores nothing again")

        hosts = self.fb.transcripts.facts(u, predicate="connects_to_host", min_confidence=0.9)
        self.assertEqual([(f["object"], f["source"]["id"]) for f in hosts["facts"]],
                         [("192.168.20.4", "ref.jsonl:2:a1000000-0000-4000-8000-000000000002")])
        objects = self.fb.transcripts.objects(u, predicate="operation_type")
        self.assertEqual([o["object"] for o in objects["objects"]], ["verification"])
        sessions = self.fb.transcripts.sessions(u)
        self.assertEqual([(s["file"], s["cwd"]) for s in sessions["sessions"]], [("ref.jsonl", "/home/anna/homelab")])

    def test_me_health_and_any_other_route(self):
        self.assertEqual(self.fb.me()["kind"], "application")
        self.assertEqual(self.fb.health()["status"], "ok")
        jobs = self.fb.transport.call("GET", "/v1/users/{user}/jobs", {"user": new_user()}, {"limit": 5})
        self.assertEqual(jobs["jobs"], [])


if __name__ == "__main__":
    unittest.main()

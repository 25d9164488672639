"""Errors: every non-2xx answer is a FactbaseError read from application/problem+json."""
import io
import json
import re
import unittest
import urllib.error
import urllib.request

from support import Server, new_user, shared

from factbase_client import Factbase, FactbaseError


class ErrorsTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.server = shared()
        cls.fb = Factbase(cls.server.url, api_key=cls.server.key)

    def failure(self, call, *args, **kwargs):
        with self.assertRaises(FactbaseError) as caught:
            call(*args, **kwargs)
        return caught.exception

    def test_401_wrong_key_and_none(self):
        wrong = Factbase(self.server.url, api_key="fb_" + "A" * 43)
        err = self.failure(wrong.say, new_user(), "My email is a@example.com")
        self.assertEqual((err.status, err.title), (401, "Unauthorized"))
        self.assertTrue(err.detail)
        self.assertRegex(err.request_id or "", r"^[0-9a-f]+$")
        self.assertTrue(str(err).startswith("401 Unauthorized: "), str(err))
        self.assertEqual(self.failure(Factbase(self.server.url).facts.list, new_user()).status, 401)

    def test_422_bad_user_id(self):
        err = self.failure(self.fb.ask, "alice", "What is my email?")
        self.assertEqual((err.status, err.title), (422, "Unprocessable Entity"))
        self.assertIn("not a UUID", err.detail)
        self.assertEqual(err.errors[0]["location"], "path.user")
        self.assertEqual(err.errors[0]["value"], "alice")

    def test_422_rank_below_one(self):
        err = self.failure(self.fb.lists.rank, new_user(), "favorites.color", "blue", 0)
        self.assertEqual(err.status, 422)
        self.assertIn("body.rank", [e.get("location") for e in err.errors])

    def test_403_user_key_on_another_user(self):
        own = Factbase(self.server.url, api_key=self.server.user_key)
        me = own.me()
        self.assertEqual((me["kind"], me["user"]), ("user", self.server.user_key_user))
        own.say(self.server.user_key_user, "My email is own@example.com")
        err = self.failure(own.facts.list, new_user())
        self.assertEqual((err.status, err.title), (403, "Forbidden"))

    def test_404_no_such_fact(self):
        self.assertEqual(self.failure(self.fb.facts.get, new_user(), new_user()).status, 404)

    def test_429_says_when_to_retry(self):
        slow = Server("--rate-limit", "1", "--rate-burst", "1")
        try:
            c = Factbase(slow.url, api_key=slow.key)
            c.me()
            err = self.failure(c.me)
            self.assertEqual(err.status, 429)
            self.assertIsNotNone(err.retry_after)
            self.assertGreaterEqual(err.retry_after, 1)
        finally:
            slow.stop()

    def test_body_not_problem_json(self):
        class BadGateway(urllib.request.BaseHandler):
            handler_order = 100  # before the real HTTPHandler

            def http_open(self, req):
                headers = {"Content-Type": "text/html"}
                raise urllib.error.HTTPError(req.full_url, 502, "Bad Gateway", headers, io.BytesIO(b"<h1>Bad Gateway</h1>"))

        c = Factbase(self.server.url, opener=urllib.request.build_opener(BadGateway()))
        err = self.failure(c.me)
        self.assertEqual((err.status, err.title, err.detail, err.problem), (502, "HTTP 502", "<h1>Bad Gateway</h1>", None))

    def test_requests_carry_key_json_and_encoded_path(self):
        seen = []

        class Spy(urllib.request.HTTPHandler):
            def http_open(self, req):
                seen.append(req)
                return super().http_open(req)

        c = Factbase(self.server.url + "/", api_key=self.server.key, headers={"User-Agent": "t"},
                     opener=urllib.request.build_opener(Spy()))
        u = new_user()
        c.lists.show(u, "favorites.x/y", limit=5, as_of=None)
        c.facts.list(u, history=True)
        c.facts.set(u, "contact.email", "a@example.com")
        self.assertEqual(seen[0].full_url, "%s/v1/users/%s/lists/favorites.x%%2Fy?limit=5" % (self.server.url, u))
        self.assertEqual(seen[0].get_header("Authorization"), "Bearer " + self.server.key)
        self.assertEqual(seen[0].get_header("User-agent"), "t")
        self.assertTrue(re.search(r"\?history=true$", seen[1].full_url), seen[1].full_url)
        self.assertEqual(seen[2].get_method(), "POST")
        self.assertEqual(seen[2].get_header("Content-type"), "application/json")
        self.assertEqual(json.loads(seen[2].data), {"key": "contact.email", "value": "a@example.com"})


if __name__ == "__main__":
    unittest.main()

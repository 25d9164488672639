"""The generated TypedDicts: in step with the server's OpenAPI document, and whole."""
import subprocess
import sys
import typing
import unittest

from support import PACKAGE_ROOT, shared

from factbase_client import types


class TypesTest(unittest.TestCase):
    def test_types_match_the_served_document(self):
        """Else: python3 clients/python/tools/gen_types.py URL (or clients/regen)."""
        run = subprocess.run([sys.executable, str(PACKAGE_ROOT / "tools" / "gen_types.py"), shared().url, "--check"],
                             capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("matches", run.stdout)

    def test_every_type_resolves(self):
        names = types.__all__
        self.assertGreater(len(names), 40)
        for name in names:
            hints = typing.get_type_hints(getattr(types, name))  # resolves every forward reference
            self.assertTrue(hints, name)
        fact = types.Fact
        self.assertIn("value", fact.__required_keys__)
        self.assertIn("valid_to", fact.__optional_keys__)
        self.assertIn("from", types.Mutation.__required_keys__)


if __name__ == "__main__":
    unittest.main()

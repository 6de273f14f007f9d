"""Every class in referee/ stays small, as in bot/: at most 20 attributes and 20 methods.

The figures are those of tests/bot/test_bot_classes.py, which prints them as a script:
    python tests/bot/test_bot_classes.py referee
"""

from tests.bot.test_bot_classes import MOST_ATTRIBUTES, MOST_METHODS, class_sizes
from tests.project import ROOT


def test_no_class_in_the_referee_has_over_20_attributes_or_20_methods():
    sizes = class_sizes(ROOT / "referee")
    assert len(sizes) > 30  # (the walk found the classes)
    assert [name for attributes, methods, name in sizes
            if attributes > MOST_ATTRIBUTES or methods > MOST_METHODS] == []


def test_a_class_over_the_line_is_found(tmp_path):
    package = tmp_path / "big"
    package.mkdir()
    body = "".join(f"    def m{k}(self):\n        self.a{k} = {k}\n" for k in range(21))
    (package / "big.py").write_text(f"class Big:\n{body}")
    assert class_sizes(package) == [(21, 21, "big/big.py:Big")]

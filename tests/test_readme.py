"""The README's library example runs as written: its outputs are the bot's."""

import doctest
import os
import re

from project import ROOT


def test_library_example_in_the_readme_is_current():
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "the README has no python example"
    example = "".join(blocks)
    parser = doctest.DocTestParser()
    test = parser.get_doctest(example, {}, "README", "README.md", 0)
    assert test.examples
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    cwd = os.getcwd()
    os.chdir(ROOT)  # the example opens puzzles by relative path
    try:
        runner.run(test)
    finally:
        os.chdir(cwd)
    assert runner.failures == 0, f"{runner.failures} README example(s) differ from the bot"

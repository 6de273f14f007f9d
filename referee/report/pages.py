"""A page of the report: a template beside its module with `{{slot}}`s filled, opening with
the head every page shares (head.html: the document, its CSS inlined, the title)."""

from __future__ import annotations

import json
import re
from importlib import resources

SLOT = re.compile(r"\{\{(\w+)\}\}")


def fill(package: str, template: str, slots: dict[str, str]) -> str:
    """`package`'s `template` with the shared head laid in and every slot filled."""
    text = asset(package, template).replace("{{head}}", asset(__package__, "head.html"), 1)
    return SLOT.sub(lambda m: slots[m.group(1)], text)


def asset(package: str, name: str) -> str:
    """A file the package ships beside its code (template, CSS, script)."""
    return resources.files(package).joinpath(name).read_text(encoding="utf-8")


def script_json(data) -> str:
    """`data` as JSON to hold inside <script>: every '<' escaped, so no "</script" or "<!--"
    in a name or a bot's line can end or confuse the element."""
    return json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")

"""The solver's options (bot/options.py): one value, set once, with its defaults."""

import pytest

from bot.options import DEFAULT, FIELDS, Options


def test_the_defaults_are_the_fields_values():
    assert [getattr(DEFAULT, name) for name, _ in FIELDS] == [value for _, value in FIELDS]


def test_replace_makes_another_value_and_leaves_this_one():
    changed = DEFAULT.replace(seed=7, walk_moves=10)
    assert (changed.seed, changed.walk_moves) == (7, 10)
    assert (DEFAULT.seed, DEFAULT.walk_moves) == (Options().seed, Options().walk_moves)
    assert changed.region_walk == DEFAULT.region_walk


def test_an_option_is_never_set_after_it_is_made():
    with pytest.raises(AttributeError):
        DEFAULT.seed = 3
    with pytest.raises(AttributeError):
        DEFAULT.anything = 3


def test_a_name_that_is_not_an_option_is_refused():
    with pytest.raises(ValueError, match="not an option: seeds"):
        DEFAULT.replace(seeds=2)

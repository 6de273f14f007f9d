"""The suite's runs are recorded in a history of its own, never in the user's."""

import os

import pytest


@pytest.fixture(scope="session", autouse=True)
def scratch_history(tmp_path_factory):
    os.environ["SPOON2_HISTORY"] = str(tmp_path_factory.mktemp("history") / "history.sqlite")
    yield

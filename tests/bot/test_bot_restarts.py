"""The learner's restart rule: glue running above its mean, put off near a solution."""

from bot.options import DEFAULT
from bot.restarts import Restarts

RESTART_WINDOW, BLOCK_AFTER = DEFAULT.restart_window, DEFAULT.block_after


def met(restarts, count, glue, depth=100):
    for _ in range(count):
        restarts.conflict(depth, glue)


def test_no_restart_before_a_window_of_nogoods():
    restarts = Restarts()
    met(restarts, RESTART_WINDOW - 1, 50)
    assert not restarts.due()


def test_steady_glue_never_calls_for_a_restart():
    restarts = Restarts()
    met(restarts, 10 * RESTART_WINDOW, 7)
    assert not restarts.due()


def test_glue_well_above_its_mean_calls_for_a_restart_and_a_restart_starts_the_window_again():
    restarts = Restarts()
    met(restarts, 4 * RESTART_WINDOW, 2)
    met(restarts, 5, 10)
    assert not restarts.due()
    met(restarts, RESTART_WINDOW - 5, 10)
    assert restarts.due()
    restarts.restarted()
    assert not restarts.due()
    met(restarts, RESTART_WINDOW, 10)
    assert restarts.due()


def test_glue_a_little_above_its_mean_is_no_reason_to_restart():
    restarts = Restarts()
    met(restarts, 4 * RESTART_WINDOW, 10)
    met(restarts, RESTART_WINDOW, 12)
    assert not restarts.due()


def test_a_conflict_far_deeper_than_usual_puts_the_restart_off():
    restarts = Restarts()
    met(restarts, BLOCK_AFTER + 4 * RESTART_WINDOW, 2, depth=100)
    met(restarts, RESTART_WINDOW, 10, depth=100)
    assert restarts.due()
    met(restarts, 1, 10, depth=1000)
    assert not restarts.due()


def test_a_deep_conflict_early_on_does_not_put_it_off():
    restarts = Restarts()
    met(restarts, BLOCK_AFTER - RESTART_WINDOW - 10, 2, depth=100)
    met(restarts, RESTART_WINDOW, 10, depth=100)
    met(restarts, 1, 10, depth=1000)
    assert restarts.due()

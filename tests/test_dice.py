"""The dice helpers: exact distributions, modifiers, natural rolls, comparisons."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.core.dice import (
    Comparison,
    Modifier,
    Roll,
    d6,
    d66,
    dice,
    die,
    modified,
    probability,
    total,
    two_d6,
)
from byzantium.core.drivers import sample


@pytest.mark.parametrize("distribution", [d6(), two_d6(), d66(), dice(3), die(10), dice(2, 4)])
def test_distributions_are_exact_and_sum_to_one(
    distribution: tuple[tuple[object, Fraction], ...],
) -> None:
    assert sum(p for _, p in distribution) == 1
    assert all(isinstance(p, Fraction) and p > 0 for _, p in distribution)
    outcomes = [o for o, _ in distribution]
    assert len(set(outcomes)) == len(outcomes)


def test_two_d6_has_the_triangular_distribution() -> None:
    table = dict(two_d6())
    assert sorted(table) == list(range(2, 13))
    assert [table[n] * 36 for n in range(2, 13)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]


def test_d66_reads_tens_then_ones() -> None:
    faces = [o for o, _ in d66()]
    assert faces[:7] == [11, 12, 13, 14, 15, 16, 21]
    assert faces[-1] == 66 and len(faces) == 36
    assert all(1 <= f // 10 <= 6 and 1 <= f % 10 <= 6 for f in faces)


def test_coloured_dice_are_ordered_pairs() -> None:
    pairs = [o for o, _ in dice(2)]
    assert (1, 6) in pairs and (6, 1) in pairs and len(pairs) == 36


@given(st.integers(1, 6), st.integers(-5, 5))
def test_natural_one_and_six_ignore_modifiers(natural: int, drm: int) -> None:
    value = modified(natural, drm, natural_extremes=True)
    if natural in (1, 6):
        assert value == natural
    else:
        assert value == natural + drm
    assert modified(natural, drm) == natural + drm


@given(st.integers(1, 6), st.lists(st.integers(-3, 3), max_size=5), st.booleans())
def test_roll_sums_its_modifiers_cumulatively(
    natural: int, drms: list[int], extremes: bool
) -> None:
    roll = Roll(natural, tuple(Modifier(d, f"source {i}") for i, d in enumerate(drms)), extremes)
    assert roll.drm == sum(drms) == total(roll.modifiers)
    assert roll.value == modified(natural, sum(drms), natural_extremes=extremes)


def test_roll_describes_itself() -> None:
    roll = Roll(4, (Modifier(-2, "Cataphracts"), Modifier(1, "Greek Fire")))
    assert roll.describe() == "4 -2 (Cataphracts) +1 (Greek Fire) = 3"
    assert Roll(6, (Modifier(-2, "x"),), natural_extremes=True).describe().endswith("unmodified")
    assert Roll(3).describe() == "3"


@given(st.integers(-3, 9), st.integers(0, 8))
def test_comparisons_mean_what_they_say(roll: int, target: int) -> None:
    assert Comparison.GREATER.holds(roll, target) == (roll > target)
    assert Comparison.AT_LEAST.holds(roll, target) == (roll >= target)
    assert Comparison.EQUAL.holds(roll, target) == (roll == target)
    assert Comparison.AT_MOST.holds(roll, target) == (roll <= target)
    assert Comparison.LESS.holds(roll, target) == (roll < target)


def test_chance_of_beating_a_number_with_the_natural_rule() -> None:
    # A +3 modifier cannot save a natural 1, so beating 3 is 5/6, not 1.
    assert Comparison.GREATER.chance(3, drm=3, natural_extremes=True) == Fraction(5, 6)
    assert Comparison.GREATER.chance(3, drm=3) == 1
    # A -4 modifier cannot spoil a natural 6.
    assert Comparison.GREATER.chance(4, drm=-4, natural_extremes=True) == Fraction(1, 6)
    assert probability(two_d6(), lambda n: n == 7) == Fraction(1, 6)


def test_sampling_is_exact_in_the_long_run_and_seeded() -> None:
    rng = random.Random(12345)
    counts = Counter(sample(two_d6(), rng) for _ in range(36_000))
    assert 5_700 < counts[7] < 6_300  # expectation 6000
    assert 800 < counts[2] < 1_200  # expectation 1000
    assert set(counts) == set(range(2, 13))


def test_sampling_reproduces_a_seed() -> None:
    first = [sample(d66(), random.Random(9)) for _ in range(3)]
    second = [sample(d66(), random.Random(9)) for _ in range(3)]
    assert first == second
    stream_a, stream_b = random.Random(4), random.Random(4)
    assert [sample(d6(), stream_a) for _ in range(40)] == [
        sample(d6(), stream_b) for _ in range(40)
    ]


def test_sampling_rejects_bad_distributions() -> None:
    with pytest.raises(ValueError, match="no outcomes"):
        sample([], random.Random(1))
    with pytest.raises(ValueError, match="not 1"):
        sample([(1, Fraction(1, 3))], random.Random(1))
    with pytest.raises(ValueError, match="at least one face"):
        die(0)
    with pytest.raises(ValueError, match="at least one die"):
        dice(0)


@st.composite
def _distributions(draw: st.DrawFn) -> tuple[tuple[int, Fraction], ...]:
    weights = draw(st.lists(st.integers(1, 9), min_size=1, max_size=6))
    return tuple((k, Fraction(w, sum(weights))) for k, w in enumerate(weights))


@given(
    st.lists(_distributions(), min_size=1, max_size=12),
    st.lists(st.integers(0, 11), min_size=1, max_size=60),
    st.integers(0, 2**32),
)
def test_kept_weights_sample_as_fresh_ones(
    distributions: list[tuple[tuple[int, Fraction], ...]], order: list[int], seed: int
) -> None:
    """The sampler keeps the weights of the last few tuples of outcomes it was given:
    drawing from many tuples in any order gives what drawing from fresh lists (whose
    weights are never kept) gives."""
    picks = [distributions[k % len(distributions)] for k in order]
    kept, fresh = random.Random(seed), random.Random(seed)
    assert [sample(d, kept) for d in picks] == [sample(list(d), fresh) for d in picks]

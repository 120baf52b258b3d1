"""Loading games by id, game options, and the rule index model."""

from __future__ import annotations

import pytest

import byzantium
from byzantium import UnknownGameError, UnknownOptionError, load_game
from byzantium.core.errors import RuleIndexError
from byzantium.core.rules import (
    RuleBook,
    RuleEntry,
    RuleStatus,
    get_rulebook,
    rule_matches,
    split_rule_id,
)
from tests.pig import PigGame


def test_load_game_finds_registered_games_with_default_options() -> None:
    game = load_game("pig")
    assert isinstance(game, PigGame)
    assert dict(game.options) == {"target": 20}
    assert "pig" in byzantium.available_games()


def test_unknown_games_are_named_with_the_available_ones() -> None:
    with pytest.raises(UnknownGameError, match=r"'chess'.*available games: .*pig"):
        load_game("chess")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"speed": 1}, r"no option 'speed'; its options: target"),
        ({"target": "20"}, r"takes a int"),
        ({"target": True}, r"takes a int"),
        ({"target": 30}, r"must be one of 10, 20, 50, 100"),
    ],
)
def test_unknown_or_bad_options_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(UnknownOptionError, match=message):
        load_game("pig", **options)


def test_rule_ids_cope_with_numbers_printed_twice() -> None:
    assert split_rule_id("21.21#2") == ("21.21", 2)
    for bad in ("", "#2", "12.3#", "12.3#1", "12.3#x"):
        with pytest.raises(RuleIndexError):
            split_rule_id(bad)
    assert rule_matches("21.2", "21.2#2")
    assert not rule_matches("21.2", "21.3")
    assert not rule_matches("1", "10.1")
    assert not rule_matches("10.1", "10.10")
    assert rule_matches("10", "10.10.2")


def test_sub_rules_follow_the_book_numbering_style() -> None:
    assert not rule_matches("21.2", "21.21#2")
    assert rule_matches("21.2", "21.21#2", "decimal")
    assert rule_matches("21.2", "21.211", "decimal")
    assert not rule_matches("21.2", "21.3", "decimal")
    assert not rule_matches("2", "21.1", "decimal")
    assert get_rulebook("belisarius").numbering == "decimal"
    assert get_rulebook("sword-of-orthodoxy").numbering == "dotted"
    assert [e.id for e in get_rulebook("belisarius").select("21.2")][:4] == [
        "21.2",
        "21.21",
        "21.22",
        "21.2#2",
    ]
    with pytest.raises(RuleIndexError, match="numbering"):
        RuleBook("g", "G", [], numbering="roman")


def test_rule_index_rejects_duplicates_and_unexplained_no_mechanics() -> None:
    with pytest.raises(RuleIndexError, match="twice"):
        RuleBook("g", "G", [RuleEntry("1.1", "a", RuleStatus.PENDING)] * 2)
    with pytest.raises(RuleIndexError, match="no reason"):
        RuleBook("g", "G", [RuleEntry("1.1", "a", RuleStatus.NO_MECHANICS)])
    with pytest.raises(RuleIndexError, match="TOML"):
        RuleBook.from_toml_text("game = ")
    with pytest.raises(RuleIndexError, match="bad rule index row"):
        RuleBook.from_toml_text('game = "g"\n[[rule]]\nid = "1"\ntitle = "t"\nstatus = "done"\n')


def test_rule_book_lookup_and_selection() -> None:
    book = get_rulebook("pig")
    assert book["3.1#2"].number == "3.1"
    assert book["3.1#2"].occurrence == 2
    assert [e.id for e in book.select("3.1")] == ["3.1", "3.1#2"]
    assert [e.id for e in book.select("2")] == ["2.0", "2.1", "2.2", "2.3", "2.4"]
    with pytest.raises(RuleIndexError, match="no rule"):
        book["9.9"]
    with pytest.raises(RuleIndexError, match="no rule book"):
        get_rulebook("chess")


@pytest.mark.parametrize("game", ["sword-of-orthodoxy", "belisarius"])
def test_builtin_rule_indices_load_in_rulebook_order(game: str) -> None:
    book = get_rulebook(game)
    lines = [entry.line for entry in book]
    assert all(line > 0 for line in lines)
    assert lines == sorted(lines)
    assert len(book) > 100
    assert "1.0" in book

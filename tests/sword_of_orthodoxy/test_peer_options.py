"""The six optional rules of the peer app that our rulebook copy does not print.

Each option is off by default and changes a numbered rule of ours; the tests are
tagged with the rules they change and play each option on a constructed position
with forced dice or draws, beside the same position without the option.
"""

from __future__ import annotations

import pathlib
import random

import attrs
import pytest

from byzantium.core.drivers import sample
from byzantium.core.game import CHANCE
from byzantium.sword_of_orthodoxy.actions import CallCouncil
from byzantium.sword_of_orthodoxy.components import Path, TileKind
from byzantium.sword_of_orthodoxy.end_of_turn import MuslimColonists
from byzantium.sword_of_orthodoxy.game import SwordOfOrthodoxy
from byzantium.sword_of_orthodoxy.leadership import (
    LeadershipPhase,
    NewPatriarch,
    NewPope,
    historical_patriarch,
)
from byzantium.sword_of_orthodoxy.state import (
    Decline,
    Draw,
    RequestKind,
    Roll,
    Select,
    SooState,
)
from byzantium.sword_of_orthodoxy.statecraft import saints
from byzantium.sword_of_orthodoxy.synopsis import ArmenianRevoltEvent, armenian_revolt_dice
from byzantium.sword_of_orthodoxy.tax import income
from byzantium.sword_of_orthodoxy.turn import TileDraw
from byzantium.sword_of_orthodoxy.turn_start import EastWestSchism, Normans
from byzantium.sword_of_orthodoxy.world import marker, set_counter, set_marker
from tests.sword_of_orthodoxy.support import (
    GAME,
    answer,
    ctx,
    fill_zone,
    idle,
    put,
    start,
    where,
)

RULEBOOK = "sword-of-orthodoxy"
ROOT = pathlib.Path(__file__).resolve().parents[2]

#: The six options of the peer app, all on.
PEER_OPTIONS = {
    "historical_patriarchs": True,
    "justinian_civil_war": True,
    "italy_is_important": True,
    "controlled_councils": True,
    "anatolian_plateau": True,
    "armenian_revolt_dice": True,
}

HISTORICAL = SwordOfOrthodoxy({"historical_patriarchs": True})
CIVIL_WAR = SwordOfOrthodoxy({"justinian_civil_war": True})
ITALY = SwordOfOrthodoxy({"italy_is_important": True})
COUNCILS = SwordOfOrthodoxy({"controlled_councils": True})
PLATEAU = SwordOfOrthodoxy({"anatolian_plateau": True})
REVOLT = SwordOfOrthodoxy({"armenian_revolt_dice": True})
HISTORICAL_MILLENNIUM = SwordOfOrthodoxy({"historical_patriarchs": True, "scenario": "millennium"})


def on(state: SooState, space: str, game: SwordOfOrthodoxy = GAME) -> list[str]:
    cat = game.catalog
    index = cat.space(space)
    return [cat.tiles[i].id for i, w in enumerate(state.board.where) if w == index]


def settled(state: SooState) -> bool:
    return state.pending is None and not state.stack


def asked(state: SooState) -> tuple[str, RequestKind]:
    assert state.pending is not None
    return state.pending.rule, state.pending.kind


def turn(n: int, game: SwordOfOrthodoxy = GAME) -> SooState:
    """The Campaign set up, idle, on Turn ``n``."""
    return attrs.evolve(idle(game.initial_state()), turn=n)


# -- Historical Patriarchs (6.3, 7.1, 10.9.1) ---------------------------------------------


def test_the_historical_patriarchs_table_is_the_peer_table() -> None:
    table = HISTORICAL.components.historical_patriarchs
    assert [row.turn for row in table] == list(range(1, 28))
    assert sum(row.solidus for row in table[1:]) == 19
    assert [row.turn for row in table if row.heretic] == [2, 3, 5, 10, 11, 12, 16, 20, 22, 24]
    cat = HISTORICAL.catalog
    assert all(cat.tiles[cat.tile(row.tile)].kind is TileKind.PATRIARCH for row in table)
    assert GAME.options["historical_patriarchs"] is False


@pytest.mark.rule("6.3", "2.6")
def test_the_turn_16_historical_heretic_raises_the_schism_without_a_draw() -> None:
    def position(game: SwordOfOrthodoxy) -> SooState:
        state = put(turn(16, game), "patriarch-nestorius", "discarded", game=game)
        state = put(state, "patriarch-constantine", "patriarch", game=game)
        return set_marker(ctx(game), state, "schism", 4)

    after = start(position(HISTORICAL), NewPatriarch(), game=HISTORICAL)
    assert settled(after)  # nothing drawn
    assert on(after, "patriarch", HISTORICAL) == ["patriarch-peter"]  # Michael Cerularius
    assert where(after, "patriarch-constantine", HISTORICAL) == "patriarch-mug"
    assert marker(ctx(HISTORICAL), after, "schism") == 5
    # Without the option the Patriarch is drawn from the mug (6.3, Turns 12-27).
    plain = start(position(GAME), NewPatriarch())
    assert plain.pending is not None and plain.pending.kind is RequestKind.DRAW


@pytest.mark.rule("6.3")
def test_a_historical_heretic_is_a_heretic_even_after_the_triumph_of_orthodoxy() -> None:
    for n, heretic in ((12, True), (13, False), (24, True), (25, False)):
        state = put(turn(n, HISTORICAL), "patriarch-nestorius", "discarded", game=HISTORICAL)
        state = set_marker(ctx(HISTORICAL), state, "schism", 2)
        after = start(state, NewPatriarch(), game=HISTORICAL)
        assert marker(ctx(HISTORICAL), after, "schism") == 2 + heretic, n


@pytest.mark.rule("7.1")
def test_the_historical_patriarchs_income_is_the_tables_not_the_tiles() -> None:
    # Turn 26 is Gennadius Scholarius, 3 $: shown by a tile worth nothing, he still pays 3.
    state = put(turn(26, HISTORICAL), "patriarch-nestorius", "discarded", game=HISTORICAL)
    state = put(state, "patriarch-michael", "patriarch", game=HISTORICAL)
    plain = put(put(turn(26), "patriarch-nestorius", "discarded"), "patriarch-michael", "patriarch")
    assert income(ctx(HISTORICAL), state) == income(ctx(GAME), plain) + 3


@pytest.mark.rule("10.9.1")
def test_no_historical_patriarch_is_a_saint() -> None:
    state = put(turn(21, HISTORICAL), "patriarch-nestorius", "discarded", game=HISTORICAL)
    state = put(state, "patriarch-michael", "patriarch", game=HISTORICAL)
    michael = HISTORICAL.catalog.tile("patriarch-michael")
    assert michael not in saints(ctx(HISTORICAL), state)
    plain = put(put(turn(21), "patriarch-nestorius", "discarded"), "patriarch-michael", "patriarch")
    assert michael in saints(ctx(GAME), plain)


@pytest.mark.rule("6.3", "E", "7.1")
def test_the_millennium_shows_the_tables_turn_15_patriarch() -> None:
    """Ruling (6.3): the set-up's Patriarch gives way to the table's Turn-15 tile."""
    state = HISTORICAL_MILLENNIUM.initial_state()
    c = ctx(HISTORICAL_MILLENNIUM)
    assert on(state, "patriarch", HISTORICAL_MILLENNIUM) == ["patriarch-constantine"]
    assert where(state, "patriarch-nicholas", HISTORICAL_MILLENNIUM) == "patriarch-mug"
    fixed = historical_patriarch(c, attrs.evolve(state, turn=15))
    assert fixed is not None and fixed.name == "Sergius II" and fixed.solidus == 1
    # The Campaign's Nestorius already agrees with Turn 1: the set-up is unchanged.
    assert HISTORICAL.initial_state().board == GAME.initial_state().board


@pytest.mark.rule("6.3")
def test_on_turn_2_nestorius_still_becomes_the_university() -> None:
    after = start(turn(2, HISTORICAL), NewPatriarch(), game=HISTORICAL)
    assert where(after, "patriarch-nestorius", HISTORICAL) == "counter-tray"
    assert on(after, "patriarch", HISTORICAL) == ["patriarch-peter"]  # Acacius, a heretic


# -- Justinian and Civil War (6.1.1, 5.1, 6.2) ----------------------------------------------


def justinians_turn(game: SwordOfOrthodoxy, chit: str = "chit-5") -> SooState:
    """Turn 3: Justinian and his Dynasty deployed (5.1), a Riot in Constantinople, no money."""
    state = put(turn(3, game), chit, "chronographia-3", game=game)
    state = put(state, "dynasty-theodosian", "discarded", game=game)
    state = put(state, "dynasty-justinian", "dynasty", game=game)
    state = put(state, "basileus-theodosius", "basileus", back=True, game=game)
    state = put(state, "riot-4", "constantinople", game=game)
    state = set_marker(ctx(game), state, "solidus", 0)
    state = attrs.evolve(state, done=state.done | {"justinian-turn"})
    return set_counter(state, "justinian-turn", 3)


@pytest.mark.rule("6.1.1", "5.1", "6.2")
def test_a_civil_war_on_turn_3_lost_by_justinian() -> None:
    state = start(justinians_turn(CIVIL_WAR), LeadershipPhase(), game=CIVIL_WAR)
    assert asked(state) == ("6.1.1", RequestKind.DRAW)  # the Riot did not unseat him
    state = answer(state, Draw("dynasty-leonid"), game=CIVIL_WAR)
    state = answer(state, Roll((2,)), Roll((5,)), game=CIVIL_WAR)  # Justinian 2, Leonids 5
    assert on(state, "dynasty", CIVIL_WAR) == ["dynasty-leonid"]
    assert where(state, "dynasty-justinian", CIVIL_WAR) == "discarded"
    # The Riot goes back with a Faction of the player's choice (ruled, as 6.1 does).
    assert where(state, "riot-4", CIVIL_WAR) == "counter-tray"
    assert asked(state) == ("6.1", RequestKind.CHOOSE)
    state = answer(state, Select("faction-3"), game=CIVIL_WAR)
    assert where(state, "faction-3", CIVIL_WAR) == "omnibus"
    # Justinian falls with his Dynasty and a new Basileus is drawn (6.2).
    assert where(state, "basileus-theodosius", CIVIL_WAR) == "discarded"
    assert asked(state) == ("6.2", RequestKind.DRAW)


@pytest.mark.rule("6.1.1", "5.1")
def test_justinian_winning_his_civil_war_keeps_the_throne() -> None:
    state = start(justinians_turn(CIVIL_WAR), LeadershipPhase(), game=CIVIL_WAR)
    state = answer(state, Draw("dynasty-leonid"), Roll((4,)), Roll((4,)), game=CIVIL_WAR)
    assert on(state, "dynasty", CIVIL_WAR) == ["dynasty-justinian"]  # a tie: the incumbent
    assert where(state, "dynasty-leonid", CIVIL_WAR) == "dynasty-mug"
    state = answer(state, Select("faction-3"), game=CIVIL_WAR)
    assert where(state, "basileus-theodosius", CIVIL_WAR) == "basileus"
    assert asked(state) == ("6.3", RequestKind.DRAW)  # no new Basileus


@pytest.mark.rule("6.1.1", "5.1")
def test_without_the_option_or_a_swords_chit_turn_3_has_no_civil_war() -> None:
    for game, chit in ((GAME, "chit-5"), (CIVIL_WAR, "chit-1")):
        state = start(justinians_turn(game, chit), LeadershipPhase(), game=game)
        assert asked(state) == ("6.3", RequestKind.DRAW)
        assert on(state, "dynasty", game) == ["dynasty-justinian"]
        assert where(state, "riot-4", game) == "constantinople"  # the Riot stays


# -- Italy Is Important (5.3.3, 6.4) ---------------------------------------------------------


def schism_turn(game: SwordOfOrthodoxy) -> SooState:
    """Turn 16 with chit 16 drawn, Italy held, two Barbarian Armies in Zone Β."""
    state = put(turn(16, game), "chit-16", "chronographia-16", game=game)
    return fill_zone(state, Path.BETA, 2, game=game)


@pytest.mark.rule("5.3.3", "6.4", "5.2.3")
def test_the_pope_stays_after_chit_16_while_italy_holds_then_goes_with_it() -> None:
    state = start(schism_turn(ITALY), EastWestSchism(), game=ITALY)
    assert "east-west-schism" in state.done
    assert where(state, "marker-pope", ITALY) == "pope"
    # The New Pope roll goes on (6.4): a 5 makes him Mean.
    state = start(state, NewPope(), game=ITALY)
    assert asked(state) == ("6.4", RequestKind.ROLL)
    state = answer(state, Roll((5,)), game=ITALY)
    assert where(state, "marker-pope", ITALY) == "pope"
    assert state.board.back[ITALY.catalog.tile("marker-pope")]
    # The Normans take Italy (5.2.3: a 1 against two Barbarians): the Pope goes at once.
    state = answer(start(state, Normans(), game=ITALY), Roll((1,)), game=ITALY)
    assert state.board.back[ITALY.catalog.tile("marker-zone-beta")]  # the Balkans
    assert where(state, "marker-pope", ITALY) == "discarded"
    # Without the option chit 16 discards the Pope at once.
    plain = start(schism_turn(GAME), EastWestSchism())
    assert where(plain, "marker-pope") == "discarded"


@pytest.mark.rule("5.3.3")
def test_with_italy_already_lost_chit_16_discards_the_pope_at_once() -> None:
    state = put(schism_turn(ITALY), "marker-zone-beta", "zone-name-beta", back=True, game=ITALY)
    state = start(state, EastWestSchism(), game=ITALY)
    assert where(state, "marker-pope", ITALY) == "discarded"


@pytest.mark.rule("5.3.3")
def test_losing_italy_before_the_schism_leaves_the_pope_in_place() -> None:
    state = start(schism_turn(ITALY), Normans(), game=ITALY)
    state = answer(state, Roll((1,)), game=ITALY)
    assert where(state, "marker-pope", ITALY) == "pope"


# -- Controlled Ecumenical Councils (4.1, 5.3.1) -------------------------------------------

COUNCIL_CHITS = (4, 7, 10, 11, 15, 22, 26)


def test_the_council_chits_are_the_peers() -> None:
    chits = COUNCILS.components.chits
    assert tuple(c.number for c in chits if c.patriarch) == COUNCIL_CHITS


@pytest.mark.rule("4.1", "5.3.1")
def test_yes_draws_until_a_council_chit_comes_out() -> None:
    state = start(turn(1, COUNCILS), TileDraw(), game=COUNCILS)
    assert asked(state) == ("4.1", RequestKind.CHOOSE)
    assert state.pending is not None
    assert {COUNCILS.typed_action(state, a) for a in state.pending.options} == {
        CallCouncil(True),
        CallCouncil(False),
    }
    state = answer(state, COUNCILS.action_for(state, CallCouncil(True)), game=COUNCILS)
    state = answer(state, Draw("chit-1"), game=COUNCILS)  # no Council symbol: set aside
    assert where(state, "chit-1", COUNCILS) == "turn-chit-mug"
    assert asked(state) == ("4.1", RequestKind.DRAW)
    state = answer(state, Draw("chit-12"), Draw("chit-22"), game=COUNCILS)
    assert where(state, "chit-22", COUNCILS) == "chronographia-1"
    assert where(state, "chit-12", COUNCILS) == "turn-chit-mug"


@pytest.mark.rule("4.1", "5.3.1")
def test_no_redraws_a_council_chit_once_and_the_second_draw_is_final() -> None:
    """Ruling (4.1): a No returns a Council chit and draws once more, as the app does."""
    state = start(turn(1, COUNCILS), TileDraw(), game=COUNCILS)
    state = answer(state, Decline(), Draw("chit-4"), game=COUNCILS)
    assert where(state, "chit-4", COUNCILS) == "turn-chit-mug"
    assert asked(state) == ("4.1", RequestKind.DRAW)
    state = answer(state, Draw("chit-7"), game=COUNCILS)  # a Council again: final
    assert where(state, "chit-7", COUNCILS) == "chronographia-1"
    # A first draw without the symbol is the Turn's chit at once.
    state = start(turn(1, COUNCILS), TileDraw(), game=COUNCILS)
    state = answer(state, Decline(), Draw("chit-1"), game=COUNCILS)
    assert where(state, "chit-1", COUNCILS) == "chronographia-1"


@pytest.mark.rule("4.1", "8.4.1")
def test_the_schism_tile_does_not_count_as_the_draw() -> None:
    state = put(turn(9, COUNCILS), "marker-schism", "turn-chit-mug", game=COUNCILS)
    state = start(state, TileDraw(), game=COUNCILS)
    state = answer(state, Decline(), Draw("marker-schism"), game=COUNCILS)
    assert where(state, "marker-schism", COUNCILS) == "omnibus"
    state = answer(state, Draw("chit-10"), game=COUNCILS)  # still the first draw
    assert where(state, "chit-10", COUNCILS) == "turn-chit-mug"
    assert asked(state) == ("4.1", RequestKind.DRAW)


@pytest.mark.rule("4.1")
def test_no_question_without_the_option_or_a_council_chit_in_the_mug() -> None:
    assert asked(start(turn(1), TileDraw())) == ("4.1", RequestKind.DRAW)
    state = turn(1, COUNCILS)
    for number in COUNCIL_CHITS:
        state = put(state, f"chit-{number}", "discarded", game=COUNCILS)
    assert asked(start(state, TileDraw(), game=COUNCILS)) == ("4.1", RequestKind.DRAW)


def test_the_council_question_is_numbered_only_in_games_with_the_option() -> None:
    assert GAME.action_space().size == 937
    space = COUNCILS.action_space()
    assert space.size == 939
    assert {space.decision(937), space.decision(938)} == {CallCouncil(True), CallCouncil(False)}


# -- Anatolian Plateau (11.3) --------------------------------------------------------------


def seljuk_colonists(game: SwordOfOrthodoxy) -> SooState:
    """The Seljuks lead both eastern Paths of Persia and Syria, each with its Colonist
    one Thema behind them (so each may advance into the Seljuks' Thema)."""
    cat = game.catalog
    state = turn(20, game)
    for path, seljuks, colonist in (
        (Path.EPSILON, "army-epsilon-seljuks", "marker-colonist-1"),
        (Path.ZETA, "army-zeta-seljuks", "marker-colonist-2"),
    ):
        themas = [cat.spaces[s].id for s in cat.themas(path)]
        for other in (*cat.tiles_of(TileKind.ARMY, path), *cat.tiles_of(TileKind.MARKER, path)):
            if cat.spaces[state.board.where[other]].id in themas:
                state = put(state, cat.tiles[other].id, "counter-tray", game=game)
        state = put(state, seljuks, themas[1], back=False, game=game)
        state = put(state, colonist, themas[2], back=False, game=game)
    return state


@pytest.mark.rule("11.3")
def test_seljuk_colonists_advance_unrolled_on_the_persian_path_only() -> None:
    cat = PLATEAU.catalog
    epsilon = [cat.spaces[s].id for s in cat.themas(Path.EPSILON)]
    zeta = [cat.spaces[s].id for s in cat.themas(Path.ZETA)]
    state = seljuk_colonists(PLATEAU)
    # Path Ε (Persia): the Seljuks bring their settlers without a roll.
    after = start(state, MuslimColonists(Path.EPSILON), game=PLATEAU)
    assert settled(after)
    assert where(after, "marker-colonist-1", PLATEAU) == epsilon[1]
    # Path Ζ (Syria): a roll, as under any Muslim Army; only a 6 moves them.
    rolled = start(state, MuslimColonists(Path.ZETA), game=PLATEAU)
    assert asked(rolled) == ("11.3", RequestKind.ROLL)
    assert rolled.pending is not None and rolled.pending.path is Path.ZETA  # Akritai may act
    assert where(answer(rolled, Roll((5,)), game=PLATEAU), "marker-colonist-2", PLATEAU) == zeta[2]
    assert where(answer(rolled, Roll((6,)), game=PLATEAU), "marker-colonist-2", PLATEAU) == zeta[1]
    # Without the option the Seljuks of Ζ bring theirs along unrolled too.
    plain = start(seljuk_colonists(GAME), MuslimColonists(Path.ZETA))
    assert settled(plain)
    assert where(plain, "marker-colonist-2") == zeta[1]


# -- Armenian Revolt Subject to Dice (8.4.1) ---------------------------------------------------


def only_army(
    state: SooState, path: Path, army: str, space: str, game: SwordOfOrthodoxy
) -> SooState:
    """``army`` is the only hostile tile on the Themas of an eastern Path, on ``space``."""
    cat = game.catalog
    themas = set(cat.themas(path))
    for other in (*cat.tiles_of(TileKind.ARMY, path), *cat.tiles_of(TileKind.MARKER, path)):
        if state.board.where[other] in themas:
            state = put(state, cat.tiles[other].id, "counter-tray", game=game)
    return put(state, army, space, back=False, game=game)


def revolt_example(game: SwordOfOrthodoxy) -> SooState:
    """The sheet's example: Saracens in Lesser Armenia, Buyids in Melitene, Persia on Ζ."""
    state = only_army(turn(12, game), Path.DELTA, "army-delta-saracens", "lesser-armenia", game)
    state = only_army(state, Path.EPSILON, "army-epsilon-buyids", "melitene", game)
    return only_army(state, Path.ZETA, "army-zeta-persia", "damascus", game)


@pytest.mark.rule("8.4.1")
def test_an_armenian_revolt_crushed_by_a_6_among_the_examples_four_dice() -> None:
    state = revolt_example(REVOLT)
    assert armenian_revolt_dice(ctx(REVOLT), state) == 4  # Δ 2, Ε 2, Ζ none
    state = start(state, ArmenianRevoltEvent(), game=REVOLT)
    assert asked(state) == ("8.4.1", RequestKind.ROLL)
    state = answer(state, Roll((2,)), Roll((5,)), Roll((6,)), game=REVOLT)  # crushed
    assert settled(state)
    assert where(state, "army-delta-saracens", REVOLT) == "lesser-armenia"
    assert where(state, "army-delta-armenia", REVOLT) != "lesser-armenia"


@pytest.mark.rule("8.4.1")
def test_an_armenian_revolt_without_a_6_succeeds() -> None:
    state = start(revolt_example(REVOLT), ArmenianRevoltEvent(), game=REVOLT)
    state = answer(state, Roll((1,)), Roll((2,)), Roll((3,)), game=REVOLT)
    assert asked(state) == ("8.4.1", RequestKind.ROLL)  # the fourth die
    state = answer(state, Roll((5,)), game=REVOLT)
    assert settled(state)
    assert where(state, "army-delta-armenia", REVOLT) == "lesser-armenia"
    # Without the option the revolt always succeeds, without a roll.
    plain = start(revolt_example(GAME), ArmenianRevoltEvent())
    assert settled(plain)
    assert where(plain, "army-delta-armenia") == "lesser-armenia"


@pytest.mark.rule("8.4.1")
def test_saracens_in_their_homeland_alone_roll_no_dice() -> None:
    state = only_army(turn(12, REVOLT), Path.DELTA, "army-delta-saracens", "iberia", REVOLT)
    state = only_army(state, Path.EPSILON, "army-epsilon-persia", "nisibis", REVOLT)
    state = only_army(state, Path.ZETA, "army-zeta-seljuks", "syria", REVOLT)
    assert armenian_revolt_dice(ctx(REVOLT), state) == 0
    after = start(state, ArmenianRevoltEvent(), game=REVOLT)
    assert settled(after)
    assert where(after, "army-delta-armenia", REVOLT) == "iberia"


def test_the_armenian_revolt_option_is_its_own_and_has_no_ottoman_part() -> None:
    """Ruling (8.4.1): unlike the app's form, the option sets only itself; the
    Ottomans' event and table are those of the game without it."""
    assert REVOLT.options["anatolian_plateau"] is False
    assert REVOLT.components.ottoman_table == GAME.components.ottoman_table
    assert [e.name for e in REVOLT.components.political_events] == [
        e.name for e in GAME.components.political_events
    ]


# -- all six together ------------------------------------------------------------------------


def test_the_six_are_off_by_default_and_listed_with_the_games_options() -> None:
    names = [spec.name for spec in SwordOfOrthodoxy.OPTIONS]
    for name in PEER_OPTIONS:
        assert name in names
        assert GAME.options[name] is False


@pytest.mark.rule("11.11", "12.1", "4.1", "6.3", "8.4.1")
@pytest.mark.parametrize("scenario", ["campaign", "millennium"])
def test_whole_random_games_with_all_six_on_end_normally(scenario: str) -> None:
    from byzantium import play, replay

    game = SwordOfOrthodoxy({"scenario": scenario, **PEER_OPTIONS})
    texts: list[str] = []
    for seed in range(12):
        record = play(game, seed=seed)
        final = replay(game, record)  # every step's digest checked again
        assert game.is_terminal(final)
        assert game.result(final).level
        # Played again step by step: every state is one the rules can produce.
        rng = random.Random(seed)
        state = game.initial_state()
        while not game.is_terminal(state):
            if game.current_player(state) == CHANCE:
                action = sample(game.chance_outcomes(state), rng)
            else:
                action = rng.choice(game.legal_actions(state))
            step = game.step(state, action)
            texts += [event.text for event in step.events]
            state = step.state
            game.validate(state)
    assert any("is the new Patriarch (the" in text for text in texts)
    assert any("Ecumenical Council this Turn" in text for text in texts)


@pytest.mark.rule("4.1")
def test_the_council_question_reads_as_yes_or_no() -> None:
    state = start(turn(1, COUNCILS), TileDraw(), game=COUNCILS)
    assert state.pending is not None
    words = [COUNCILS.describe_choice(state, action) for action in state.pending.options]
    assert words[0].startswith("No: call no Ecumenical Council")
    assert words[1].startswith("Yes: call an Ecumenical Council")


def test_user_components_without_the_patriarch_table_refuse_only_that_option(
    tmp_path: pathlib.Path,
) -> None:
    from byzantium.core.provenance import ComponentError
    from byzantium.sword_of_orthodoxy.components import DATA_FILES

    data = ROOT / "byzantium" / "sword_of_orthodoxy" / "data"
    for name in DATA_FILES:
        text = (data / name).read_text(encoding="utf-8")
        if name == "tables.toml":
            text = text[: text.index("# ==== Historical Patriarchs")]
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert SwordOfOrthodoxy({"components": str(tmp_path)}).components.historical_patriarchs == ()
    with pytest.raises(ComponentError, match="historical_patriarch"):
        SwordOfOrthodoxy({"components": str(tmp_path), "historical_patriarchs": True})

"""Rule 2.4.1: a Path's Tribe decides which side its Armies show."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from byzantium.sword_of_orthodoxy.components import Icon, Path, TileKind
from byzantium.sword_of_orthodoxy.world import change_tribe, tribe
from tests.sword_of_orthodoxy.support import campaign, ctx

RULEBOOK = "sword-of-orthodoxy"


@pytest.mark.rule("2.4.1")
def test_vandals_to_moors_turns_every_alpha_army_to_its_man_side() -> None:
    c = ctx()
    state = campaign()
    armies = c.cat.tiles_of(TileKind.ARMY, Path.ALPHA)
    assert all(c.cat.has(state.board, a, Icon.HORSE) for a in armies)
    state = change_tribe(c, state, Path.ALPHA, "tribe-alpha-moors", "2.4.1")
    assert tribe(c, state, Path.ALPHA) == c.cat.tile("tribe-alpha-moors")
    assert all(c.cat.has(state.board, a, Icon.MAN) for a in armies)
    assert c.cat.spaces[state.board.where[c.cat.tile("tribe-alpha-vandals")]].id == "counter-tray"


@pytest.mark.rule("2.4.1")
@given(st.sampled_from([Path.ALPHA, Path.BETA, Path.GAMMA]), st.data())
def test_after_a_tribe_change_every_army_of_the_path_shows_the_tribes_icon(
    path: Path, data: st.DataObject
) -> None:
    c = ctx()
    state = campaign()
    tribes = [c.cat.tiles[t].id for t in c.cat.tiles_of(TileKind.TRIBE, path)]
    new = data.draw(st.sampled_from(tribes))
    state = change_tribe(c, state, path, new, "2.4.1")
    wanted = Icon.HORSE if c.cat.has(state.board, c.cat.tile(new), Icon.HORSE) else Icon.MAN
    for army in c.cat.tiles_of(TileKind.ARMY, path):
        assert c.cat.has(state.board, army, wanted)
    strengths = sorted(
        c.cat.face(state.board, a).strength for a in c.cat.tiles_of(TileKind.ARMY, path)
    )
    assert strengths == ([1, 2, 3, 3, 4] if wanted is Icon.HORSE else [1, 1, 2, 2, 3])

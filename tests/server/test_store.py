"""The server's stores, SQLite and PostgreSQL, hold to one contract (issue 38): the same
tests run against both. ``advance`` and ``take_seat`` are atomic: of writers racing on
one game, from threads or from processes, exactly one succeeds per ``seq``; listeners
hear every commit, on PostgreSQL those of other processes too."""

from __future__ import annotations

import functools
import json
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from byzantium.server.store import GameRow, SQLiteStore, StepRow, Store, StoreError
from tests.pg import PostgresServer

#: How to open a store: ("sqlite", path) or ("postgres", url).
Spec = tuple[str, str]


def open_store(spec: Spec) -> Store:
    kind, where = spec
    if kind == "sqlite":
        return SQLiteStore(where)
    from byzantium.server.postgres import PostgresStore

    return PostgresStore(where)


@pytest.fixture(params=["sqlite", "postgres"])
def spec(request: pytest.FixtureRequest, tmp_path: Path) -> Spec:
    if request.param == "sqlite":
        return ("sqlite", str(tmp_path / "games.db"))
    server: PostgresServer = request.getfixturevalue("postgres")
    return ("postgres", server.new_database())


@pytest.fixture
def opener(spec: Spec) -> Iterator[Callable[[], Store]]:
    """Opens stores on the test's database (closed at the end)."""
    opened: list[Store] = []

    def open_one() -> Store:
        opened.append(open_store(spec))
        return opened[-1]

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(opener: Callable[[], Store]) -> Store:
    return opener()


def game(game_id: str, *, created: float = 1000.0, seats: int = 2, seed: int = 7) -> GameRow:
    return GameRow(
        game_id=game_id,
        game="belisarius",
        options=json.dumps({"scenario": "standard"}),
        seats=json.dumps([{"player": "person"}] + [{"player": "open"}] * (seats - 1)),
        token_digests=("a" * 64,) + (None,) * (seats - 1),
        seed=seed,
        seq=0,
        state='{"state": 0}',
        status="playing",
        created=created,
        updated=created,
    )


def step(seq: int, actor: int = 0) -> StepRow:
    return StepRow(seq, actor, json.dumps({"pass": seq}), json.dumps({"0": [f"line {seq}"]}))


def test_create_and_get(store: Store) -> None:
    row = game("g1", seed=2**63 - 1)
    store.create(row)
    assert store.get("g1") == row
    assert store.get("nothing") is None
    assert store.steps("g1") == []


def test_a_game_id_is_created_once(store: Store) -> None:
    store.create(game("g1"))
    with pytest.raises(StoreError):
        store.create(game("g1", seed=9))
    assert store.get("g1") == game("g1")


def test_games_newest_first_in_pages(store: Store) -> None:
    for k in range(5):
        store.create(game(f"g{k}", created=1000.0 + k))
    assert [g.game_id for g in store.games()] == ["g4", "g3", "g2", "g1", "g0"]
    assert [g.game_id for g in store.games(limit=2, offset=1)] == ["g3", "g2"]
    assert store.games(offset=5) == []


def test_take_seat_once(store: Store) -> None:
    store.create(game("g1", seats=3))
    assert store.take_seat("g1", 1, "b" * 64)
    assert not store.take_seat("g1", 1, "c" * 64)
    assert not store.take_seat("g1", 0, "c" * 64)  # held since the creation
    assert not store.take_seat("g1", 7, "c" * 64)
    assert not store.take_seat("nothing", 1, "c" * 64)
    row = store.get("g1")
    assert row is not None
    assert row.token_digests == ("a" * 64, "b" * 64, None)


def test_advance_checks_the_seq(store: Store) -> None:
    store.create(game("g1"))
    assert store.advance("g1", 0, [step(1), step(2, 1)], '{"state": 2}', "playing")
    assert not store.advance("g1", 0, [step(1)], '{"state": "stale"}', "over")
    assert not store.advance("g1", 5, [step(6)], '{"state": "ahead"}', "over")
    assert not store.advance("nothing", 0, [step(1)], "{}", "over")
    row = store.get("g1")
    assert row is not None
    assert (row.seq, row.state, row.status) == (2, '{"state": 2}', "playing")
    assert row.updated >= row.created
    assert store.steps("g1") == [step(1), step(2, 1)]
    assert store.steps("g1", after=1) == [step(2, 1)]
    assert store.advance("g1", 2, [step(3)], '{"state": 3}', "over")
    assert [s.seq for s in store.steps("g1")] == [1, 2, 3]


def test_playing_leaves_out_games_over(store: Store) -> None:
    for k in range(3):
        store.create(game(f"g{k}", created=1000.0 + k))
    assert store.advance("g1", 0, [step(1)], "{}", "over")
    assert store.playing() == ["g0", "g2"]


def test_listeners_hear_commits(store: Store) -> None:
    heard: list[tuple[str, int]] = []
    store.listen(lambda game_id, seq: heard.append((game_id, seq)))
    store.create(game("g1"))
    assert store.advance("g1", 0, [step(1), step(2)], "{}", "playing")
    assert not store.advance("g1", 0, [step(1)], "{}", "playing")
    assert store.take_seat("g1", 1, "b" * 64)
    assert heard == [("g1", 2), ("g1", 2)]


def test_a_failing_listener_does_not_undo_a_commit(store: Store) -> None:
    heard: list[int] = []

    def broken(game_id: str, seq: int) -> None:
        raise RuntimeError("listener bug")

    store.listen(broken)
    store.listen(lambda game_id, seq: heard.append(seq))
    store.create(game("g1"))
    assert store.advance("g1", 0, [step(1)], "{}", "playing") is True
    assert heard == [1]


def race(attempts: list[Callable[[], bool]]) -> list[bool]:
    """Run the attempts at once, one thread each; their results (a loser answers False,
    it does not fail)."""
    results: list[bool | BaseException] = [False] * len(attempts)
    start = threading.Barrier(len(attempts))

    def run(k: int) -> None:
        start.wait(timeout=30)
        try:
            results[k] = attempts[k]()
        except BaseException as error:
            results[k] = error

    threads = [threading.Thread(target=run, args=(k,)) for k in range(len(attempts))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    failed = [r for r in results if isinstance(r, BaseException)]
    assert not failed, failed
    return [r is True for r in results]


def test_concurrent_advance_from_threads(opener: Callable[[], Store]) -> None:
    stores = [opener(), opener()]
    stores[0].create(game("g1"))
    for seq in range(10):
        results = race(
            [
                functools.partial(
                    stores[k % 2].advance, "g1", seq, [step(seq + 1, k)], f"{k}", "playing"
                )
                for k in range(6)
            ]
        )
        assert results.count(True) == 1, (seq, results)
        winner = results.index(True)
        row = stores[0].get("g1")
        assert row is not None
        assert (row.seq, row.state) == (seq + 1, str(winner))
        assert stores[1].steps("g1", after=seq) == [step(seq + 1, winner)]


def test_concurrent_take_seat_from_threads(opener: Callable[[], Store]) -> None:
    stores = [opener(), opener()]
    stores[0].create(game("g1"))
    results = race(
        [functools.partial(stores[k % 2].take_seat, "g1", 1, f"{k:064}") for k in range(6)]
    )
    assert results.count(True) == 1
    row = stores[1].get("g1")
    assert row is not None
    assert row.token_digests[1] == f"{results.index(True):064}"


def _advance_in_a_process(
    spec: Spec, who: int, rounds: int, barrier: threading.Barrier, out: multiprocessing.Queue[str]
) -> None:
    store = open_store(spec)
    try:
        for seq in range(rounds):
            barrier.wait(timeout=30)
            try:
                won = store.advance("g1", seq, [step(seq + 1, who)], f"{who}", "playing")
            except StoreError as error:
                out.put(f"{seq} {who} {str(error).replace(' ', '_')}")
            else:
                out.put(f"{seq} {who} {won}")
            barrier.wait(timeout=30)
    finally:
        store.close()


def test_concurrent_advance_from_two_processes(spec: Spec, store: Store) -> None:
    store.create(game("g1"))
    rounds = 15
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    out: multiprocessing.Queue[str] = context.Queue()
    workers = [
        context.Process(target=_advance_in_a_process, args=(spec, who, rounds, barrier, out))
        for who in (0, 1)
    ]
    for worker in workers:
        worker.start()
    try:
        reports = [out.get(timeout=60).split() for _ in range(2 * rounds)]
    finally:
        for worker in workers:
            worker.join(timeout=30)
            if worker.exitcode is None:
                worker.kill()
    assert [worker.exitcode for worker in workers] == [0, 0]
    assert {won for _, _, won in reports} == {"True", "False"}, reports
    winners = {int(seq): int(who) for seq, who, won in reports if won == "True"}
    assert sorted(winners) == list(range(rounds))  # exactly one a round ...
    assert sum(won == "True" for _, _, won in reports) == rounds  # ... and never two
    assert [(s.seq, s.actor) for s in store.steps("g1")] == [
        (seq + 1, winners[seq]) for seq in range(rounds)
    ]
    row = store.get("g1")
    assert row is not None
    assert row.seq == rounds


def wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


@pytest.fixture
def two_postgres_stores(postgres: PostgresServer) -> Iterator[tuple[Store, Store, str]]:
    url = postgres.new_database()
    first, second = open_store(("postgres", url)), open_store(("postgres", url))
    yield first, second, url
    first.close()
    second.close()


def test_postgres_stores_hear_each_other(two_postgres_stores: tuple[Store, Store, str]) -> None:
    here, there, _ = two_postgres_stores
    heard_here: list[tuple[str, int]] = []
    heard_there: list[tuple[str, int]] = []
    here.listen(lambda game_id, seq: heard_here.append((game_id, seq)))
    there.listen(lambda game_id, seq: heard_there.append((game_id, seq)))
    here.create(game("g1"))
    assert there.advance("g1", 0, [step(1), step(2)], "{}", "playing")
    assert wait_for(lambda: heard_here == [("g1", 2)])
    assert here.take_seat("g1", 1, "b" * 64)
    assert here.advance("g1", 2, [step(3)], "{}", "over")
    assert wait_for(lambda: heard_there == [("g1", 2), ("g1", 2), ("g1", 3)])
    # A store's own commits are told once, not again when their notification comes.
    time.sleep(0.3)
    assert heard_here == [("g1", 2), ("g1", 2), ("g1", 3)]


def test_postgres_listener_catches_up_after_losing_its_connection(
    two_postgres_stores: tuple[Store, Store, str],
) -> None:
    import psycopg

    from byzantium.server.postgres import LISTENER_NAME

    here, there, url = two_postgres_stores
    heard: list[tuple[str, int]] = []
    here.listen(lambda game_id, seq: heard.append((game_id, seq)))
    here.create(game("g1"))
    with psycopg.connect(url, autocommit=True) as admin:

        def listening() -> list[int]:
            rows = admin.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
                "AND application_name = %s",
                (LISTENER_NAME,),
            ).fetchall()
            return [int(r[0]) for r in rows]

        assert wait_for(lambda: len(listening()) == 1)
        admin.execute("SELECT pg_terminate_backend(%s)", (listening()[0],))
        assert there.advance("g1", 0, [step(1)], "{}", "playing")
        assert wait_for(lambda: ("g1", 1) in heard)
        assert wait_for(lambda: len(listening()) == 1)
    assert there.advance("g1", 1, [step(2)], "{}", "playing")
    assert wait_for(lambda: ("g1", 2) in heard)


def test_postgres_unreachable_is_one_line(postgres: PostgresServer) -> None:
    from byzantium.server.postgres import PostgresStore

    url = postgres.url("no_such_database")
    with pytest.raises(StoreError, match=r"cannot connect to .*no_such_database.*exist"):
        PostgresStore(url, timeout=2)
    with pytest.raises(StoreError, match="does not parse"):
        PostgresStore("nonsense://", timeout=2)
    with pytest.raises(StoreError) as caught:
        PostgresStore("postgresql://nobody:secret@127.0.0.1:1/x", timeout=2)
    assert "secret" not in str(caught.value)
    assert "\n" not in str(caught.value)


def test_without_postgres_the_tests_skip_unless_it_is_required(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import tests.pg

    monkeypatch.setattr(tests.pg, "postgres_bin", lambda: None)
    monkeypatch.setattr(tests.pg, "REQUIRED", False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL"):
        tests.pg.postgres_or_skip()
    monkeypatch.setattr(tests.pg, "REQUIRED", True)
    with pytest.raises(pytest.fail.Exception, match="BYZANTIUM_REQUIRE_POSTGRES"):
        tests.pg.postgres_or_skip()

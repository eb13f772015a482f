"""The packaged basic strategy tables: one per shipped blackjack variant, each
the table ``build`` works out for exactly its rules of play, never used for
rules it was not worked out for.

Working a table out takes seconds per variant: here only Live Blackjack's
(the quickest) is worked out and compared with its file;
``dealer-station strategy-tables --check`` compares every one.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dealer_station import strategy_store
from dealer_station.cli import main
from dealer_station.games.blackjack_rules import SHIPPED_VARIANTS, BlackjackRules, load_variant
from dealer_station.games.blackjack_strategy_table import BasicStrategy, build

GAMES = Path(strategy_store.__file__).with_name("games")


def _variant(tmp_path: Path, text: str) -> BlackjackRules:
    """Live Blackjack (8 decks, no hole card, no surrender, no double after a
    split, 2 hands) with ``text`` changed."""
    path = tmp_path / "house.toml"
    path.write_text(f'game = "blackjack"\nextends = "live-blackjack"\ntitle = "House"\n{text}')
    return load_variant(str(path))


@pytest.mark.parametrize("name", SHIPPED_VARIANTS)
def test_every_shipped_variant_has_a_packaged_table_for_its_rules(name: str) -> None:
    assert (strategy_store.TABLES / f"{name}.json").is_file()
    assert isinstance(strategy_store.packaged(load_variant(name)), BasicStrategy)


def test_a_packaged_table_is_the_one_build_works_out(tmp_path: Path) -> None:
    rules = load_variant("live-blackjack")
    assert strategy_store.packaged(rules) == build(rules)
    # The command that writes the files writes this very file again.
    assert main(["strategy-tables", "--variant", "live-blackjack", "--out", str(tmp_path)]) == 0
    written = (tmp_path / "live-blackjack.json").read_text()
    assert written == (strategy_store.TABLES / "live-blackjack.json").read_text()
    assert main(["strategy-tables", "--check", "--variant", "live-blackjack"]) == 0


def test_the_check_names_a_stale_table(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    stale = (strategy_store.TABLES / "live-blackjack.json").read_text().replace('"Dh', '"S', 1)
    (tmp_path / "live-blackjack.json").write_text(stale)
    args = ["strategy-tables", "--check", "--variant", "live-blackjack", "--out", str(tmp_path)]
    assert main(args) == 1
    assert "live-blackjack: missing or stale" in capsys.readouterr().out
    assert (tmp_path / "live-blackjack.json").read_text() == stale  # --check writes nothing


@pytest.mark.parametrize(
    "change",
    [
        "dealer_hits_soft_17 = true",
        "decks = 6\ncut_card_at = 156",
        'surrender = "late"',
        "double_after_split = false",
        "max_hands = 4",
        'blackjack_pays = "6:5"',
    ],
)
def test_a_variant_whose_rules_of_play_changed_has_no_packaged_table(
    tmp_path: Path, change: str
) -> None:
    assert strategy_store.packaged(_variant(tmp_path, change)) is None


def test_a_variant_that_changes_only_words_or_the_stations_settings_plays_its_bases_table(
    tmp_path: Path,
) -> None:
    rules = _variant(
        tmp_path,
        'source = "house rules"\npublished_rtp = "99"\ndefault_decision = "basic_strategy"\n'
        'warn_deviation_ev = "0.5"\n',
    )
    assert strategy_store.packaged(rules) == strategy_store.packaged(load_variant("live-blackjack"))


def test_the_rules_left_out_of_the_hash_are_read_by_no_rule_of_play() -> None:
    # The hash leaves out NOT_OF_PLAY because no table depends on them: nothing
    # in games (the engine and the solver the table comes from) reads them.
    reads = []
    for path in sorted(GAMES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            named = None
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                named = node.attr
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("getattr", "attrgetter")
                and any(isinstance(a, ast.Constant) for a in node.args)
            ):
                named = next(a.value for a in node.args if isinstance(a, ast.Constant))
            if named in strategy_store.NOT_OF_PLAY:
                reads.append(f"{path.name}:{node.lineno} {named}")
    assert reads == []
    fields = set(BlackjackRules.__dataclass_fields__)
    assert fields >= strategy_store.NOT_OF_PLAY


def test_a_table_reads_back_exactly_and_a_damaged_one_is_refused() -> None:
    table = strategy_store.packaged(load_variant("diamond-blackjack"))
    assert table is not None and table.rescue  # Diamond surrenders after doubling
    assert BasicStrategy.from_data(table.to_data()) == table
    assert BasicStrategy.from_data(table.to_data()).render() == table.render()
    data = table.to_data()
    for damage in (
        {"hard": {**data["hard"], "21": data["hard"]["20"]}},  # no dealt hand makes hard 21
        {"soft": {"20": "S S S"}},  # a row of three up-cards
        {"pairs": {"A,A": "X " * 9 + "P"}},  # no action X
        {"after_double": {"hard 12": " ".join("P" * 10)}},  # after a double: R or S
    ):
        with pytest.raises(ValueError):
            BasicStrategy.from_data({**data, **damage})

"""The rules of a blackjack variant, every one a named parameter.

Shipped variants live in ``variants/*.toml``; a studio runs a fifth variant by
writing a file (optionally ``extends = "standard-blackjack"``). docs/rules.md is the
source of every default and every shipped value; where a shipped value still
differs from it (until issue 15), docs/rules.md says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from dealer_station.games.cards import SUITS, parse_cards
from dealer_station.games.rulefile import (
    build_rules,
    parse_ratio,
    read_variant_file,
    shipped_variants,
)


@dataclass(frozen=True, slots=True)
class SuitedBlackjack:
    """A blackjack that pays more for its suits: either exactly ``cards``
    (``["KD", "AD"]``, in any order) or both cards of ``suit``."""

    pays: str
    suit: str = ""
    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        parse_ratio(self.pays)
        if bool(self.suit) == bool(self.cards):
            raise ValueError("a suited blackjack names either a suit or two cards")
        if self.suit and self.suit not in SUITS:
            raise ValueError(f"suit {self.suit!r} is not one of {SUITS}")
        if self.cards and len(parse_cards(" ".join(self.cards))) != 2:
            raise ValueError("a suited blackjack names exactly two cards")


@dataclass(frozen=True, slots=True)
class BlackjackRules:
    title: str
    source: str = ""
    decks: int = 6
    boxes: int = 7
    # One player owns every box (3-position, Diamond); else each box has its own.
    one_player: bool = False
    # Several players may stake on one box; the seated (first) player decides.
    shared_boxes: bool = False
    bet_behind: bool = False
    shuffle: Literal["cut_card", "every_round"] = "cut_card"
    # Cards out of the shoe when the cut card comes out.
    cut_card_at: int | None = None
    hole_card: bool = False
    # Up-card ranks on which the dealer checks the hole card for blackjack
    # ("T" stands for every ten-value card). Only with a hole card.
    peek_up_cards: tuple[str, ...] = ()
    dealer_hits_soft_17: bool = False
    blackjack_pays: str = "3:2"
    blackjack_vs_dealer_blackjack: Literal["push", "player_wins"] = "push"
    # Settle a blackjack right after the deal when nothing the dealer draws can
    # change it (up-card 2-9, or a blackjack that always wins).
    pay_blackjack_at_once: bool = False
    suited_blackjacks: tuple[SuitedBlackjack, ...] = ()
    split: Literal["same_rank", "same_value"] = "same_value"
    max_hands: int = 4
    resplit_aces: bool = False
    hit_split_aces: bool = False
    double: Literal["first_two", "any"] = "first_two"
    double_after_split: bool = True
    double_split_aces: bool = False
    surrender: Literal["none", "late", "any"] = "none"
    surrender_after_split: bool = False
    surrender_after_double: bool = False
    # Where the dealer's blackjack shows only after the players acted (no hole
    # card, or no peek on that up-card): True, a surrendered hand loses its whole
    # stake to it, as "late" surrender means (the surrender stood only against no
    # blackjack); False, the surrender was final and the half stays returned.
    surrender_lost_to_dealer_blackjack: bool = False
    insurance: bool = True
    # What a player holding a blackjack is offered against an ace.
    insurance_with_blackjack: Literal["insurance", "even_money", "none"] = "even_money"
    # When the dealer's blackjack shows only after the players acted (no hole
    # card, or no peek on that up-card): what a box that doubled or split loses.
    dealer_blackjack_takes: Literal["original_bets", "all_bets"] = "all_bets"
    # With every hand decided (bust, surrendered, settled), the dealer still
    # draws out the hand. False: the dealer takes only what a pending blackjack
    # or insurance needs (the second card), or nothing.
    dealer_plays_without_live_hands: bool = False
    stand_all: bool = False
    min_bet: Decimal = Decimal(1)
    max_bet: Decimal = Decimal(1000)
    # The currency's smallest amount: a stake is a whole number of it, and what
    # the house pays back is rounded down to it (it pays no fraction of a cent).
    minor_unit: Decimal = Decimal("0.01")
    bonus_blackjack_pays: str = ""
    # Sevens side bet: what a first 7, first two 7s and first three 7s of one
    # hand pay. Empty: not offered.
    bonus_sevens_pays: tuple[str, ...] = ()
    bonus_max: Decimal = Decimal(20)
    # What the decision timer does when a player does not answer in time.
    default_decision: Literal["stand", "basic_strategy"] = "stand"
    # Flag a decision that gives up more than this expected value (per unit of
    # the original bet) against basic strategy, as Diamond Blackjack warns.
    warn_deviation_ev: Decimal | None = None
    published_rtp: str = ""

    def __post_init__(self) -> None:
        problems = []
        if not 1 <= self.decks <= 12:
            problems.append("decks must be 1 to 12")
        if not 1 <= self.boxes <= 9:
            problems.append("boxes must be 1 to 9")
        if not 1 <= self.max_hands <= 8:
            problems.append("max_hands must be 1 to 8")
        if self.shuffle == "cut_card" and self.cut_card_at is None:
            problems.append("cut_card_at is required with shuffle = 'cut_card'")
        if self.cut_card_at is not None and not 0 < self.cut_card_at < self.decks * 52:
            problems.append("cut_card_at must fall inside the shoe")
        bad = [r for r in self.peek_up_cards if r not in ("A", "T")]
        if bad:
            problems.append(f"peek_up_cards holds {bad[0]!r}: only 'A' and 'T'")
        if self.peek_up_cards and not self.hole_card:
            problems.append("peek_up_cards needs hole_card = true")
        if self.min_bet <= 0 or self.max_bet < self.min_bet:
            problems.append("min_bet must be positive and not above max_bet")
        if self.minor_unit <= 0:
            problems.append("minor_unit must be positive")
        if self.bonus_sevens_pays and len(self.bonus_sevens_pays) != 3:
            problems.append("bonus_sevens_pays lists three payouts: 7, 77, 777")
        for ratio in (self.blackjack_pays, self.bonus_blackjack_pays, *self.bonus_sevens_pays):
            if ratio:
                try:
                    parse_ratio(ratio)
                except ValueError as exc:
                    problems.append(str(exc))
        if problems:
            raise ValueError("; ".join(problems))

    def peeks(self, up_rank: str) -> bool:
        key = "T" if up_rank in "TJQK" else up_rank
        return self.hole_card and key in self.peek_up_cards

    def bonus_spots(self) -> tuple[str, ...]:
        spots = []
        if self.bonus_blackjack_pays:
            spots.append("bonus_blackjack")
        if self.bonus_sevens_pays:
            spots.append("bonus_sevens")
        return tuple(spots)


SHIPPED_VARIANTS = shipped_variants("blackjack")


def load_variant(name_or_path: str) -> BlackjackRules:
    """A shipped variant by name, or a variant file by path; ``RuleFileError``
    names the offending key."""
    mapping, source = read_variant_file(name_or_path, "blackjack")
    return build_rules(BlackjackRules, mapping, source)

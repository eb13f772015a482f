"""Settling a blackjack round: every stake, hand by hand, to the exact amount.

A hand's result is a factor on its stake (what comes back per unit staked: 0 for
a loss, 1 for a push, 2 for an even win, 5/2 for a 3:2 blackjack). Every stake on
the box (the seated player's, co-players' on a shared box, Bet Behind) gets the
same factors, so each is settled in proportion. Money is Decimal; payout ratios
are fractions, applied exactly.
"""

from __future__ import annotations

from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from dealer_station.games.blackjack_hand import hand_total, is_two_card_21
from dealer_station.games.blackjack_rules import BlackjackRules
from dealer_station.games.engine import Output, Payout
from dealer_station.games.rulefile import parse_ratio

if TYPE_CHECKING:
    # The round's types only: the engine imports this module to settle.
    from dealer_station.games.blackjack import BlackjackRound, Box, Hand, Stake

LOSE, PUSH, WIN = Fraction(0), Fraction(1), Fraction(2)


def times(rules: BlackjackRules, amount: Decimal, factor: Fraction) -> Decimal:
    """``amount`` times ``factor``, rounded down to the minor unit."""
    exact = amount * factor.numerator / factor.denominator
    return exact.quantize(rules.minor_unit, rounding=ROUND_DOWN)


def blackjack_factor(rules: BlackjackRules, hand: Hand) -> Fraction:
    """What a winning blackjack returns per unit: the suited payouts first."""
    names = {str(c) for c in hand.cards}
    for suited in rules.suited_blackjacks:
        if (suited.cards and names == set(suited.cards)) or (
            suited.suit and all(c.suit == suited.suit for c in hand.cards)
        ):
            return 1 + parse_ratio(suited.pays)
    return 1 + parse_ratio(rules.blackjack_pays)


def hand_result(
    rules: BlackjackRules, rnd: BlackjackRound, box: Box, index: int
) -> tuple[Fraction, str, Output]:
    """The factor on the hand's stake, the result word, and details."""
    hand = box.hands[index]
    dealer_total, _ = hand_total(rnd.dealer)
    dealer_bj = is_two_card_21(rnd.dealer)
    # A blackjack that showed only after the players acted.
    late = dealer_bj and not rules.peeks(rnd.dealer[0].rank)
    # A late surrender lost to that blackjack settles as a standing hand would.
    if hand.surrendered and not (late and rules.surrender_lost_to_dealer_blackjack):
        return Fraction(1, 2), "surrender", {}
    if hand.bust:
        return LOSE, "lose", {}
    if hand.is_blackjack:
        if dealer_bj and rules.blackjack_vs_dealer_blackjack == "push":
            return PUSH, "push", {"blackjack": True}
        return blackjack_factor(rules, hand), "win", {"blackjack": True}
    if dealer_bj:
        # A dealer blackjack that showed only after the players acted takes
        # only the original bet when the variant says so: the double's extra
        # and the split hands' stakes go back.
        if late and rules.dealer_blackjack_takes == "original_bets":
            if index == 0:
                return Fraction(hand.units - 1, hand.units), "lose", {"original_bet_only": True}
            return PUSH, "push", {"original_bet_only": True}
        return LOSE, "lose", {}
    if dealer_total > 21 or hand.total > dealer_total:
        return WIN, "win", {}
    if hand.total == dealer_total:
        return PUSH, "push", {}
    return LOSE, "lose", {}


def _sevens(box: Box) -> int:
    """How many sevens the Sevens side bet counts: the box's first card, its
    first two, or the first three of one unsplit hand."""
    count = 0
    cards = box.first_cards if len(box.hands) > 1 else box.hands[0].cards
    for card in cards[:3]:
        if card.rank != "7":
            break
        count += 1
    return count


def _bonus_factor(rules: BlackjackRules, spot: str, box: Box) -> tuple[Fraction, Output]:
    if spot == "bonus_blackjack":
        hit = is_two_card_21(box.first_cards)
        return (1 + parse_ratio(rules.bonus_blackjack_pays) if hit else LOSE), {}
    sevens = _sevens(box)
    if sevens == 0:
        return LOSE, {"sevens": 0}
    return 1 + parse_ratio(rules.bonus_sevens_pays[sevens - 1]), {"sevens": sevens}


def _result_word(factor: Fraction) -> str:
    return "win" if factor > 1 else "push" if factor == 1 else "lose"


def box_payouts(rules: BlackjackRules, rnd: BlackjackRound, box: Box) -> list[Payout]:
    dealer_bj = is_two_card_21(rnd.dealer)
    answers = {(o.player, o.kind): o.taken for o in rnd.offers if o.box == box.number}
    results = [hand_result(rules, rnd, box, i) for i in range(len(box.hands))]
    payouts: list[Payout] = []
    stakes: list[tuple[str, Stake]] = [("main", s) for s in box.main]
    stakes += [("bet_behind", s) for s in box.behind]
    for spot, stake in stakes:
        where = {"box": box.number}
        if answers.get((stake.player, "even_money")):
            payouts.append(
                Payout(
                    stake.player,
                    spot,
                    stake.amount,
                    stake.amount * 2,
                    "win",
                    {**where, "hand": 0, "even_money": True},
                )
            )
        else:
            for i, (hand, (factor, word, detail)) in enumerate(
                zip(box.hands, results, strict=True)
            ):
                staked = stake.amount * hand.units
                payouts.append(
                    Payout(
                        stake.player,
                        spot,
                        staked,
                        times(rules, staked, factor),
                        word,
                        {**where, "hand": i, **detail},
                    )
                )
        if answers.get((stake.player, "insurance")):
            insured = times(rules, stake.amount, Fraction(1, 2))
            payouts.append(
                Payout(
                    stake.player,
                    "insurance",
                    insured,
                    insured * 3 if dealer_bj else Decimal(0),
                    "win" if dealer_bj else "lose",
                    where,
                )
            )
    for spot, stake in box.bonus:
        factor, detail = _bonus_factor(rules, spot, box)
        payouts.append(
            Payout(
                stake.player,
                spot,
                stake.amount,
                times(rules, stake.amount, factor),
                _result_word(factor),
                {"box": box.number, **detail},
            )
        )
    return payouts


def _void_payouts(rules: BlackjackRules, rnd: BlackjackRound) -> list[Payout]:
    payouts = []
    for box in rnd.boxes:
        units = sum(h.units for h in box.hands)
        stakes = [("main", s) for s in box.main] + [("bet_behind", s) for s in box.behind]
        for spot, stake in stakes:
            staked = stake.amount * units
            payouts.append(Payout(stake.player, spot, staked, staked, "void", {"box": box.number}))
        for o in rnd.offers:
            if o.box == box.number and o.kind == "insurance" and o.taken:
                staked = next(s.amount for _, s in stakes if s.player == o.player)
                insured = times(rules, staked, Fraction(1, 2))
                payouts.append(
                    Payout(o.player, "insurance", insured, insured, "void", {"box": box.number})
                )
        for spot, stake in box.bonus:
            payouts.append(
                Payout(stake.player, spot, stake.amount, stake.amount, "void", {"box": box.number})
            )
    return payouts


def settle(rules: BlackjackRules, rnd: BlackjackRound) -> Output:
    dealer_total, dealer_soft = hand_total(rnd.dealer)
    out: Output = {
        "round": rnd.round_id,
        "game": "blackjack",
        "dealer": {
            "cards": [str(c) for c in rnd.dealer],
            "total": dealer_total,
            "soft": dealer_soft,
            "blackjack": is_two_card_21(rnd.dealer),
        },
        "boxes": [
            {
                "box": box.number,
                "hands": [
                    {
                        "hand": i,
                        "cards": [str(c) for c in hand.cards],
                        "total": hand.total,
                        "soft": hand_total(hand.cards)[1],
                        "doubled": hand.doubled,
                        "result": "void" if rnd.void_reason else hand_result(rules, rnd, box, i)[1],
                    }
                    for i, hand in enumerate(box.hands)
                ],
            }
            for box in rnd.boxes
        ],
    }
    if rnd.void_reason:
        out["voided"] = True
        out["reason"] = rnd.void_reason
        payouts = _void_payouts(rules, rnd)
    else:
        payouts = [p for box in rnd.boxes for p in box_payouts(rules, rnd, box)]
    out["payouts"] = [p.to_json() for p in payouts]
    return out

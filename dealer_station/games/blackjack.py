"""The blackjack engine: one round at one table as a pure state machine.

At every moment the round answers "who gets the next card" and "which actions
are legal for whom"; a card, bet or decision the variant's rules do not allow
now is refused with a machine-readable reason and the state stays as it was.
Every rule is a parameter of ``BlackjackRules``; settlement lives in
``blackjack_settle``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Literal

from dealer_station.games.blackjack_hand import card_value, hand_total, is_two_card_21
from dealer_station.games.blackjack_rules import BlackjackRules, load_variant
from dealer_station.games.blackjack_settle import box_payouts, settle
from dealer_station.games.cards import Card
from dealer_station.games.engine import GameSetup, NextStep, Output, money
from dealer_station.games.events import (
    CancelBet,
    CloseBets,
    CloseInsurance,
    DealCard,
    Decision,
    Event,
    PlaceBet,
    VoidRound,
)
from dealer_station.games.rejection import Rejected

DEFAULT_VARIANT = "standard-blackjack"

PLAY_ACTIONS = ("hit", "stand", "double", "split", "surrender", "stand_all")
OFFER_ANSWERS = {
    "insurance": ("insurance", True),
    "no_insurance": ("insurance", False),
    "even_money": ("even_money", True),
    "no_even_money": ("even_money", False),
}

Phase = Literal["betting", "dealing", "insurance", "playing", "dealer", "over"]
# The dealer's second card in a hole-card variant: not dealt yet, lying face
# down (its value known to the journal and nobody else), or turned over.
HoleCard = Literal["none", "face_down", "revealed"]


@dataclass(frozen=True, slots=True)
class Stake:
    player: str
    amount: Decimal


@dataclass(frozen=True, slots=True)
class Hand:
    cards: tuple[Card, ...] = ()
    doubled: bool = False
    from_split: bool = False
    split_aces: bool = False
    surrendered: bool = False
    stood: bool = False
    # A hit or double was accepted and its card has not come yet.
    awaiting_card: bool = False

    @property
    def total(self) -> int:
        return hand_total(self.cards)[0]

    @property
    def bust(self) -> bool:
        return self.total > 21

    @property
    def is_blackjack(self) -> bool:
        return not self.from_split and is_two_card_21(self.cards)

    @property
    def units(self) -> int:
        """The hand's stake in units of the box's original bet."""
        return 2 if self.doubled else 1

    @property
    def done(self) -> bool:
        """No more cards or decisions for this hand."""
        return (
            self.stood
            or self.surrendered
            or self.bust
            or self.is_blackjack
            or (len(self.cards) >= 2 and self.total == 21 and not self.awaiting_card)
        )


@dataclass(frozen=True, slots=True)
class Offer:
    """An insurance or even-money offer to one stake owner, and the answer."""

    box: int
    player: str
    kind: Literal["insurance", "even_money"]
    taken: bool | None = None


@dataclass(frozen=True, slots=True)
class Box:
    number: int
    # The first main stake is the seated player's: that player decides.
    main: tuple[Stake, ...]
    behind: tuple[Stake, ...] = ()
    bonus: tuple[tuple[str, Stake], ...] = ()
    hands: tuple[Hand, ...] = (Hand(),)
    # The box's first two cards as dealt, before any split (the side bets' cards).
    first_cards: tuple[Card, ...] = ()

    @property
    def seated(self) -> str:
        return self.main[0].player

    @property
    def main_total(self) -> Decimal:
        return sum((s.amount for s in self.main), Decimal(0))

    @property
    def has_blackjack(self) -> bool:
        return len(self.hands) == 1 and self.hands[0].is_blackjack


@dataclass(frozen=True, slots=True)
class BlackjackRound:
    round_id: str
    phase: Phase = "betting"
    boxes: tuple[Box, ...] = ()
    dealer: tuple[Card, ...] = ()
    offers: tuple[Offer, ...] = ()
    void_reason: str = ""
    hole_card: HoleCard = "none"

    @property
    def up_card(self) -> Card | None:
        return self.dealer[0] if self.dealer else None

    def box(self, number: int) -> Box:
        for b in self.boxes:
            if b.number == number:
                return b
        raise Rejected("no_such_box", f"box {number} has no bet in this round")


def split_refusal(
    rules: BlackjackRules,
    cards: Sequence[Card],
    hands_in_box: int,
    *,
    split_aces: bool,
    doubled: bool = False,
) -> str:
    """Why a hand of ``cards`` in a box of ``hands_in_box`` hands may not
    split, or ``""``. The one answer the engine and the strategy both ask, so
    that basic strategy never values a split the table would refuse."""
    if len(cards) != 2 or doubled:
        return "split_only_on_first_two_cards"
    a, b = cards
    if card_value(a) != card_value(b):
        return "split_not_a_pair"
    if rules.split == "same_rank" and a.rank != b.rank:
        return "split_not_allowed_same_rank_only"
    if hands_in_box >= rules.max_hands:
        return "split_limit_reached"
    if split_aces and not rules.resplit_aces:
        return "resplit_aces_not_allowed"
    return ""


def _replace_hand(rnd: BlackjackRound, box_number: int, index: int, hand: Hand) -> BlackjackRound:
    boxes = tuple(
        replace(b, hands=(*b.hands[:index], hand, *b.hands[index + 1 :]))
        if b.number == box_number
        else b
        for b in rnd.boxes
    )
    return replace(rnd, boxes=boxes)


class BlackjackEngine:
    game = "blackjack"

    def __init__(self, rules: BlackjackRules) -> None:
        self.rules = rules

    # -- what the round waits for ------------------------------------------------

    def new_round(self, round_id: str) -> BlackjackRound:
        return BlackjackRound(round_id)

    def is_over(self, state: BlackjackRound) -> bool:
        return state.phase == "over"

    def next_step(self, state: BlackjackRound) -> NextStep:
        if state.phase == "betting":
            return NextStep("bets")
        if state.phase == "dealing":
            return self._initial_card(state)
        if state.phase == "insurance":
            waiting = [o for o in state.offers if o.taken is None]
            return NextStep(
                "insurance",
                ", ".join(f"box {o.box} {o.player} {o.kind}" for o in waiting),
                tuple(sorted({a for o in waiting for a in self._answers(o)})),
            )
        if state.phase == "playing":
            current = self._current(state)
            assert current is not None  # "playing" always has a hand to play
            box, index = current
            hand = state.box(box).hands[index]
            if len(hand.cards) < 2 or hand.awaiting_card:
                return NextStep.at_hand("card", box, index)
            return NextStep.at_hand("decision", box, index, self.legal_actions(state, box, index))
        if state.phase == "dealer":
            return NextStep("card", "dealer")
        return NextStep("settled")

    def _initial_card(self, state: BlackjackRound) -> NextStep:
        for b in state.boxes:
            if not b.hands[0].cards:
                return NextStep.at_hand("card", b.number, 0)
        if not state.dealer:
            return NextStep("card", "dealer")
        for b in state.boxes:
            if len(b.hands[0].cards) < 2:
                return NextStep.at_hand("card", b.number, 0)
        return NextStep("card", "dealer")

    def _current(self, state: BlackjackRound) -> tuple[int, int] | None:
        for b in state.boxes:
            for i, hand in enumerate(b.hands):
                if not hand.done:
                    return b.number, i
        return None

    # -- the one entry point -------------------------------------------------------

    def apply(self, state: BlackjackRound, event: Event) -> tuple[BlackjackRound, list[Output]]:
        if state.phase == "over":
            raise Rejected("round_over", "the round is settled")
        if isinstance(event, VoidRound):
            # A void ends the round: no decision is left that the hole card
            # could sway, and recall must show every card the round dealt.
            voided, outputs = _reveal(state, [], "round_void")
            outputs.append({"type": "round_void", "reason": event.reason})
            return replace(voided, phase="over", void_reason=event.reason), outputs
        if isinstance(event, PlaceBet | CancelBet):
            if state.phase != "betting":
                raise Rejected("betting_closed", "bets are taken only while betting is open")
            if isinstance(event, PlaceBet):
                new = self._place_bet(state, event)
                return new, [{"type": "bet_placed", **_bet_json(new, event)}]
            return self._cancel_bet(state, event), [
                {"type": "bet_cancelled", **_bet_json(state, event)}
            ]
        if isinstance(event, CloseBets):
            if state.phase != "betting":
                raise Rejected("betting_closed", "betting is already closed")
            closed: Output = {"type": "bets_closed", "bets": _count_bets(state)}
            if not state.boxes:
                return replace(state, phase="over"), [closed]
            return replace(state, phase="dealing"), [closed]
        if isinstance(event, DealCard):
            return self._deal(state, event.card)
        if isinstance(event, Decision):
            if event.action in OFFER_ANSWERS:
                return self._answer_offer(state, event)
            return self._decide(state, event)
        if isinstance(event, CloseInsurance):
            if state.phase != "insurance":
                raise Rejected("no_offer_open", "no insurance offer is open")
            offers = tuple(replace(o, taken=False) if o.taken is None else o for o in state.offers)
            return self._after_offers(replace(state, offers=offers), [])
        raise Rejected("not_in_this_game", f"{event.type} is not a blackjack event")

    # -- bets ----------------------------------------------------------------------

    def _place_bet(self, state: BlackjackRound, bet: PlaceBet) -> BlackjackRound:
        rules = self.rules
        if bet.amount % rules.minor_unit:
            raise Rejected("bad_amount", f"stakes are whole {rules.minor_unit}s")
        if bet.box is None or not 1 <= bet.box <= rules.boxes:
            raise Rejected("no_such_box", f"boxes are numbered 1 to {rules.boxes}")
        existing = next((b for b in state.boxes if b.number == bet.box), None)
        if bet.spot == "main":
            if rules.one_player:
                others = {b.seated for b in state.boxes} - {bet.player}
                if others:
                    raise Rejected("table_has_one_player", f"this table is {others.pop()}'s")
            if existing is None:
                box = Box(bet.box, (Stake(bet.player, bet.amount),))
            else:
                box = replace(existing, main=_add_stake(existing.main, bet.player, bet.amount))
                if existing.seated != bet.player and not rules.shared_boxes:
                    raise Rejected("box_taken", f"box {bet.box} is {existing.seated}'s")
            if box.main_total > rules.max_bet:
                raise Rejected("above_table_maximum", f"box stakes exceed {rules.max_bet}")
            if _stake_of(box.main, bet.player) < rules.min_bet:
                raise Rejected("below_table_minimum", f"the minimum is {rules.min_bet}")
        elif bet.spot == "bet_behind":
            if not rules.bet_behind:
                raise Rejected("bet_behind_not_offered", "this variant has no Bet Behind")
            if existing is None:
                raise Rejected("no_seat_to_back", f"box {bet.box} has no seated player")
            if bet.player in {s.player for s in existing.main}:
                raise Rejected("bet_behind_own_box", "a seated player cannot bet behind their box")
            box = replace(existing, behind=_add_stake(existing.behind, bet.player, bet.amount))
            stake = _stake_of(box.behind, bet.player)
            if stake < rules.min_bet:
                raise Rejected("below_table_minimum", f"the minimum is {rules.min_bet}")
            if stake > rules.max_bet:
                raise Rejected("above_table_maximum", f"the maximum is {rules.max_bet}")
        elif bet.spot in rules.bonus_spots():
            if existing is None or bet.player not in {s.player for s in existing.main}:
                raise Rejected("bonus_needs_main_bet", "a side bet needs a main bet on the box")
            mine = tuple(s for spot, s in existing.bonus if spot == bet.spot)
            mine = _add_stake(mine, bet.player, bet.amount)
            if sum((s.amount for s in mine), Decimal(0)) > rules.bonus_max:
                raise Rejected("above_table_maximum", f"the side bet maximum is {rules.bonus_max}")
            bonus = tuple((spot, s) for spot, s in existing.bonus if spot != bet.spot)
            box = replace(existing, bonus=bonus + tuple((bet.spot, s) for s in mine))
        else:
            offered = ", ".join(
                ("main", *(["bet_behind"] if rules.bet_behind else []), *rules.bonus_spots())
            )
            raise Rejected("unknown_spot", f"{bet.spot!r}: this variant offers {offered}")
        boxes = tuple(
            sorted((*(b for b in state.boxes if b.number != bet.box), box), key=lambda b: b.number)
        )
        return replace(state, boxes=boxes)

    def _cancel_bet(self, state: BlackjackRound, cancel: CancelBet) -> BlackjackRound:
        box = state.box(cancel.box if cancel.box is not None else -1)
        if cancel.spot == "main":
            if _stake_of(box.main, cancel.player) == 0:
                raise Rejected(
                    "no_such_bet", f"{cancel.player} has no main bet on box {box.number}"
                )
            main = tuple(s for s in box.main if s.player != cancel.player)
            bonus = tuple((spot, s) for spot, s in box.bonus if s.player != cancel.player)
            if not main:
                # With the seat empty, Bet Behind has nothing to follow: it goes too.
                boxes = tuple(b for b in state.boxes if b.number != box.number)
                return replace(state, boxes=boxes)
            new = replace(box, main=main, bonus=bonus)
        elif cancel.spot == "bet_behind":
            if _stake_of(box.behind, cancel.player) == 0:
                raise Rejected(
                    "no_such_bet", f"{cancel.player} has no Bet Behind on box {box.number}"
                )
            new = replace(box, behind=tuple(s for s in box.behind if s.player != cancel.player))
        else:
            kept = tuple(
                (spot, s)
                for spot, s in box.bonus
                if not (spot == cancel.spot and s.player == cancel.player)
            )
            if len(kept) == len(box.bonus):
                raise Rejected("no_such_bet", f"{cancel.player} has no {cancel.spot} bet")
            new = replace(box, bonus=kept)
        return replace(
            state, boxes=tuple(new if b.number == box.number else b for b in state.boxes)
        )

    # -- cards ---------------------------------------------------------------------

    def _deal(self, state: BlackjackRound, card: Card) -> tuple[BlackjackRound, list[Output]]:
        step = self.next_step(state)
        if step.kind != "card":
            raise Rejected(
                "misdeal", f"no card is due now: waiting for {step.kind} {step.to}".strip()
            )
        if step.to == "dealer":
            hole = state.phase == "dealing" and self.rules.hole_card and len(state.dealer) == 1
            new = replace(
                state,
                dealer=(*state.dealer, card),
                hole_card="face_down" if hole else state.hole_card,
            )
            total, soft = hand_total(new.dealer)
            # The engine says what it knows; dealer_station.visibility decides
            # what of a face-down card leaves the station (nothing but its face).
            outputs: list[Output] = [
                {
                    "type": "card_dealt",
                    "card": str(card),
                    "to": "dealer",
                    "face": "down" if hole else "up",
                    "total": total,
                    "soft": soft,
                }
            ]
            if state.phase == "dealing":
                return self._after_card(new, outputs)
            return self._dealer_continue(new, outputs)
        assert step.box is not None and step.hand is not None  # a card not to the dealer
        box_number, index = step.box, step.hand
        box = state.box(box_number)
        hand = box.hands[index]
        hand = replace(hand, cards=(*hand.cards, card), awaiting_card=False)
        if hand.doubled and not self._may_act_after_double(hand):
            hand = replace(hand, stood=True)
        if (
            hand.split_aces
            and len(hand.cards) == 2
            and not self.rules.hit_split_aces
            and not self._may_resplit_aces_now(box, hand)
        ):
            hand = replace(hand, stood=True)
        new = _replace_hand(state, box_number, index, hand)
        if state.phase == "dealing":
            new = replace(
                new,
                boxes=tuple(
                    replace(b, first_cards=(*b.first_cards, card)) if b.number == box_number else b
                    for b in new.boxes
                ),
            )
        total, soft = hand_total(hand.cards)
        outputs = [
            {
                "type": "card_dealt",
                "card": str(card),
                "to": "box",
                "box": box_number,
                "hand": index,
                "face": "up",
                "total": total,
                "soft": soft,
            }
        ]
        if hand.bust:
            outputs.append({"type": "hand_bust", "box": box_number, "hand": index, "total": total})
        return self._after_card(new, outputs)

    def _may_act_after_double(self, hand: Hand) -> bool:
        """After a double's card, Diamond lets the player still surrender."""
        return (
            self.rules.surrender_after_double
            and self.rules.surrender == "any"
            and not hand.split_aces
        )

    def _may_resplit_aces_now(self, box: Box, hand: Hand) -> bool:
        return (
            self.rules.resplit_aces
            and hand.cards[1].rank == "A"
            and len(box.hands) < self.rules.max_hands
        )

    def _after_card(
        self, state: BlackjackRound, outputs: list[Output]
    ) -> tuple[BlackjackRound, list[Output]]:
        if state.phase == "dealing":
            complete = len(state.dealer) == (2 if self.rules.hole_card else 1) and all(
                len(b.hands[0].cards) == 2 for b in state.boxes
            )
            return self._after_deal(state, outputs) if complete else (state, outputs)
        return self._continue_play(state, outputs)

    def _after_deal(
        self, state: BlackjackRound, outputs: list[Output]
    ) -> tuple[BlackjackRound, list[Output]]:
        up = state.dealer[0]
        offers: list[Offer] = []
        if up.rank == "A" and self.rules.insurance:
            for b in state.boxes:
                kind: Literal["insurance", "even_money"] | None = "insurance"
                if b.has_blackjack:
                    with_bj = self.rules.insurance_with_blackjack
                    kind = None if with_bj == "none" else with_bj
                if kind is None:
                    continue
                for stake in (*b.main, *b.behind):
                    offers.append(Offer(b.number, stake.player, kind))
        if offers:
            outputs.append(
                {"type": "insurance_offered", "offers": [_offer_json(o) for o in offers]}
            )
            return replace(state, phase="insurance", offers=tuple(offers)), outputs
        return self._after_offers(state, outputs)

    def _after_offers(
        self, state: BlackjackRound, outputs: list[Output]
    ) -> tuple[BlackjackRound, list[Output]]:
        up = state.dealer[0]
        if self.rules.peeks(up.rank):
            has_bj = is_two_card_21(state.dealer)
            outputs.append({"type": "dealer_peeked", "blackjack": has_bj})
            if has_bj:
                revealed, outputs = _reveal(state, outputs, "dealer_blackjack")
                return replace(revealed, phase="over"), outputs
        for box in state.boxes:
            if box.has_blackjack and self._blackjack_final_now(up):
                paid = [
                    p.to_json()
                    for p in box_payouts(self.rules, state, box)
                    if p.spot in ("main", "bet_behind") and "even_money" not in (p.detail or {})
                ]
                outputs.append({"type": "blackjack_paid", "box": box.number, "payouts": paid})
        return self._continue_play(replace(state, phase="playing"), outputs)

    def _blackjack_final_now(self, up: Card) -> bool:
        """Whether a player's blackjack is paid right after the deal: the
        variant says so and no dealer card can change it any more."""
        if not self.rules.pay_blackjack_at_once:
            return False
        dealer_may_have_blackjack = up.rank == "A" or up.is_ten_value
        return (
            not dealer_may_have_blackjack
            or self.rules.blackjack_vs_dealer_blackjack == "player_wins"
        )

    def _continue_play(
        self, state: BlackjackRound, outputs: list[Output]
    ) -> tuple[BlackjackRound, list[Output]]:
        if self._current(state) is not None:
            return state, outputs
        state, outputs = _reveal(replace(state, phase="dealer"), outputs, "dealer_plays")
        return self._dealer_continue(state, outputs)

    # -- the dealer ----------------------------------------------------------------

    def dealer_must_draw(self, state: BlackjackRound) -> bool:
        """Whether the dealer's hand takes another card: draw to 16, stand on
        17 (soft 17 too unless the variant hits it), and draw at all only for
        what is still open on the table."""
        total, soft = hand_total(state.dealer)
        if total > 17 or (total == 17 and not (soft and self.rules.dealer_hits_soft_17)):
            return False
        if self.rules.dealer_plays_without_live_hands or self._live_hands(state):
            return True
        # Only a dealer blackjack could still change something: the second card.
        return len(state.dealer) < 2 and self._waits_on_dealer_blackjack(state)

    def _live_hands(self, state: BlackjackRound) -> bool:
        return any(
            not (h.bust or h.surrendered or h.is_blackjack) for b in state.boxes for h in b.hands
        )

    def _waits_on_dealer_blackjack(self, state: BlackjackRound) -> bool:
        if any(o.kind == "insurance" and o.taken for o in state.offers):
            return True
        up = state.dealer[0]
        if (
            self.rules.surrender_lost_to_dealer_blackjack
            and (up.rank == "A" or up.is_ten_value)
            and any(h.surrendered for b in state.boxes for h in b.hands)
        ):
            return True  # a late surrender stands only if the second card makes no blackjack
        if self.rules.blackjack_vs_dealer_blackjack == "player_wins":
            return False
        took_even_money = {
            (o.box, o.player) for o in state.offers if o.kind == "even_money" and o.taken
        }
        return any(
            (b.number, s.player) not in took_even_money
            for b in state.boxes
            if b.has_blackjack
            for s in (*b.main, *b.behind)
        )

    def _dealer_continue(
        self, state: BlackjackRound, outputs: list[Output]
    ) -> tuple[BlackjackRound, list[Output]]:
        if self.dealer_must_draw(state):
            return state, outputs
        total, _soft = hand_total(state.dealer)
        outputs.append(
            {"type": "dealer_stands", "total": total, "cards": [str(c) for c in state.dealer]}
        )
        return replace(state, phase="over"), outputs

    # -- decisions -----------------------------------------------------------------

    def _answers(self, offer: Offer) -> tuple[str, ...]:
        if offer.kind == "insurance":
            return ("insurance", "no_insurance")
        return ("even_money", "no_even_money")

    def _answer_offer(
        self, state: BlackjackRound, decision: Decision
    ) -> tuple[BlackjackRound, list[Output]]:
        if state.phase != "insurance":
            raise Rejected("no_offer_open", "insurance and even money are offered after the deal")
        kind, taken = OFFER_ANSWERS[decision.action]
        player = decision.player or state.box(decision.box).seated
        matches = [
            i for i, o in enumerate(state.offers) if o.box == decision.box and o.player == player
        ]
        if not matches:
            raise Rejected("not_offered", f"{player} has no offer on box {decision.box}")
        i = matches[0]
        offer = state.offers[i]
        if offer.kind != kind:
            raise Rejected(f"{kind}_not_offered", f"box {decision.box} is offered {offer.kind}")
        if offer.taken is not None:
            raise Rejected("already_answered", f"{player} already answered on box {decision.box}")
        offers = (*state.offers[:i], replace(offer, taken=taken), *state.offers[i + 1 :])
        new = replace(state, offers=offers)
        outputs: list[Output] = [
            {"type": "decision", "box": decision.box, "player": player, "action": decision.action}
        ]
        if all(o.taken is not None for o in offers):
            return self._after_offers(new, outputs)
        return new, outputs

    def _decide(
        self, state: BlackjackRound, decision: Decision
    ) -> tuple[BlackjackRound, list[Output]]:
        if decision.action not in PLAY_ACTIONS:
            raise Rejected("unknown_action", f"{decision.action!r} is not a blackjack action")
        step = self.next_step(state)
        if step.kind != "decision":
            reason = {"card": "card_due", "insurance": "insurance_pending"}.get(
                step.kind, "no_decision_due"
            )
            raise Rejected(reason, f"waiting for {step.kind} {step.to}".strip())
        assert step.box is not None and step.hand is not None  # a decision is a hand's
        box_number, index = step.box, step.hand
        hand_index = decision.hand if decision.hand is not None else index
        if (decision.box, hand_index) != (box_number, index):
            raise Rejected("not_your_turn", f"the decision is due on {step.to}")
        box = state.box(box_number)
        if decision.player is not None and decision.player != box.seated:
            raise Rejected("not_seated_player", f"{box.seated} decides for box {box_number}")
        reason = self.why_not(state, box_number, index, decision.action)
        if reason:
            raise Rejected(reason, f"{decision.action} on {step.to}")
        hand = box.hands[index]
        outputs: list[Output] = [
            {"type": "decision", "box": box_number, "hand": index, "action": decision.action}
        ]
        if decision.action == "hit":
            new = _replace_hand(state, box_number, index, replace(hand, awaiting_card=True))
        elif decision.action == "stand":
            new = _replace_hand(state, box_number, index, replace(hand, stood=True))
        elif decision.action == "double":
            new = _replace_hand(
                state, box_number, index, replace(hand, doubled=True, awaiting_card=True)
            )
        elif decision.action == "surrender":
            new = _replace_hand(state, box_number, index, replace(hand, surrendered=True))
        elif decision.action == "split":
            aces = hand.cards[0].rank == "A"
            first = Hand((hand.cards[0],), from_split=True, split_aces=aces)
            second = Hand((hand.cards[1],), from_split=True, split_aces=aces)
            hands = (*box.hands[:index], first, second, *box.hands[index + 1 :])
            new = replace(
                state,
                boxes=tuple(
                    replace(b, hands=hands) if b.number == box_number else b for b in state.boxes
                ),
            )
        else:  # stand_all: every remaining hand of this player stands
            player = box.seated
            new = replace(
                state,
                boxes=tuple(
                    replace(
                        b, hands=tuple(h if h.done else replace(h, stood=True) for h in b.hands)
                    )
                    if b.seated == player
                    else b
                    for b in state.boxes
                ),
            )
        return self._continue_play(new, outputs)

    def legal_actions(self, state: BlackjackRound, box: int, hand: int) -> tuple[str, ...]:
        return tuple(a for a in PLAY_ACTIONS if not self.why_not(state, box, hand, a))

    def why_not(self, state: BlackjackRound, box_number: int, index: int, action: str) -> str:
        """The reason ``action`` is not allowed on this hand now, or ``""``."""
        rules = self.rules
        box = state.box(box_number)
        hand = box.hands[index]
        if action == "stand":
            return ""
        if action == "stand_all":
            return "" if rules.stand_all else "stand_all_not_offered"
        if action == "hit":
            if hand.doubled:
                return "hit_not_allowed_after_double"
            if hand.split_aces and not rules.hit_split_aces:
                return "hit_not_allowed_on_split_aces"
            return ""
        if action == "double":
            if hand.doubled:
                return "double_not_allowed_twice"
            if hand.split_aces and not rules.double_split_aces:
                return "double_not_allowed_after_split_aces"
            if hand.from_split and not rules.double_after_split:
                return "double_not_allowed_after_split"
            if rules.double == "first_two" and len(hand.cards) != 2:
                return "double_only_on_first_two_cards"
            return ""
        if action == "split":
            return split_refusal(
                rules, hand.cards, len(box.hands), split_aces=hand.split_aces, doubled=hand.doubled
            )
        if action == "surrender":
            if rules.surrender == "none":
                return "surrender_not_offered"
            if hand.split_aces:
                return "surrender_not_allowed_on_split_aces"
            if hand.from_split and not rules.surrender_after_split:
                return "surrender_not_allowed_after_split"
            if hand.doubled and not rules.surrender_after_double:
                return "surrender_not_allowed_after_double"
            if rules.surrender == "late" and len(hand.cards) != 2:
                return "surrender_only_on_first_two_cards"
            return ""
        return "unknown_action"

    def outcome(self, state: BlackjackRound) -> Output:
        return settle(self.rules, state)


def _reveal(
    state: BlackjackRound, outputs: list[Output], why: str
) -> tuple[BlackjackRound, list[Output]]:
    """Turn the hole card over, if one lies face down: the one output that
    carries its value (and the dealer's whole total) out of the station."""
    if state.hole_card != "face_down":
        return state, outputs
    total, soft = hand_total(state.dealer)
    revealed: Output = {
        "type": "hole_card_revealed",
        "card": str(state.dealer[1]),
        "cards": [str(c) for c in state.dealer],
        "total": total,
        "soft": soft,
        "why": why,
    }
    return replace(state, hole_card="revealed"), [*outputs, revealed]


def _add_stake(stakes: tuple[Stake, ...], player: str, amount: Decimal) -> tuple[Stake, ...]:
    for i, s in enumerate(stakes):
        if s.player == player:
            return (*stakes[:i], Stake(player, s.amount + amount), *stakes[i + 1 :])
    return (*stakes, Stake(player, amount))


def _stake_of(stakes: tuple[Stake, ...], player: str) -> Decimal:
    return sum((s.amount for s in stakes if s.player == player), Decimal(0))


def _stakes_on(box: Box, spot: str) -> tuple[Stake, ...]:
    if spot == "main":
        return box.main
    if spot == "bet_behind":
        return box.behind
    return tuple(s for name, s in box.bonus if name == spot)


def _bet_json(state: BlackjackRound, bet: PlaceBet | CancelBet) -> Output:
    """The bet as placed or cancelled, with the player's stake on the spot: the
    total after a placement, the amount removed by a cancellation."""
    out: Output = {"player": bet.player, "spot": bet.spot, "box": bet.box}
    stake = _stake_of(_stakes_on(state.box(bet.box or 0), bet.spot), bet.player)
    if isinstance(bet, PlaceBet):
        out["amount"] = money(bet.amount)
        out["total"] = money(stake)
    else:
        out["amount"] = money(stake)
    return out


def _count_bets(state: BlackjackRound) -> int:
    return sum(len(b.main) + len(b.behind) + len(b.bonus) for b in state.boxes)


def _offer_json(offer: Offer) -> Output:
    return {"box": offer.box, "player": offer.player, "kind": offer.kind}


def setup(variant: str | None, decks: int | None) -> GameSetup:
    rules = load_variant(variant or DEFAULT_VARIANT)
    if decks is not None:
        rules = replace(rules, decks=decks)
    return GameSetup(
        engine=BlackjackEngine(rules),
        variant=variant or DEFAULT_VARIANT,
        decks=rules.decks,
        cut_card_at=rules.cut_card_at,
        shuffle_every_round=rules.shuffle == "every_round",
    )

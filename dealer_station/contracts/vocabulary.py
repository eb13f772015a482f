"""The closed word lists of the contract: a round event's ``type`` and
``source``, a refusal's ``reason``, and the smaller lists the events carry.

They are enums in the published JSON Schemas so that a consumer can switch on
them. The engine keeps writing plain strings (it is pure and imports nothing of
the runtime); tests/contracts/test_vocabulary.py reads the code for every
reason and source it can produce and fails when one is missing here.
"""

from __future__ import annotations

from enum import StrEnum


class EventType(StrEnum):
    """A round event's ``type``: the engine's records (docs/events.md), then the
    station's own (``rejected``, ``alarm``, ``device``)."""

    table_ready = "table_ready"
    round_opened = "round_opened"
    bet_placed = "bet_placed"
    bet_cancelled = "bet_cancelled"
    bets_closed = "bets_closed"
    card_dealt = "card_dealt"
    decision = "decision"
    insurance_offered = "insurance_offered"
    dealer_peeked = "dealer_peeked"
    hole_card_revealed = "hole_card_revealed"
    blackjack_paid = "blackjack_paid"
    hand_bust = "hand_bust"
    dealer_stands = "dealer_stands"
    winning_number = "winning_number"
    round_held = "round_held"
    hold_released = "hold_released"
    round_void = "round_void"
    round_settled = "round_settled"
    burned = "burned"
    shuffle = "shuffle"
    new_shoe = "new_shoe"
    shuffle_due = "shuffle_due"
    count_out_started = "count_out_started"
    counted = "counted"
    dealer_changed = "dealer_changed"
    table_state = "table_state"
    rejected = "rejected"
    alarm = "alarm"
    device = "device"


class Source(StrEnum):
    """Who sent the input a round event came from."""

    shoe = "shoe"
    camera = "camera"
    wheel_sensor = "wheel_sensor"
    console = "console"
    api = "api"
    pit_boss = "pit_boss"
    timer = "timer"
    croupier = "croupier"  # the self-driving croupier (dealer_station/croupier.py)
    station = "station"


class RefusalReason(StrEnum):
    """Why an input was refused: a ``rejected`` event's ``reason`` and an HTTP
    refusal's (docs/events.md, "Rejection reasons"; docs/api.md)."""

    # Malformed input.
    bad_json = "bad_json"
    bad_event = "bad_event"
    bad_card = "bad_card"
    bad_variant = "bad_variant"
    unknown_game = "unknown_game"
    not_in_this_game = "not_in_this_game"
    # The station's own, and the HTTP API's.
    stale = "stale"
    precondition_required = "precondition_required"
    bad_precondition = "bad_precondition"
    idempotency_key_required = "idempotency_key_required"
    bad_idempotency_key = "bad_idempotency_key"
    idempotency_key_reused = "idempotency_key_reused"
    round_id_taken = "round_id_taken"
    round_id_reserved = "round_id_reserved"
    camera_online = "camera_online"
    sensor_online = "sensor_online"
    # The table.
    no_table = "no_table"
    no_round = "no_round"
    round_in_progress = "round_in_progress"
    round_over = "round_over"
    shuffle_due = "shuffle_due"
    counting_out = "counting_out"
    no_shoe = "no_shoe"
    round_held = "round_held"
    not_held = "not_held"
    not_releasable = "not_releasable"
    no_dealer = "no_dealer"
    already_signed_on = "already_signed_on"
    no_dealer_signed_on = "no_dealer_signed_on"
    table_open = "table_open"
    table_closing = "table_closing"
    table_closed = "table_closed"
    destination_changed = "destination_changed"
    impossible_card = "impossible_card"
    misdeal = "misdeal"
    # Bets.
    bets_open = "bets_open"
    betting_closed = "betting_closed"
    bad_bet = "bad_bet"
    bad_amount = "bad_amount"
    unknown_spot = "unknown_spot"
    no_such_bet = "no_such_bet"
    no_such_box = "no_such_box"
    box_taken = "box_taken"
    table_has_one_player = "table_has_one_player"
    below_table_minimum = "below_table_minimum"
    above_table_maximum = "above_table_maximum"
    one_pair_bet_only = "one_pair_bet_only"
    bet_not_on_layout = "bet_not_on_layout"
    not_a_pocket = "not_a_pocket"
    bet_behind_not_offered = "bet_behind_not_offered"
    bet_behind_own_box = "bet_behind_own_box"
    no_seat_to_back = "no_seat_to_back"
    bonus_needs_main_bet = "bonus_needs_main_bet"
    # Blackjack decisions.
    not_your_turn = "not_your_turn"
    card_due = "card_due"
    insurance_pending = "insurance_pending"
    no_decision_due = "no_decision_due"
    not_seated_player = "not_seated_player"
    unknown_action = "unknown_action"
    hit_not_allowed_after_double = "hit_not_allowed_after_double"
    hit_not_allowed_on_split_aces = "hit_not_allowed_on_split_aces"
    double_only_on_first_two_cards = "double_only_on_first_two_cards"
    double_not_allowed_after_split = "double_not_allowed_after_split"
    double_not_allowed_after_split_aces = "double_not_allowed_after_split_aces"
    double_not_allowed_twice = "double_not_allowed_twice"
    split_only_on_first_two_cards = "split_only_on_first_two_cards"
    split_not_a_pair = "split_not_a_pair"
    split_not_allowed_same_rank_only = "split_not_allowed_same_rank_only"
    split_limit_reached = "split_limit_reached"
    resplit_aces_not_allowed = "resplit_aces_not_allowed"
    surrender_not_offered = "surrender_not_offered"
    surrender_only_on_first_two_cards = "surrender_only_on_first_two_cards"
    surrender_not_allowed_after_split = "surrender_not_allowed_after_split"
    surrender_not_allowed_after_double = "surrender_not_allowed_after_double"
    surrender_not_allowed_on_split_aces = "surrender_not_allowed_on_split_aces"
    stand_all_not_offered = "stand_all_not_offered"
    no_offer_open = "no_offer_open"
    not_offered = "not_offered"
    insurance_not_offered = "insurance_not_offered"
    even_money_not_offered = "even_money_not_offered"
    already_answered = "already_answered"

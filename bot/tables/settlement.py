"""What a finished hand means for the ledger and for the players: results, stats, awards."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n import Text
from bot.i18n.poker import hand_name
from bot.ledger import HandParticipant
from bot.tables.notifier import HandOutcome, PlayerResult, PotAward, ShownHand
from bot.tables.seats import Seat
from engine.actions import ActionKind, Street
from engine.hand import Hand, HandResult

_VOLUNTARY = frozenset({ActionKind.CALL, ActionKind.BET, ActionKind.RAISE})
_AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE})


def finished_result(hand: Hand) -> HandResult:
    """The result of a hand that must be over."""
    result = hand.result
    if result is None:
        raise RuntimeError("the hand is not over yet")
    return result


def participants(hand: Hand, seats: Sequence[Seat]) -> list[HandParticipant]:
    """One ledger record per player dealt in (``seats[i]`` played hand seat ``i``).

    A player *won* when they collected chips from a pot, *at showdown* when the hand did not
    end by folds; VPIP counts a voluntary call, bet or raise before the flop (blinds do not),
    PFR a bet or raise before the flop.
    """
    result = finished_result(hand)
    vpip: set[int] = set()
    pfr: set[int] = set()
    for record in hand.history:
        if record.street is Street.PREFLOP and record.kind in _VOLUNTARY:
            vpip.add(record.seat)
            if record.kind in _AGGRESSIVE:
                pfr.add(record.seat)
    records = []
    for position, seat in enumerate(seats):
        pot_won = result.won_by(position)
        records.append(HandParticipant(
            player=seat.key,
            name=seat.name,
            net=result.net[position],
            won=pot_won > 0,
            showdown_won=pot_won > 0 and not result.ended_by_folds,
            vpip=position in vpip,
            pfr=position in pfr,
            pot_won=pot_won,
        ))
    return records


def hand_outcome(
    hand: Hand, seats: Sequence[Seat], hand_id: int, history_text: str
) -> HandOutcome:
    """The public summary of a finished hand, with table seat numbers and player names; its
    number is its ledger id."""
    result = finished_result(hand)
    names_by_hand_seat = {entry.seat: _hand_names(entry.ranks) for entry in result.showdown}
    awards = tuple(
        PotAward(
            seat=seats[winner].index,
            name=seats[winner].name,
            amount=share,
            pot_index=award.pot,
            board_index=award.run,
            hand_name=_hand_name(names_by_hand_seat.get(winner), award.run),
        )
        for award in result.awards
        for winner, share in zip(award.winners, award.shares, strict=True)
        if share > 0
    )
    shown = tuple(
        ShownHand(seat=seats[entry.seat].index, name=seats[entry.seat].name,
                  cards=entry.cards, hand_names=_hand_names(entry.ranks))
        for entry in result.showdown
    )
    shown_after = tuple(
        ShownHand(seat=seats[position].index, name=seats[position].name, cards=cards,
                  hand_names=())
        for position, cards in hand.shown.items() if result.ended_by_folds)
    results = tuple(
        PlayerResult(seat=seat.index, name=seat.name, user_id=seat.user_id,
                     net=result.net[position], final_stack=result.final_stacks[position])
        for position, seat in enumerate(seats)
    )
    return HandOutcome(
        hand_id=hand_id,
        boards=result.boards,
        awards=awards,
        shown=shown,
        mucked_seats=tuple(seats[position].index for position in result.mucked),
        results=results,
        history_text=history_text,
        shown_after=shown_after,
    )


def _hand_names(ranks: tuple[int, ...]) -> tuple[Text, ...]:
    return tuple(hand_name(rank) for rank in ranks)


def _hand_name(names: tuple[Text, ...] | None, run: int) -> Text | None:
    if not names:
        return None
    return names[run] if run < len(names) else names[0]

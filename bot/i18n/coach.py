"""The coach's words: a hint (``engine.coach.hint``) and a review (``engine.coach.review``) as
catalog messages, the same for the Discord and terminal front ends.

>>> from engine.cards import parse_cards
>>> from engine.hand import Hand, deck_for
>>> deck = deck_for([parse_cards("7h 7d"), parse_cards("Ks 5c")], parse_cards("Kd 5h 2c 9s 3d"),
...                 button=0)
>>> hand = Hand([1000, 1000], button=0, small_blind=5, big_blind=10, deck=deck)
>>> [str(line) for line in hint_text(hint(hand.view(0)))]
['Hint: Pocket Sevens.', 'Equity: 66% against a random hand.']
"""

from __future__ import annotations

from bot.i18n.poker import action_word, hand_name, rank_name, rank_plural, street_name
from bot.i18n.text import Text, tr, tr_n
from engine.actions import Action, ActionKind
from engine.coach import Decision, Hint, Review, StraightDraw, Verdict, hint, review
from engine.evaluator import HandCategory
from engine.strategies.preflop import HandClass

__all__ = ["REVIEW_NOTE", "decision_text", "hint", "hint_text", "review", "review_heading",
           "review_text", "starting_hand_name"]


def starting_hand_name(hand: HandClass) -> Text:
    """Two hole cards up to suits, as players say them: ``Pocket Sevens``, ``Ace-King
    suited``."""
    if hand.is_pair:
        return tr("Pocket {ranks}", ranks=rank_plural(hand.high))
    if hand.suited:
        return tr("{first}-{second} suited", first=rank_name(hand.high),
                  second=rank_name(hand.low))
    return tr("{first}-{second} offsuit", first=rank_name(hand.high), second=rank_name(hand.low))


def hint_text(found: Hint) -> list[Text]:
    """The hint's lines: the hand, its draws and outs (when it has some), its equity."""
    hand = starting_hand_name(found.starting_hand) if found.made_rank is None \
        else hand_name(found.made_rank)
    lines = [tr("Hint: {hand}, from the board alone (every player has it).", hand=hand)
             if found.on_the_board else tr("Hint: {hand}.", hand=hand)]
    named = ([tr("flush draw")] if found.flush_draw else []) + (
        [tr("open-ended straight draw")] if found.straight_draw is StraightDraw.OPEN_ENDED
        else [tr("gutshot straight draw")] if found.straight_draw is StraightDraw.GUTSHOT
        else [])
    if found.outs:
        weakest = max(found.out_hands)  # categories count from the best, 1
        made = _OUT_HANDS[weakest] if len(found.out_hands) == 1 \
            else tr("{hand} or better", hand=_OUT_HANDS[weakest])
        outs = tr_n("{count} out to {hand}", "{count} outs to {hand}", found.outs, hand=made)
        lines.append(tr("Draws: {draws} ({outs}).", draws=named, outs=outs) if named
                     else tr("{outs}.", outs=outs))
    equity = tr_n("Equity: {percent}% against a random hand.",
                  "Equity: {percent}% against {count} random hands.", found.opponents,
                  percent=_percent(found.equity_vs_random))
    if found.equity_vs_range is None:
        lines.append(equity)
    else:
        lines.append(tr("{equity} Against the hands their actions suggest: {percent}% "
                        "(estimated).", equity=equity,
                        percent=_percent(found.equity_vs_range)))
    return lines


_OUT_HANDS = {
    HandCategory.STRAIGHT: tr("a straight"), HandCategory.FLUSH: tr("a flush"),
    HandCategory.FULL_HOUSE: tr("a full house"),
    HandCategory.FOUR_OF_A_KIND: tr("four of a kind"),
    HandCategory.STRAIGHT_FLUSH: tr("a straight flush"),
}
"""What outs make, as "9 outs to a flush" says it."""


REVIEW_NOTE = tr("Expected values count from each decision to a showdown with no more betting, "
                 "against the players with chips in the pot (those yet to act with none in "
                 "are taken to fold), a bet or raise as if they called; equity against hands "
                 "nobody showed is estimated from their actions.")
"""What a review's figures assume, said under them."""


def review_heading(hand_id: int, found: Review) -> Text:
    """The review's first line: the hand, and how many clear mistakes it found."""
    if not found.decisions:
        return tr("Hand #{hand}: you made no decision in it (the blinds were all you put "
                  "in, or everyone else folded first).", hand=str(hand_id))
    return tr_n("Hand #{hand}, your decisions ({count} clear mistake):",
                "Hand #{hand}, your decisions ({count} clear mistakes):", len(found.mistakes),
                hand=str(hand_id))


def review_text(hand_id: int, found: Review) -> list[Text]:
    """The whole review as lines: heading, one line per decision, and ``REVIEW_NOTE``."""
    if not found.decisions:
        return [review_heading(hand_id, found)]
    return [review_heading(hand_id, found), *map(decision_text, found.decisions), REVIEW_NOTE]


def decision_text(decision: Decision) -> Text:
    """One decision: the street and action, the verdict with the pot odds and equity, and
    the expected value of each alternative."""
    equity = _percent(decision.equity)
    against = tr("exact, against the cards shown") if not decision.estimated \
        else tr("estimated")
    values = [tr("{action}: {chips}", action=_action_words(alternative.action, decision),
                 chips=round(alternative.expected)) for alternative in decision.alternatives]
    return tr("{street}, {action}: {verdict} [{against}; expected value: {values}]",
              street=street_name(decision.street),
              action=_action_words(decision.action, decision),
              verdict=_verdict(decision, equity), against=against, values=values)


def _verdict(decision: Decision, equity: int) -> Text:
    chips = round(decision.chips)
    verdict = decision.verdict
    if verdict is Verdict.FREE:
        return tr("you had {equity}%; checking cost nothing.", equity=equity)
    if verdict is Verdict.VALUE:
        return tr("you had {equity}%; when called it wins {chips} chips more than "
                  "checking or calling, on average.", equity=equity, chips=chips)
    if verdict is Verdict.NEEDS_FOLDS:
        return tr("you had {equity}%; when called it loses {chips} chips against "
                  "checking or calling, so it pays only if they fold often enough.",
                  equity=equity, chips=chips)
    needed = decision.needed
    assert needed is not None  # a fold or a call faces a bet
    odds = {"call": decision.to_call, "pot": decision.pot, "needed": _percent(needed),
            "equity": equity, "chips": chips}
    called = decision.action.kind is ActionKind.CALL
    if verdict is Verdict.CLOSE:
        return tr("calling {call} into {pot} needed {needed}%, you had {equity}%: close "
                  "either way.", **odds)
    if verdict is Verdict.MISTAKE:
        return tr("calling {call} into {pot} needed {needed}%, you had {equity}%: a fold "
                  "saved {chips} chips on average.", **odds) if called else \
            tr("calling {call} into {pot} needed {needed}%, you had {equity}%: a call would "
               "have won {chips} chips on average.", **odds)
    return tr("calling {call} into {pot} needed {needed}%, you had {equity}%: a good call, "
              "worth {chips} chips on average.", **odds) if called else \
        tr("calling {call} into {pot} needed {needed}%, you had {equity}%: a good fold "
           "(a call would have lost {chips} chips on average).", **odds)


def _action_words(action: Action, decision: Decision) -> Text:
    """An action at a decision: a call names the chips it adds, a bet or raise its total."""
    kind = action.kind
    if kind is ActionKind.CALL:
        return tr("call {amount}", amount=decision.to_call)
    if kind is ActionKind.BET:
        return tr("bet {amount}", amount=action.amount)
    if kind is ActionKind.RAISE:
        return tr("raise to {amount}", amount=action.amount)
    return action_word(kind)


def _percent(share: float) -> int:
    return round(100 * share)

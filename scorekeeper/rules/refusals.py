"""Why a figure cannot be saved: the refusal, and the figures as entered that it is about."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .sentences import SENTENCES, say

# An input a refusal points at: the side's index (None for a figure of the whole request) and
# the figure's dotted path inside it, as the request names it ("melded_cards.black_three").
Input = tuple[int | None, str]


@dataclass(frozen=True)
class Refusal:
    """Why an entry cannot be saved: the side (None for the whole deal), the figure, the reason.

    `inputs` are the figures as entered that the refusal is about: for a side's figure, that
    figure; for a limit over the whole deal, every side's figure that counted toward it.
    """

    side: int | None
    field: str
    message: str
    inputs: tuple[Input, ...] | None = None
    # The sentence's code (rules/sentences.py) and the figures it was filled with: what a
    # refusal is, as data; `message` is only its words.
    code: str = field(default="", compare=False)
    values: dict[str, Any] = field(default_factory=dict, compare=False)

    @classmethod
    def said(
        cls,
        side: int | None,
        name: str,
        code: str,
        inputs: tuple[Input, ...] | None = None,
        /,
        **values: Any,
    ) -> Refusal:
        """A refusal worded by its sentence's template, filled with these figures."""
        return cls(side, name, say(code, **values), inputs, code, values)

    def of_side(self, who: str) -> Refusal:
        """This refusal of a side's figures, named by its side ("Us: ...")."""
        message = say("side", side=who, why=self.message)
        return Refusal(self.side, self.field, message, self.inputs, self.code, self.values)

    @property
    def figures(self) -> tuple[Input, ...]:
        """The inputs at fault; a side's own refusal is about its own figure when none are named."""
        if self.inputs is not None:
            return self.inputs
        return ((self.side, self.field),) if self.side is not None else ()

    def to_dict(self) -> dict[str, Any]:
        """The JSON form the API answers with."""
        return {
            "side": self.side,
            "field": self.field,
            "message": self.message,
            "inputs": [{"side": side, "field": name} for side, name in self.figures],
        }


class DealRefused(ValueError):
    """A deal that cannot be saved, with every reason."""

    def __init__(self, refusals: list[Refusal]) -> None:
        super().__init__(SENTENCES["joined"].join(r.message for r in refusals))
        self.refusals = refusals

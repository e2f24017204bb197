"""What a club change refuses, in words for the organiser: the refusal every club service
raises (`clubs.py`, `saved_rules.py`, `members.py`), and a typed name's check."""

from __future__ import annotations

from scorekeeper.services.names import name_problem


class ClubRefused(ValueError):
    """A club change that cannot be made, in words for the organiser."""


class RulesRefused(ClubRefused):
    """A saved rule set's numbers that cannot be played, each message with the rule it names."""

    def __init__(self, problems: list[tuple[str, str]]) -> None:
        super().__init__(" ".join(message for _, message in problems))
        # (the rule's path, as house rules and knobs name it, or "" for the rules as a whole;
        # the message)
        self.problems = problems


def check_name(name: str, what: str) -> None:
    """Refuse a typed name holding control, invisible or broken characters, naming the field."""
    problem = name_problem(name, what)
    if problem:
        raise ClubRefused(problem)

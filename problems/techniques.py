"""The names of the logical techniques, shared by every human-style solver and its reports.

``native.human`` and ``hodoku.human`` solve step by step; to compare how many steps of each
kind they take, both write their step logs in these *common names* (snake case). A
HoDoKu ``SolutionType`` name maps to a common name by :func:`common_name`: most are the
enum name in lower case, the few that differ are listed in :data:`HODOKU_ALIASES` (a
HoDoKu "locked pair" is a naked pair that also sits in a box-line intersection, so it is
counted with the naked pairs; HoDoKu's ``BRUTE_FORCE`` places one digit of the
backtracking solution, so it is counted with ``search``, the native solver's last resort).

Rating. The scale is HoDoKu's (levels ``easy`` < ``medium`` < ``hard`` < ``unfair`` <
``extreme``, a base score added per step, and the level raised while the total exceeds the
level's maximum score), transcribed below for the techniques the native solver knows from
hodoku-py 0.2.1 ``hodoku/core/scoring.py`` (itself transcribed from HoDoKu's
``Options.java``). So :func:`rate` applied to the native step log gives a rating on the
very scale HoDoKu rates its own path with, and "the two ratings agree" has a meaning.
``search`` counts as HoDoKu's brute force (``extreme``, 10000 points). A puzzle left
unsolved is ``incomplete`` (HoDoKu's word).

This module imports nothing: the library's enum is matched by name.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: difficulty levels, easiest first (HoDoKu's DifficultyType without INCOMPLETE)
LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "unfair", "extreme")
INCOMPLETE = "incomplete"
#: highest total score of each level (HoDoKu's DIFFICULTY_MAX_SCORE)
LEVEL_MAX_SCORE: dict[str, int] = {"easy": 800, "medium": 1000, "hard": 1600,
                                   "unfair": 1800, "extreme": 2**31 - 1}


@dataclass(frozen=True)
class Technique:
    """One technique: its common name, HoDoKu's level for it and its score per step."""

    name: str
    label: str
    level: str
    score: int


#: the techniques ``native.human`` applies, in the order it tries them (HoDoKu's order)
NATIVE_TECHNIQUES: tuple[Technique, ...] = (
    Technique("full_house", "Full House", "easy", 4),
    Technique("naked_single", "Naked Single", "easy", 4),
    Technique("hidden_single", "Hidden Single", "easy", 14),
    Technique("locked_candidates_pointing", "Locked Candidates Type 1 (Pointing)", "medium", 50),
    Technique("locked_candidates_claiming", "Locked Candidates Type 2 (Claiming)", "medium", 50),
    Technique("naked_pair", "Naked Pair", "medium", 60),
    Technique("naked_triple", "Naked Triple", "medium", 80),
    Technique("hidden_pair", "Hidden Pair", "medium", 70),
    Technique("hidden_triple", "Hidden Triple", "medium", 100),
    Technique("naked_quad", "Naked Quadruple", "hard", 120),
    Technique("hidden_quad", "Hidden Quadruple", "hard", 150),
    Technique("x_wing", "X-Wing", "hard", 140),
    Technique("swordfish", "Swordfish", "hard", 150),
    Technique("jellyfish", "Jellyfish", "hard", 160),
    Technique("skyscraper", "Skyscraper", "hard", 130),
    Technique("two_string_kite", "2-String Kite", "hard", 150),
    Technique("w_wing", "W-Wing", "hard", 150),
    Technique("xy_wing", "XY-Wing", "hard", 160),
    Technique("xyz_wing", "XYZ-Wing", "hard", 180),
    Technique("search", "Backtracking search (HoDoKu: Brute Force)", "extreme", 10000),
)
BY_NAME: dict[str, Technique] = {t.name: t for t in NATIVE_TECHNIQUES}

#: HoDoKu SolutionType names whose common name is not simply the name in lower case
HODOKU_ALIASES: dict[str, str] = {
    "LOCKED_CANDIDATES_1": "locked_candidates_pointing",
    "LOCKED_CANDIDATES_2": "locked_candidates_claiming",
    "LOCKED_PAIR": "naked_pair",
    "LOCKED_TRIPLE": "naked_triple",
    "NAKED_QUADRUPLE": "naked_quad",
    "HIDDEN_QUADRUPLE": "hidden_quad",
    "BRUTE_FORCE": "search",
}


def common_name(hodoku_name: str) -> str:
    """The common name of a HoDoKu ``SolutionType`` member name (``"X_WING"`` -> ``"x_wing"``)."""
    return HODOKU_ALIASES.get(hodoku_name, hodoku_name.lower())


@dataclass(frozen=True)
class HumanRating:
    """A step path's rating: HoDoKu-scale level and score, hardest technique, step count."""

    level: str
    score: int
    hardest: str | None
    steps: int


def rate(techniques: Iterable[str], solved: bool) -> HumanRating:
    """Rate a path given as the common names of its steps, by HoDoKu's rule.

    The level is the highest level among the steps, raised while the total score exceeds
    that level's maximum; an unsolved path is ``incomplete``. A technique missing from
    :data:`NATIVE_TECHNIQUES` is refused (rate library paths with the library's rating).
    """
    names = list(techniques)
    score, top = 0, -1
    hardest = None
    for name in names:
        t = BY_NAME[name]
        score += t.score
        rank = LEVELS.index(t.level)
        if rank > top or (rank == top and hardest is not None
                          and t.score > BY_NAME[hardest].score):
            top, hardest = rank, name
    if not solved:
        return HumanRating(INCOMPLETE, score, hardest, len(names))
    level = LEVELS[max(top, 0)]
    while LEVEL_MAX_SCORE[level] < score:
        level = LEVELS[LEVELS.index(level) + 1]
    return HumanRating(level, score, hardest, len(names))


def cell_name(cell: int, side: int) -> str:
    """``r1c1`` style (rows and columns from 1), as HoDoKu writes cells."""
    return f"r{cell // side + 1}c{cell % side + 1}"

"""``sudoku-compare puzzles list | show SET[:I] | generate ... | fetch NAME``.

A thin layer over :mod:`sudoku_compare.problems` (catalog, sets, generator, fetch).
The generator is imported only by ``generate``: it pulls in numba, which would cost
every other command (and every bad-input refusal) a noticeable fraction of a second.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sudoku_compare.problems import catalog
from sudoku_compare.problems.errors import InputError
from sudoku_compare.problems.fetch import FetchError, fetch
from sudoku_compare.problems.formatting import format_boxed, format_line
from sudoku_compare.problems.rating import BANDS, rate
from sudoku_compare.problems.sets import load_set, resolve_puzzles

from .outputs import checked_file, writing


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("puzzles", help="list, show, generate and fetch puzzle sets")
    psub = p.add_subparsers(dest="puzzles_command", required=True)

    ls = psub.add_parser("list", help="every shipped and public set, its count and where it is")
    ls.set_defaults(func=run_list)

    show = psub.add_parser("show", help="print puzzles in the seeds' boxed layout")
    show.add_argument("ref", metavar="SET[:I]", help="a set name or file, optionally :I or :START:STOP")
    show.add_argument("--line", action="store_true", help="one line per puzzle instead")
    show.add_argument("--rate", nargs="?", const="search", default=None,
                      choices=("search", "native", "hodoku"),
                      help="also print the difficulty rating: search effort (the default), or "
                           "the human-style rating of native.human or hodoku.human")
    show.set_defaults(func=run_show)

    gen = psub.add_parser("generate", help="generate puzzles with exactly one solution")
    gen.add_argument("--box", type=int, default=3, choices=(2, 3, 4, 5), help="box size (3 = 9x9)")
    gen.add_argument("--count", type=int, default=10)
    gen.add_argument("--seed", type=int, default=0)
    gen.add_argument("--band", choices=tuple(BANDS), default=None,
                     help="keep only puzzles rated in this band")
    gen.add_argument("--clues", type=int, default=None,
                     help="stop removing givens at this many (default: minimal puzzles)")
    gen.add_argument("--out", type=Path, default=None, help="file to write (default: stdout)")
    gen.set_defaults(func=run_generate)

    fe = psub.add_parser("fetch", help="download a public set, verify its checksum, cache it")
    fe.add_argument("name", choices=sorted(catalog.PUBLIC_SETS))
    fe.add_argument("--base-url", default=None,
                    help="fetch BASE/FILENAME instead of the public address (mirrors, tests)")
    fe.add_argument("--force", action="store_true", help="download even if cached")
    fe.set_defaults(func=run_fetch)


def run_list(args: argparse.Namespace) -> int:
    """Every set with its count and place; a bad copy is listed as such, the others still
    are, and the exit code is then 2 (each problem also on stderr, one line each)."""
    names = list(catalog.shipped_sets()) + sorted(catalog.PUBLIC_SETS)
    status = 0
    for name in names:
        where = catalog.where_found(name)
        if where is None:
            print(f"{name:20} {'-':>6}  not found: run sudoku-compare puzzles fetch {name}")
            continue
        path = catalog.find_set_file(name)
        try:
            count = len(load_set(name))  # checks a public copy's checksum
        except InputError as exc:
            print(f"{name:20} {'-':>6}  {where}: {path}: UNUSABLE (see stderr)")
            print(f"sudoku-compare: {exc}", file=sys.stderr)
            status = 2
            continue
        print(f"{name:20} {count:6}  {where}: {path}")
    return status


def run_show(args: argparse.Namespace) -> int:
    for i, puzzle in enumerate(resolve_puzzles(args.ref)):
        if args.line:
            print(format_line(puzzle.cells, puzzle.box))
            continue
        if i:
            print()
        extra = ""
        if args.rate == "search":
            r = rate(puzzle)
            extra = f", {r.guesses} guesses ({r.band})"
        elif args.rate:
            extra = ", " + human_rating(puzzle, f"{args.rate}.human")
        print(f"# {puzzle.name}: {puzzle.side}x{puzzle.side}, {puzzle.n_givens} givens, "
              f"{puzzle.n_empty} empty{extra}")
        print(format_boxed(puzzle.cells, puzzle.box))
    return 0


def human_rating(puzzle, solver_name: str) -> str:
    """A human-style solver's rating of ``puzzle``, in one phrase (through the registry)."""
    from sudoku_compare import registry
    from sudoku_compare.budget import Budget

    spec = registry.get(solver_name)
    ok, reason = spec.availability()
    if not ok:
        raise InputError(f"--rate: {solver_name} is unavailable: {reason}")
    if puzzle.box not in spec.cls.boxes:
        return f"{solver_name}: not rated ({puzzle.side}x{puzzle.side})"
    out = spec.create().solve(puzzle, Budget(max_seconds=60.0), 0)
    x = out.extra
    return (f"{solver_name}: {x['rating_level']} (score {x['rating_score']}, "
            f"hardest {x['rating_hardest'] or '-'}, {out.counters['steps']} steps)")


def generate_command(box: int, count: int, seed: int, band: str | None, clues: int | None,
                     out: Path | None) -> str:
    """The canonical command line written in a generated file's header."""
    parts = ["sudoku-compare puzzles generate", f"--box {box}", f"--count {count}"]
    if band:
        parts.append(f"--band {band}")
    if clues is not None:
        parts.append(f"--clues {clues}")
    parts.append(f"--seed {seed}")
    if out is not None:
        parts.append(f"--out {out.name}")
    return " ".join(parts)


def run_generate(args: argparse.Namespace) -> int:
    if args.count < 1:
        raise InputError("--count must be at least 1")
    n_cells = args.box ** 4
    if args.clues is not None and not 0 <= args.clues <= n_cells:
        raise InputError(f"--clues must be between 0 and {n_cells}")
    checked_file(args.out, "--out")
    from sudoku_compare.problems.generator import generate_set, set_text

    rated = generate_set(args.box, args.count, args.seed, args.clues, args.band)
    command = generate_command(args.box, args.count, args.seed, args.band, args.clues, args.out)
    text = set_text(rated, command, args.seed, args.band, args.clues)
    if args.out is None:
        sys.stdout.write(text)
    else:
        with writing("--out"):
            args.out.write_bytes(text.encode("utf-8"))
        print(f"wrote {len(rated)} puzzles to {args.out}", file=sys.stderr)
    return 0


def run_fetch(args: argparse.Namespace) -> int:
    pub = catalog.PUBLIC_SETS[args.name]
    cached = catalog.cache_dir() / pub.filename
    if cached.is_file() and not args.force:
        problem = catalog.public_file_problem(cached, pub)
        if problem is not None:
            print(f"sudoku-compare: the cached {cached} is not the set ({problem}); "
                  "downloading it again", file=sys.stderr)
    try:
        path = fetch(args.name, base_url=args.base_url, force=args.force)
    except FetchError as exc:
        print(f"sudoku-compare: {exc}", file=sys.stderr)
        return 1
    print(f"{args.name}: {path}")
    return 0

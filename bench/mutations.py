"""The mutation run of the rules engine (mutmut), a benchmark run by hand, never by ./test.

mutmut mutates narrator/rules and narrator/roles and tries each mutant against the fast engine
tests (docs/testing.md#the-mutation-run):

    nice -n 15 .venv/bin/python bench/mutations.py             # a seeded sample (300 mutants, seed 1)
    nice -n 15 .venv/bin/python bench/mutations.py --all       # every mutant (hours on 2 cores)
    nice -n 15 .venv/bin/python bench/mutations.py --focus     # drawn from FOCUS's files only (its own report)
    nice -n 15 .venv/bin/python bench/mutations.py --again     # the last run's survivors, against the tests now
    .venv/bin/python bench/mutations.py --report-only          # the report again (after editing the explanations)

mutmut (the `mutation` extra: `.venv/bin/pip install -e '.[mutation]'`) copies the package into
build/mutations/mutants, writes every mutant of a function into it behind a switch, records which
tests call which function, then runs for each mutant only the tests that call its function, in a
forked process. The run writes bench/results/mutations.md (the survivors by file, each with the
test-free reason it cannot be killed, from bench/mutations_equivalent.toml, or marked unexplained)
and bench/results/mutations.json (every sampled mutant's status, read by --again).

What is mutated and what runs are paths and globs only (MUTATE, TESTS), so the run takes the code as
it is, however its functions are named or arranged.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Iterable, Sequence

REPO = Path(__file__).resolve().parent.parent
# What is mutated: the rules engine (globs over the package's files, as mutmut's `only_mutate`).
MUTATE = ("narrator/rules/*", "narrator/roles/*")
# Where powers end or change mid-game (`--focus`): the Elder's revenge, the infection, the charm,
# the Devoted Servant's takeover, the Actor's borrowed cards, the Knight's scan to the left and the
# neighbours' wrap round the table, the vote that eliminates, the chain reactions, the folds.
FOCUS = ("narrator/roles/elder.py", "narrator/roles/accursed_wolf_father.py", "narrator/roles/pied_piper.py",
         "narrator/roles/devoted_servant.py", "narrator/roles/actor.py", "narrator/roles/knight_rusty_sword.py",
         "narrator/roles/base.py", "narrator/rules/votes.py", "narrator/rules/chains.py", "narrator/rules/fold.py")
# The tests each mutant is tried against (those of them that call its function): the fast engine
# tests and the golden games, the games at the table (headless), the seeded simulations, and the
# narrator-assist plans (they read the roles' calls).
TESTS = ("tests/rules", "tests/flow", "tests/sim", "tests/test_all_roles.py", "tests/table/test_assist.py",
         "tests/table/test_assist_night_plan.py")
# One process per mutant, one test at a time; the slow tests (real audio, tmux) are left out.
PYTEST_ARGS = ("-p", "no:xdist", "-p", "no:cacheprovider", "-m", "not slow")
# Besides the package and the tests, what the tests read from the checkout.
ALSO_COPY = ("voices", "docs")
WORK = REPO / "build" / "mutations"
RESULTS = REPO / "bench" / "results"
REPORT = RESULTS / "mutations.md"
RECORD = RESULTS / "mutations.json"
FOCUS_REPORT = RESULTS / "mutations-focus.md"
FOCUS_RECORD = RESULTS / "mutations-focus.json"
EXPLAINED = REPO / "bench" / "mutations_equivalent.toml"
SAMPLE = 300
SEED = 1

# mutmut's statuses, as `mutmut results` prints them. A timeout is a kill (the mutant never ends);
# everything else that is not a kill counts against the rate unless it is explained.
KILLED = frozenset({"killed", "timeout", "caught by type check"})


@dataclass(frozen=True)
class Explanation:
    """Why a surviving mutant is equivalent: it behaves the same in every game. Matched on the lines
    the mutant changes (`line`, as in the source, and `mutant`, as mutmut writes it), whitespace
    aside; `file` narrows it where the same change means something else elsewhere."""

    line: str
    mutant: str
    why: str
    file: str = ""

    def matches(self, before: str, after: str, path: str) -> bool:
        return (_squeeze(self.line) == _squeeze(before) and _squeeze(self.mutant) == _squeeze(after)
                and (not self.file or fnmatch.fnmatch(path, self.file)))


@dataclass
class Mutant:
    name: str  # mutmut's: the module, the function, the mutant's number in it
    path: str  # the source file, relative to the checkout
    status: str
    before: str = ""  # the source lines it changes
    after: str = ""  # the same lines in the mutant
    why: str = ""  # the explanation, if it is one of the equivalents

    @property
    def killed(self) -> bool:
        return self.status in KILLED


@dataclass
class Run:
    """One run: what was sampled from how many, how long it took, under what load."""

    population: int
    seed: int | None
    paths: list[str] = field(default_factory=lambda: list(MUTATE))  # drawn from these files
    mutants: list[Mutant] = field(default_factory=list)
    started: str = ""
    commit: str = ""
    tool: str = ""
    wall: float = 0.0
    cpu: float = 0.0
    load_before: tuple[float, float, float] = (0.0, 0.0, 0.0)
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)
    command: str = ""
    # Later runs of the survivors alone (--again), against the tests as they were then.
    again: list[str] = field(default_factory=list)


# ---- the small pieces (tested in tests/test_mutation_run.py) --------------------------------


def mutated_files(root: Path, patterns: Sequence[str] = MUTATE) -> list[str]:
    """The package's .py files that match a glob, relative to the checkout, in order."""
    found = (p.relative_to(root).as_posix() for p in (root / "narrator").rglob("*.py"))
    return sorted(p for p in found if "__pycache__" not in p and any(fnmatch.fnmatch(p, g) for g in patterns))


def sample(names: Iterable[str], size: int | None, seed: int) -> list[str]:
    """`size` of the names drawn at random with `seed`, whatever order they come in (all: None)."""
    ordered = sorted(set(names))
    if size is None or size >= len(ordered):
        return ordered
    return sorted(random.Random(seed).sample(ordered, size))


def source_of(name: str, files: Iterable[str]) -> str:
    """The file a mutant's name comes from (`narrator.roles.fox.x_check__mutmut_3` -> narrator/roles/fox.py)."""
    module = name.rsplit(".", 1)[0]
    for path in files:
        if path[: -len(".py")].replace("/", ".").removesuffix(".__init__") == module:
            return path
    raise ValueError(f"mutant {name!r} comes from none of the mutated files")


def changed_lines(diff: str) -> tuple[str, str]:
    """The lines a mutant changes (`mutmut show`'s unified diff): the source's, then the mutant's."""
    before, after = [], []
    for line in diff.splitlines():
        if line.startswith(("---", "+++")):
            continue
        if line.startswith("-"):
            before.append(line[1:].strip())
        elif line.startswith("+"):
            after.append(line[1:].strip())
    return "\n".join(before), "\n".join(after)


def load_explanations(text: str) -> list[Explanation]:
    """bench/mutations_equivalent.toml: `[[equivalent]]` tables of line, mutant, why (and file)."""
    data = tomllib.loads(text)
    out = []
    for i, entry in enumerate(data.get("equivalent", []), 1):
        missing = [k for k in ("line", "mutant", "why") if not str(entry.get(k, "")).strip()]
        if missing:
            raise ValueError(f"equivalent number {i} has no {', '.join(missing)}: {entry!r}")
        out.append(Explanation(entry["line"], entry["mutant"], entry["why"], entry.get("file", "")))
    return out


def explain(mutant: Mutant, explanations: Sequence[Explanation]) -> str:
    """The reason a surviving mutant is equivalent, or "" (killed mutants need none)."""
    if mutant.killed:
        return ""
    for e in explanations:
        if e.matches(mutant.before, mutant.after, mutant.path):
            return e.why
    return ""


def rate(mutants: Sequence[Mutant]) -> tuple[int, int, int, float]:
    """(killed, equivalent, unexplained survivors, kill rate of the non-equivalent mutants, in %)."""
    killed = sum(m.killed for m in mutants)
    equivalent = sum(bool(m.why) for m in mutants)
    counted = len(mutants) - equivalent
    return killed, equivalent, counted - killed, 100.0 * killed / counted if counted else 100.0


def report(run: Run) -> str:
    """The run's report: its size, time and load, the kill rate, the survivors by file."""
    mutants = run.mutants
    killed, equivalent, unexplained, percent = rate(mutants)
    how = (f"a seeded random sample of {len(mutants)} of the {run.population} mutants (seed {run.seed})"
           if run.seed is not None else f"all {len(mutants)} mutants")
    lines = [
        "# Mutation run of the rules engine",
        "",
        f"`{run.command}` ({run.tool}), {run.started}, commit {run.commit}: {how} of "
        f"{', '.join(f'`{g}`' for g in run.paths)}, each against the tests of {', '.join(f'`{t}`' for t in TESTS)} "
        "that call its function (docs/testing.md#the-mutation-run).",
        "",
        f"- **Kill rate: {percent:.1f} %** of the non-equivalent mutants ({killed} killed of "
        f"{len(mutants) - equivalent}; {equivalent} equivalent, explained below; {unexplained} unexplained).",
        f"- Time: {_duration(run.wall)} wall, {_duration(run.cpu)} CPU, on 2 cores; load average "
        f"{_load(run.load_before)} before, {_load(run.load_after)} after.",
        *(f"- Survivors run again: {line}." for line in run.again),
        "",
        "## By file",
        "",
        "| file | mutants | killed | equivalent | unexplained |",
        "|---|---:|---:|---:|---:|",
    ]
    by_file: dict[str, list[Mutant]] = {}
    for m in mutants:
        by_file.setdefault(m.path, []).append(m)
    for path in sorted(by_file):
        ms = by_file[path]
        k, e, u, _ = rate(ms)
        lines.append(f"| `{path}` | {len(ms)} | {k} | {e} | {u} |")
    survivors = [m for m in mutants if not m.killed]
    lines += ["", "## Survivors", ""]
    if not survivors:
        lines.append("None.")
    for path in sorted({m.path for m in survivors}):
        lines += [f"### `{path}`", ""]
        for m in sorted((m for m in survivors if m.path == path), key=lambda m: _number(m.name)):
            verdict = f"equivalent: {m.why}" if m.why else f"**unexplained** ({m.status})"
            lines.append(f"- `{m.name}`: {verdict}")
            lines.append(f"  `{_one_line(m.before)}` → `{_one_line(m.after)}`")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def record(run: Run) -> str:
    """The run as JSON, one mutant a line."""
    head = json.dumps({k: v for k, v in run.__dict__.items() if k != "mutants"}, indent=1, ensure_ascii=False)
    mutants = ",\n".join(f"  {json.dumps(m.__dict__, ensure_ascii=False)}" for m in run.mutants)
    return f'{head[:-2]},\n "mutants": [\n{mutants}\n ]\n}}\n'


def read_record(text: str) -> Run:
    data = json.loads(text)
    mutants = [Mutant(**m) for m in data.pop("mutants")]
    for key in ("load_before", "load_after"):
        data[key] = tuple(data[key])
    return Run(mutants=mutants, **data)


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _one_line(text: str) -> str:
    return _squeeze(text).replace("`", "'") or "(nothing)"


def _number(name: str) -> tuple[str, int]:
    head, _, n = name.rpartition("__mutmut_")
    return head, int(n) if n.isdigit() else 0


def _duration(seconds: float) -> str:
    minutes, s = divmod(round(seconds), 60)
    return f"{minutes} min {s:02d} s" if minutes else f"{s} s"


def _load(load: Sequence[float]) -> str:
    return " / ".join(f"{x:.1f}" for x in load)


# ---- the run (mutmut) -----------------------------------------------------------------------


def _config() -> str:
    """mutmut's configuration, in the work folder's pyproject.toml (the checkout's stays untouched)."""
    def toml_list(items: Iterable[str]) -> str:
        return "[" + ", ".join(json.dumps(i) for i in items) + "]"

    return "\n".join([
        "# Written by bench/mutations.py for each run.",
        "[tool.mutmut]",
        'source_paths = ["narrator"]',
        f"only_mutate = {toml_list(MUTATE)}",
        f"pytest_add_cli_args = {toml_list(PYTEST_ARGS)}",
        f"pytest_add_cli_args_test_selection = {toml_list(TESTS)}",
        f"also_copy = {toml_list(ALSO_COPY)}",
        "",
        "[tool.pytest.ini_options]",
        'markers = ["slow: takes more than a few seconds"]',
        "",
    ])


def prepare(work: Path, fresh: bool) -> None:
    """The work folder: links to the checkout's package, tests and data, and mutmut's configuration."""
    if fresh and work.exists():
        shutil.rmtree(work)
    # Hypothesis keeps the examples that failed, in the mutants' folder, and replays them first: one a
    # mutant made fail would be replayed against every later mutant (a kill that is not the mutant's).
    shutil.rmtree(work / "mutants" / ".hypothesis", ignore_errors=True)
    work.mkdir(parents=True, exist_ok=True)
    for name in ("narrator", "tests", *ALSO_COPY):
        link = work / name
        if not link.is_symlink():
            link.symlink_to(REPO / name)
    (work / "pyproject.toml").write_text(_config())


def all_mutants(work: Path, files: Sequence[str], jobs: int) -> list[str]:
    """Every mutant mutmut makes of these files, by name (mutmut's own generator, as its run uses it)."""
    from multiprocessing import Pool

    here = Path.cwd()
    os.chdir(work)  # mutmut reads its configuration from the current folder
    try:
        with Pool(jobs) as pool:
            return [name for names in pool.map(_mutants_of, files) for name in names]
    finally:
        os.chdir(here)


def _mutants_of(path: str) -> list[str]:
    from mutmut.mutation.file_mutation import mutate_file_contents
    from mutmut.utils.format_utils import get_mutant_name

    made = mutate_file_contents(path, (REPO / path).read_text(encoding="utf-8"))
    return [get_mutant_name(Path(path), n) for n in made.mutant_names]


def mutmut(work: Path, *args: str, log: Path | None = None) -> str:
    """Run mutmut in the work folder; its output, or with `log` written there as it comes (its progress)."""
    exe = Path(sys.executable).with_name("mutmut")
    if log is None:
        out = subprocess.run([str(exe), *args], cwd=work, text=True, capture_output=True, check=False)
        code, text = out.returncode, out.stdout + out.stderr
    else:
        with log.open("w") as sink:
            code = subprocess.run([str(exe), *args], cwd=work, stdout=sink, stderr=subprocess.STDOUT,
                                  check=False).returncode
        text = log.read_text(errors="replace")
    if code != 0:
        tail = "\n".join(text.replace("\r", "\n").splitlines()[-15:])
        raise SystemExit(f"mutations: `mutmut {' '.join(args[:3])} ...` failed (exit {code}):\n{tail}")
    return text


def statuses(work: Path) -> dict[str, str]:
    """Every mutant's status after the run (`mutmut results --all true`)."""
    found = {}
    for line in mutmut(work, "results", "--all", "true").splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and "__mutmut_" in name:
            found[name] = status
    return found


def examine(work: Path, mutants: Sequence[Mutant], explanations: Sequence[Explanation], every: bool = False) -> None:
    """The lines each survivor changes (`every`: each mutant), and its explanation if it has one."""
    for m in mutants:
        if every or not m.killed:
            m.before, m.after = changed_lines(mutmut(work, "show", m.name))
            m.why = explain(m, explanations)


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=REPO, text=True, capture_output=True, check=False).stdout.strip()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=SAMPLE, help=f"mutants drawn at random (default {SAMPLE})")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the draw's seed (default {SEED})")
    parser.add_argument("--all", action="store_true", help="every mutant, no sample")
    parser.add_argument("--paths", nargs="+", default=list(MUTATE), metavar="GLOB",
                        help="draw only from these files (globs within MUTATE; default: all of MUTATE)")
    parser.add_argument("--focus", action="store_true", help="draw only from FOCUS's files (where powers end or change)")
    parser.add_argument("--again", action="store_true",
                        help="run the last run's unexplained survivors again (after new tests), keeping its other results")
    parser.add_argument("--report-only", action="store_true", help="rewrite the report from the last run's record")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="mutants at once (default: the cores)")
    args = parser.parse_args(argv)

    explanations = load_explanations(EXPLAINED.read_text(encoding="utf-8")) if EXPLAINED.exists() else []
    report_to, record_to = (FOCUS_REPORT, FOCUS_RECORD) if args.focus else (REPORT, RECORD)
    if args.report_only or args.again:
        if not record_to.exists():
            print(f"mutations: no earlier run to read ({record_to.relative_to(REPO)}); run without --again first",
                  file=sys.stderr)
            return 2
        run = read_record(record_to.read_text(encoding="utf-8"))
        if args.report_only:
            for m in run.mutants:
                m.why = explain(m, explanations)
            return _write(run, report_to, record_to)
    try:
        import mutmut as _  # noqa: F401
    except ImportError:
        print("mutations: mutmut is not installed; install it with: .venv/bin/pip install -e '.[mutation]'",
              file=sys.stderr)
        return 2

    files = mutated_files(REPO)
    prepare(WORK, fresh=not args.again)
    if args.again:
        names = [m.name for m in run.mutants if not m.killed and not explain(m, explanations)]
        previous = {m.name: m for m in run.mutants}
    else:
        if args.focus:
            args.paths = list(FOCUS)
        wanted = [f for f in files if any(fnmatch.fnmatch(f, g) for g in args.paths)]
        if not wanted:
            print(f"mutations: no file of {' '.join(MUTATE)} matches {' '.join(args.paths)}", file=sys.stderr)
            return 2
        population = all_mutants(WORK, wanted, args.jobs)
        names = sample(population, None if args.all else args.sample, args.seed)
        run = Run(len(population), None if args.all or len(names) == len(population) else args.seed, args.paths)
        previous = {}
    started = datetime.now().strftime("%Y-%m-%d %H:%M")
    commit = _git("rev-parse", "--short", "HEAD") + (" (uncommitted changes)" if _git("status", "--porcelain") else "")
    print(f"mutations: {len(names)} mutants of {run.population}; mutmut's log in {WORK.relative_to(REPO)}/run.log")
    load_before = os.getloadavg()
    start, cpu0 = time.monotonic(), _children_cpu()
    if names:
        mutmut(WORK, "run", "--max-children", str(args.jobs), *names, log=WORK / "run.log")
    wall, cpu = time.monotonic() - start, _children_cpu() - cpu0
    if not args.again:
        run.command = " ".join(["bench/mutations.py", *(argv if argv is not None else sys.argv[1:])])
        run.started, run.commit, run.tool = started, commit, "mutmut " + _version()
        run.load_before, run.load_after = load_before, os.getloadavg()
    found = statuses(WORK)
    fresh = [Mutant(n, source_of(n, files), found.get(n, "not checked")) for n in names]
    examine(WORK, fresh, explanations, every=args.again)
    if args.again:
        for m in fresh:
            old = previous[m.name]
            if (m.before, m.after) != (old.before, old.after):  # the code changed: the name is another mutant now
                m.status, m.before, m.after, m.why = "another mutant now (the code changed: run afresh)", old.before, old.after, ""
            previous[m.name] = m
        run.mutants = [previous[m.name] for m in run.mutants]
        run.again.append(f"{len(names)} on {started}, commit {commit}, {_duration(wall)} wall, load average "
                         f"{_load(load_before)} before, {_load(os.getloadavg())} after")
    else:
        run.mutants, run.wall, run.cpu = fresh, wall, cpu
    return _write(run, report_to, record_to)


def _write(run: Run, report_to: Path, record_to: Path) -> int:
    RESULTS.mkdir(parents=True, exist_ok=True)
    report_to.write_text(report(run), encoding="utf-8")
    record_to.write_text(record(run), encoding="utf-8")
    killed, equivalent, unexplained, percent = rate(run.mutants)
    print(f"mutations: kill rate {percent:.1f} % ({killed} killed, {equivalent} equivalent, {unexplained} "
          f"unexplained of {len(run.mutants)}); report in {report_to.relative_to(REPO)}")
    return 0


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _version() -> str:
    from importlib.metadata import version

    return version("mutmut")


if __name__ == "__main__":
    raise SystemExit(main())

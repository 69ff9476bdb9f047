"""Comments say why, and tests are named after what they prove: no issue number in a comment or a
docstring of the package, its tests or its benchmarks, and no test (function, class or file) named
after an issue.

An issue number tells the history of a line, which git already keeps; a reader needs the reason.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import pytest

from tests.conftest import REPO

ISSUE = re.compile(r"\bissues?[\s#-]*\d+", re.IGNORECASE)
WORD = re.compile("issue", re.IGNORECASE)  # what every ISSUE match holds, matched the same way
# What ISSUE finds, as strings rather than in this comment, so that this file passes its own check.
ISSUE_EXAMPLES = ("issue 24", "Issue 9 point 5", "issue #12", "issues 22 and 23", "issue-28's")
TEST_NAMED_AFTER_AN_ISSUE = re.compile(r"(^test_?issue|_issue_?\d|leftover_?\d)", re.IGNORECASE)
# What TEST_NAMED_AFTER_AN_ISSUE finds; `leftover` is a review's numbered item.
NAME_EXAMPLES = ("test_issue22_the_dawn", "TestIssue23", "test_rules_issue22_mutations", "test_leftover3_the_dawn")
# The sources read: the package, its tests and its benchmarks.
ROOTS = ("narrator", "tests", "bench")


def comments_and_docstrings(source: str) -> list[tuple[int, str]]:
    """Every comment and docstring of a Python source, with its first line number."""
    found = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(source).readline)
             if tok.type == tokenize.COMMENT]
    return sorted(found + docstrings(ast.parse(source)))


def docstrings(tree: ast.Module) -> list[tuple[int, str]]:
    """Every docstring of a parsed source, with its first line number."""
    found = []
    for node in definitions(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                found.append((first.lineno, first.value.value))
    return sorted(found)


def definitions(node: ast.AST) -> Iterator[ast.AST]:
    """`node` and every statement under it, at any depth. A class or a function is a statement, so
    this finds every one that ast.walk finds, without visiting the expressions (most of a tree)."""
    yield node
    for field in ("body", "orelse", "finalbody", "handlers", "cases"):
        for child in getattr(node, field, ()):
            if isinstance(child, ast.AST):  # a statement, an except clause or a match case
                yield from definitions(child)


@lru_cache(maxsize=None)
def outline(path: Path) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """A source's docstrings, and its classes' and functions' names, each with its line: the file is
    parsed once for both checks (both read every test file); its tree is not kept."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [(node.lineno, node.name) for node in definitions(tree)
             if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return docstrings(tree), names


def issue_numbers_in(root: Path) -> list[str]:
    """`path:line: the reference` for every comment or docstring under `root` that cites an issue."""
    hits = []
    for path in sorted(root.rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        texts = outline(path)[0]
        # A comment is the source's own text: without the word in the source, no comment holds it,
        # and tokenizing the file (half the check's time) could find nothing. A docstring is looked
        # at in every file: escapes, a line continuation or adjacent literals can spell the word
        # where the source does not.
        if WORD.search(source):
            texts = comments_and_docstrings(source)
        for line, text in texts:
            for match in ISSUE.finditer(text):
                hits.append(f"{path.relative_to(root)}:{line + text.count(chr(10), 0, match.start())}: {match.group()!r}")
    return hits


def named_after_an_issue(root: Path) -> list[str]:
    """Test files, test functions and test classes under `root` whose name cites an issue."""
    hits = []
    for path in sorted(root.rglob("test*.py")):
        where = path.relative_to(root)
        if TEST_NAMED_AFTER_AN_ISSUE.search(path.stem):
            hits.append(f"{where}: the file")
        for line, name in outline(path)[1]:
            if name.lower().startswith("test") and TEST_NAMED_AFTER_AN_ISSUE.search(name):
                hits.append(f"{where}:{line}: {name}")
    return hits


@pytest.mark.parametrize("root", ROOTS)
def test_no_comment_or_docstring_cites_an_issue(root: str) -> None:
    hits = issue_numbers_in(REPO / root)
    assert not hits, f"{len(hits)} issue numbers in {root}/ (say why instead):\n" + "\n".join(
        f"{root}/{hit}" for hit in hits)


def test_no_test_is_named_after_an_issue() -> None:
    hits = named_after_an_issue(REPO / "tests")
    assert not hits, f"{len(hits)} tests named after an issue (name them after what they prove):\n" + "\n".join(hits)


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """Both checks can fail: a comment, a docstring, a test file and three test names that cite issues
    (or a review's numbered item) are found; a string, and the words "issue" and "point" alone, are not."""
    assert all(ISSUE.search(example) for example in ISSUE_EXAMPLES)
    assert all(TEST_NAMED_AFTER_AN_ISSUE.search(example) for example in NAME_EXAMPLES)
    sample = ('"""Resolves the dawn (issue 9 point 5)."""\n\n'
              "x = 1  # see Issue #24\n"
              "y = 'issue 3'  # a string, not a comment\n"
              "# an issue with the sound, point 4 of the list\n\n\n"
              "def test_issue22_the_dawn() -> None:\n    pass\n\n\n"
              "class TestIssue23:\n    pass\n\n\n"
              "def test_leftover3_the_dawn() -> None:\n    pass\n\n\n"
              "def test_the_dawn() -> None:\n    pass\n")
    (tmp_path / "test_rules_issue22_mutations.py").write_text(sample)
    assert issue_numbers_in(tmp_path) == ["test_rules_issue22_mutations.py:1: 'issue 9'",
                                          "test_rules_issue22_mutations.py:3: 'Issue #24'"]
    assert named_after_an_issue(tmp_path) == ["test_rules_issue22_mutations.py: the file",
                                              "test_rules_issue22_mutations.py:8: test_issue22_the_dawn",
                                              "test_rules_issue22_mutations.py:12: TestIssue23",
                                              "test_rules_issue22_mutations.py:16: test_leftover3_the_dawn"]

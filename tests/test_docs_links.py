"""Every link of the README and docs/ points to a file of the repository and, with `#`, to one of its
sections (an explicit `<a id>` or a heading, as GitHub makes its anchor); docs/rules-spec.md's
anchors are what code comments cite, so a renamed section is caught here."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]


def anchors(page: Path) -> set[str]:
    text = page.read_text(encoding="utf-8")
    found = set(re.findall(r'<a id="([^"]+)"></a>', text))
    for heading in re.findall(r"^#+ (.+)$", re.sub(r"^```.*?^```", "", text, flags=re.M | re.S), re.M):
        found.add(re.sub(r"[^\w\- ]", "", heading.lower()).strip().replace(" ", "-"))
    return found


def test_every_link_of_the_docs_resolves() -> None:
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]+)\)", page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+://", target):
                continue
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.name}: {target} (no such file)")
            elif anchor and anchor not in anchors(file):
                broken.append(f"{page.name}: {target} (no such section)")
    assert broken == []


def test_code_cites_sections_that_exist() -> None:
    """`docs/<page>.md#anchor` in code and tests names a section of that page."""
    broken = []
    for source in [*(REPO / "narrator").rglob("*.py"), *(REPO / "tests").rglob("*.py")]:
        for page, anchor in re.findall(r"docs/([\w-]+\.md)#([\w-]+)", source.read_text(encoding="utf-8")):
            if anchor not in anchors(REPO / "docs" / page):
                broken.append(f"{source.relative_to(REPO)}: docs/{page}#{anchor}")
    assert broken == []

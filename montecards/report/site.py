"""``montecards report --html``: one self-contained web site of the reports, the docs and the API.

The site is built by MkDocs (theme ``material`` with its fonts off, so no page loads anything
from the network, and the pages open from disk; the search box needs the site served, e.g.
``python -m http.server -d SITE``) with ``mkdocs build --strict``: a broken link
between pages, a missing image or an API reference that does not build stops it. Its pages:

- the summary (``reports/SUMMARY.md`` when present, else the index of the reports);
- every game's report, figures as SVG (PNG where a report predates SVG figures), with its
  ``data.json``, ``provenance.json`` and tables' CSV files as downloads;
- every page of ``docs/`` (and ``montecards/engine/CONTRACT.md``, which the docs cite);
- the API reference, from the docstrings (mkdocstrings).

A Markdown link to a repository file that is not part of the site (a script, a source file)
becomes plain code text: the site has nothing to point it to. Install the tools with
``pip install 'montecards[docs]'``.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from montecards._cache import PACKAGE_ROOT
from montecards.errors import InputError

REPO_ROOT = PACKAGE_ROOT.parent

API_MODULES = (
    ("The package", "montecards", ["simulate", "trace", "tune", "tournament", "get_game", "game_names"]),
    ("Analyses", "montecards.analysis", None),
    ("Ratings", "montecards.analysis.ratings", None),
    ("Reports", "montecards.report", ["build_report", "Report"]),
    ("Verdicts", "montecards.report.verdicts", None),
    ("Provenance", "montecards.report.provenance", None),
)

_LINK = re.compile(r"(!?)\[([^\]]*)\]\(([^)\s]+)\)")


def _api_page() -> str:
    parts = ["# API reference\n", "Generated from the docstrings of the installed package.\n"]
    for title, module, members in API_MODULES:
        parts.append(f"## {title}\n")
        parts.append(f"::: {module}")
        parts.append("    options:")
        parts.append("      show_root_heading: false")
        parts.append("      heading_level: 3")
        if members is not None:
            parts.append("      members:")
            parts += [f"        - {m}" for m in members]
        parts.append("")
    return "\n".join(parts) + "\n"


def _games(reports: Path) -> list[str]:
    return sorted(p.parent.name for p in reports.glob("*/README.md"))


def _summary_page(reports: Path) -> str:
    """The site's front page: SUMMARY.md when the reports have one, else their index."""
    summary = reports / "SUMMARY.md"
    if summary.exists():
        text = summary.read_text()
        return re.sub(r"\]\((?!https?:)([^)]+)\)", lambda m: f"](reports/{m.group(1)})", text)
    lines = ["# montecards: the reports\n", "| game | report | built by |", "|---|---|---|"]
    for game in _games(reports):
        record = reports / game / "provenance.json"
        built = json.loads(record.read_text())["command"] if record.exists() else "(no provenance recorded)"
        lines.append(f"| {game} | [{game}](reports/{game}/README.md) | `{built}` |")
    return "\n".join(lines) + "\n"


def _downloads(folder: Path) -> str:
    files = sorted(p.name for p in folder.iterdir() if p.suffix in (".csv", ".json"))
    if not files:
        return ""
    return "\n## Downloads\n\n" + "\n".join(f"- [{name}]({name})" for name in files) + "\n"


def _rewrite(page: Path, src: Path) -> None:
    """Links to files outside the site become code text; figures point at their SVG."""
    text = page.read_text()

    def fix(m: re.Match) -> str:
        bang, label, target = m.groups()
        if re.match(r"^[a-z]+:", target) or target.startswith("#"):
            return m.group(0)
        path, _, anchor = target.partition("#")
        resolved = (page.parent / path).resolve()
        if bang and resolved.suffix == ".png" and resolved.with_suffix(".svg").exists():
            svg = Path(path).with_suffix(".svg").as_posix()
            return f"{bang}[{label}]({svg}{'#' + anchor if anchor else ''})"
        if resolved.exists() and resolved.is_relative_to(src.resolve()):
            return m.group(0)
        return f"{label} (`{path}`)" if label and label != path else f"`{path}`"

    page.write_text(_LINK.sub(fix, text))


def _config(src: Path, games: list[str], docs: list[str]) -> str:
    nav = ["nav:", "  - Summary: index.md", "  - Reports:", "      - reports/README.md"]
    nav += [f"      - {g}: reports/{g}/README.md" for g in games]
    nav += ["  - Docs:"] + [f"      - {d}" for d in docs] + ["  - API reference: api.md"]
    return "\n".join([
        "site_name: montecards",
        f"docs_dir: {json.dumps(str(src))}",
        "use_directory_urls: false",
        "theme:",
        "  name: material",
        "  font: false",
        "plugins:",
        "  - search",
        "  - mkdocstrings:",
        "      handlers:",
        "        python:",
        f"          paths: [{json.dumps(str(REPO_ROOT))}]",
        "          options:",
        "            docstring_style: null",
        "            show_source: false",
        "            members_order: source",
        "            filters: ['!^_']",
        "markdown_extensions:",
        "  - tables",
        "  - toc:",
        "      permalink: true",
        "validation:",
        "  omitted_files: info",
        "  absolute_links: warn",
        "  unrecognized_links: warn",
        "  anchors: info",
        *nav,
    ]) + "\n"


def _checkout(name: str) -> Path:
    """``name`` in the checkout this package runs from, else in the current folder (an
    installed package has no reports or docs of its own)."""
    for base in (REPO_ROOT, Path.cwd()):
        if (base / name).is_dir():
            return base / name
    return Path.cwd() / name


def build_site(out_dir: str | Path, reports: str | Path | None = None,
               docs: str | Path | None = None) -> Path:
    """Write the site into ``out_dir`` (its ``index.html`` is returned) from the report folders
    under ``reports`` (default: the checkout's ``reports/``) and the pages of ``docs``."""
    try:
        import material  # noqa: F401
        import mkdocs  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError:
        raise InputError("the HTML site needs MkDocs: pip install 'montecards[docs]'") from None
    reports = Path(reports) if reports is not None else _checkout("reports")
    docs = Path(docs) if docs is not None else _checkout("docs")
    if not _games(reports):
        raise InputError(f"no reports under {reports} (a folder per game with its README.md)")
    if not docs.is_dir():
        raise InputError(f"no docs folder at {docs}")
    out = Path(out_dir).resolve()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "src"
        ignore = shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__")
        shutil.copytree(docs, src / "docs", ignore=ignore)
        shutil.copytree(reports, src / "reports", ignore=ignore)
        contract = docs.resolve().parent / "montecards" / "engine" / "CONTRACT.md"
        if contract.exists():
            (src / "montecards" / "engine").mkdir(parents=True)
            shutil.copy(contract, src / "montecards" / "engine" / "CONTRACT.md")
        for game in _games(reports):
            page = src / "reports" / game / "README.md"
            page.write_text(page.read_text() + _downloads(page.parent))
        (src / "index.md").write_text(_summary_page(reports))
        (src / "api.md").write_text(_api_page())
        pages = sorted(src.rglob("*.md"))
        for page in pages:
            _rewrite(page, src)
        doc_pages = [p.relative_to(src).as_posix() for p in pages if p.is_relative_to(src / "docs")]
        doc_pages += [p.relative_to(src).as_posix() for p in pages if p.is_relative_to(src / "montecards")]
        config = Path(tmp) / "mkdocs.yml"
        config.write_text(_config(src, _games(reports), doc_pages))
        done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--clean", "-q", "-f",
                               str(config), "-d", str(out)], capture_output=True, text=True)
        if done.returncode != 0:
            lines = [ln for ln in (done.stderr + done.stdout).splitlines() if ln.strip()]
            raise RuntimeError("mkdocs build --strict failed:\n" + "\n".join(lines[-30:]))
    (out / "404.html").unlink(missing_ok=True)  # a web server's page, with root-absolute links
    return out / "index.html"

"""``montecards report --html``: the site builds (mkdocs --strict), holds every report, doc and
the API reference, loads nothing from the network, and opens in a real headless browser
(Debian's ``chromium``, installed by .ci/run) with no broken image or link."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlparse

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _needs(tool_missing: bool, what: str) -> None:
    """Outside CI a missing tool skips with its reason; in CI (.ci/run installs both) it fails."""
    if tool_missing:
        if os.environ.get("CI"):
            pytest.fail(f"{what} is missing in CI: .ci/run installs it")
        pytest.skip(f"{what} is not installed here (pip install 'montecards[docs]'; "
                    "apt-get install chromium)")


def _mkdocs_missing() -> bool:
    try:
        import material  # noqa: F401
        import mkdocstrings  # noqa: F401
    except ImportError:
        return True
    return False


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("href", "src"):
            if a.get(key):
                self.refs.append((tag, key, a[key]))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    _needs(_mkdocs_missing(), "MkDocs (montecards[docs])")
    from montecards.report.base import Report
    from montecards.report.site import build_site

    tmp = tmp_path_factory.mktemp("site")
    reports = tmp / "reports"
    shutil.copytree(ROOT / "reports", reports, ignore=shutil.ignore_patterns("parade"))
    # one report written here by the real writer: SVG figures, CSV tables, data.json
    import matplotlib.pyplot as plt

    rep = Report("parade", reports / "parade", True, 3, 1, "montecards report parade --quick")
    (reports / "parade").mkdir()
    rep.section("Seats", "A test page ([the rules](../../docs/rules/parade.md), "
                "[a script](../../scripts/x.py)).")
    fig, ax = plt.subplots()
    ax.plot([1, 2, 3])
    rep.figure(fig, "a_figure", "A figure.")
    rep.table(pd.DataFrame({"players": [2, 3], "share": [0.5, 0.33]}), index=False)
    rep.write(1.0)
    from montecards.report.summary import write_summary

    write_summary(reports)  # the front page
    index = build_site(tmp / "out", reports)
    return index.parent


def test_the_site_holds_every_page_and_download(site):
    front = (site / "index.html").read_text()
    assert "Across the games" in front and 'href="reports/parade/index.html"' in front
    games = [p.name for p in (ROOT / "reports").iterdir() if (p / "README.md").exists()]
    for game in games:
        assert (site / "reports" / game / "index.html").exists()
    assert (site / "api.html").exists() and (site / "docs" / "ratings.html").exists()
    api = (site / "api.html").read_text()
    assert 'id="montecards.simulate"' in api and 'id="montecards.report.verdicts.claim"' in api
    page = (site / "reports" / "parade" / "index.html").read_text()
    assert 'src="a_figure.svg"' in page and (site / "reports" / "parade" / "a_figure.svg").exists()
    for name in ("data.json", "provenance.json", "table_1.csv"):
        assert f'href="{name}"' in page and (site / "reports" / "parade" / name).exists()
    assert json.loads((site / "reports" / "parade" / "data.json").read_text())["figures"] == ["a_figure.png"]
    assert "<code>../../scripts/x.py</code>" in page  # outside the site: text, not a dead link
    assert 'href="../../docs/rules/parade.html"' in page


def test_no_broken_link_and_nothing_from_the_network(site):
    pages = list(site.rglob("*.html"))
    assert len(pages) > 20
    broken = []
    for page in pages:
        parser = _Refs()
        parser.feed(page.read_text())
        for tag, _key, ref in parser.refs:
            url = urlparse(ref)
            if url.scheme in ("http", "https"):
                assert tag == "a", f"{page}: {tag} loads {ref} from the network"
                continue
            if url.scheme in ("mailto", "data", "javascript") or not url.path:
                continue
            target = (page.parent / unquote(url.path)).resolve()
            if not target.exists():
                broken.append(f"{page.relative_to(site)}: {ref}")
    assert broken == []


PROBE = """<script>
window.addEventListener("load", () => {
  const bad = [...document.images].filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.src);
  const pre = document.createElement("pre"); pre.id = "probe";
  pre.textContent = JSON.stringify({images: document.images.length, broken: bad});
  document.body.appendChild(pre);
});
</script></body>"""


def _browser(*args: str) -> subprocess.CompletedProcess:
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
             "--allow-file-access-from-files"]
    return subprocess.run([CHROMIUM, *flags, *args], capture_output=True, text=True, timeout=120)


def test_the_browser_shows_the_summary_and_every_image(site, tmp_path):
    _needs(CHROMIUM is None, "chromium")
    shot = tmp_path / "summary.png"
    _browser(f"--screenshot={shot}", "--window-size=1280,1600", (site / "index.html").as_uri())
    import matplotlib.image as mpimg

    pixels = mpimg.imread(shot)
    assert pixels.shape[:2] == (1600, 1280) and pixels.std() > 0.01  # a page, not a blank
    for page in [site / "index.html", *sorted((site / "reports").glob("*/index.html"))]:
        probe = page.with_name("_probe.html")
        probe.write_text(page.read_text().replace("</body>", PROBE, 1))
        out = _browser("--virtual-time-budget=8000", "--dump-dom", probe.as_uri())
        probe.unlink()
        found = re.search(r'<pre id="probe">(.*?)</pre>', out.stdout, re.DOTALL)
        assert found, (page, out.stderr[-500:])
        result = json.loads(found.group(1).replace("&quot;", '"'))
        assert result["broken"] == [], page
        if page.parent.name == "parade":
            assert result["images"] >= 1  # the SVG figure loaded

"""The pytest examples of the docs run as written: the README's fixture section and
docs/testing.md (each block that defines a test with the bwc_emu fixture; python/README.md's is
test_plugin's), in a pytest subprocess with the plugin as pip installs it."""
import os
import re

import pytest

from conftest import REPO, inner_pytest

PAGES = ["README.md", "docs/testing.md"]


def examples():
    """(page, index, code) of every Python block with a test using the fixture."""
    found = []
    for page in PAGES:
        with open(os.path.join(REPO, page), encoding="utf-8") as file:
            blocks = re.findall(r"```python\n(.*?)```", file.read(), re.S)
        found += [(page, i, code) for i, code in enumerate(blocks) if re.search(r"def test_\w+\(bwc_emu\)", code)]
    return found


def test_every_page_has_an_example():
    assert sorted({page for page, _, _ in examples()}) == sorted(PAGES)


@pytest.mark.parametrize("page,index,code", examples(), ids=lambda v: str(v).replace("/", "_") if isinstance(v, (str, int)) and len(str(v)) < 40 else "code")
def test_the_example_runs_as_written(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch, page: str, index: int, code: str):
    pytester.makepyfile(test_example=code)
    result = inner_pytest(pytester, monkeypatch)
    result.assert_outcomes(passed=len(re.findall(r"^def test_", code, re.M)))

"""The Python examples of the README and docs/python.md, run as written: each
```python block is executed in a fresh namespace (the documents are read from
the repository; outside it the test skips with a reason)."""

import re

import pytest

from conftest import ROOT

DOCUMENTS = ["README.md", "docs/python.md"]


def python_blocks(text):
    return re.findall(r"^```python\n(.*?)^```$", text, flags=re.S | re.M)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_python_examples_run_as_written(document):
    path = ROOT / document
    if not path.exists():
        pytest.skip(f"{document} is not beside this package")
    blocks = python_blocks(path.read_text())
    assert blocks, f"no python example in {document}"
    for i, code in enumerate(blocks):
        exec(compile(code, f"{document} example {i + 1}", "exec"), {"__name__": "__docs__"})

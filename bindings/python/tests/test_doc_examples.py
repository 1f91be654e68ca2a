"""doc/sweeps.rst's worked example: its numbers are the block that
tools/doc-examples.py computes by running the sweep the chapter shows; this test runs it again
and fails when the chapter has drifted from the model (the block had: 102.266 ms for 2 Mbit/s
and 50 ms, the model of today gives another number)."""

import importlib.util

import pytest

from testbed import EXAMPLES_DIR, ROOT

spec = importlib.util.spec_from_file_location("doc_examples", ROOT / "tools" / "doc-examples.py")
doc_examples = importlib.util.module_from_spec(spec)
spec.loader.exec_module(doc_examples)


@pytest.mark.skipif(not (EXAMPLES_DIR / "jaxa-benchmark").exists(), reason="programs not built")
def test_worked_example_numbers_are_the_models(tmp_path):
    got = doc_examples.block(tmp_path / "sweep-jaxa-benchmark", jobs=2)
    have = doc_examples.doc_block(doc_examples.DOC.read_text())
    assert have == got, ("doc/sweeps.rst drifted; run ./testbed python tools/doc-examples.py "
                         f"--write\n--- doc\n{have}--- computed\n{got}")


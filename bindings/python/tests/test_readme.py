"""The README's Python example runs as written."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_readme_python_example(capsys):
    text = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert blocks, "README has no Python example"
    exec(compile(blocks[0], "README.md", "exec"), {})
    assert "5 replies" in capsys.readouterr().out
    import testbed

    testbed.ns.Simulator.Destroy()

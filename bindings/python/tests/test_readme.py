"""The README's examples: the Python one runs as written; each C++ or CMake snippet that names
its file is that file's text (no drift between the README and the code it shows)."""

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


def test_readme_code_snippets_are_the_files_they_name():
    text = (ROOT / "README.md").read_text()
    # A block followed by "This is `<path>`" is an excerpt of that file, character for character.
    pairs = re.findall(r"```(?:c\+\+|cmake)\n(.*?)```\s*\n\s*This is `([^`]+)`", text, re.S)
    assert pairs, "README names no file for its C++ example"
    for block, path in pairs:
        source = (ROOT / path).read_text()
        assert block in source, f"README's snippet differs from {path}"

"""Run one ``mega-scale`` point split by sets over processes and merge its record (issue 29
step 6; doc/mega.rst, "Step 6, built").

The parts run at the same time (one process each; without the querier they exchange nothing),
then ``mega-scale --merge`` makes the whole run's record from their files::

    from testbed import mega_split
    rec = mega_split.run(["--senderPcs=40", "--sendersPerGroup=4", "--receivers=10",
                          "--querier=false"], parts=2, workdir="/tmp/split",
                         output="/tmp/split/record.json")

The program refuses what it cannot split exactly (the querier, the 6009, one group), and a part
whose sets turned out to be coupled (flooding) exits 1: then this raises and no record is written.
"""

import json
import subprocess
from pathlib import Path

from . import EXAMPLES_DIR

__all__ = ["run", "SplitError"]


class SplitError(RuntimeError):
    """A part or the merge failed: its exit status and standard error."""


def run(args, parts=2, workdir=".", output="record.json", program=None, timeout=None):
    """Run mega-scale with ``args`` (a list of ``--name=value``) as ``parts`` processes at once,
    merge their files into ``output`` and return the record (a dict)."""
    program = str(program or EXAMPLES_DIR / "mega-scale")
    work = Path(workdir)
    work.mkdir(parents=True, exist_ok=True)
    files = [work / f"part{k}of{parts}" for k in range(parts)]
    procs = [subprocess.Popen([program, *args, f"--parts={parts}", f"--part={k}",
                               f"--partOut={f}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
             for k, f in enumerate(files)]
    failed = []
    for k, p in enumerate(procs):
        _, err = p.communicate(timeout=timeout)
        if p.returncode != 0:
            failed.append(f"part {k}: exit {p.returncode}: {err.strip()}")
    if failed:
        raise SplitError("; ".join(failed))
    m = subprocess.run([program, *args, "--merge=" + ",".join(str(f) for f in files),
                        f"--output={output}"], capture_output=True, text=True, timeout=timeout)
    if m.returncode != 0:
        raise SplitError(f"merge: exit {m.returncode}: {m.stderr.strip()}")
    return json.loads(Path(output).read_text())

"""Run one ``mega-scale`` point split by sets over processes and merge its record (doc/mega.rst,
"An exact split over two processes").

The parts run at the same time (one process each), then ``mega-scale --merge`` makes the whole
run's record from their files::

    from testbed import mega_split
    rec = mega_split.run(["--senderPcs=40", "--sendersPerGroup=4", "--receivers=10",
                          "--querier=false"], parts=2, workdir="/tmp/split",
                         output="/tmp/split/record.json")

Without the querier the parts exchange nothing. With it (``--querier=true``, two parts), this
opens two pipes and hands each part its ends (``--peer=READ,WRITE``): part 1 sends part 0 the
frames its switch would queue at the querier's router port, part 0 sends part 1 the querier's
frames, with conservative synchronisation. A part whose peer ended closes too (exit 1), so a
failed part cannot leave the other waiting.

The program refuses what it cannot split exactly (the 6009, one group, more than two parts with
the querier), and a part whose sets turned out to be coupled (flooding, drops at another part's
port, a frame the lookahead did not allow for) exits 1: then this raises and no record is
written.
"""

import json
import os
import subprocess
import tempfile
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
    querier = not any(a.lower() in ("--querier=false", "--querier=0") for a in args)
    extra = [[] for _ in range(parts)]
    keep = [() for _ in range(parts)]
    fds = []
    if querier and parts == 2:
        a_to_b = os.pipe()
        b_to_a = os.pipe()
        fds = [*a_to_b, *b_to_a]
        extra = [[f"--peer={b_to_a[0]},{a_to_b[1]}"], [f"--peer={a_to_b[0]},{b_to_a[1]}"]]
        keep = [(b_to_a[0], a_to_b[1]), (a_to_b[0], b_to_a[1])]
    procs = []
    errs = []
    try:
        for k, f in enumerate(files):
            err = tempfile.TemporaryFile(mode="w+")
            errs.append(err)
            procs.append(subprocess.Popen([program, *args, f"--parts={parts}", f"--part={k}",
                                           f"--partOut={f}", *extra[k]],
                                          stdout=subprocess.DEVNULL, stderr=err,
                                          pass_fds=keep[k]))
    finally:
        # Only the parts hold the pipes: when one ends, the other reads the end of its input.
        for fd in fds:
            os.close(fd)
    failed = []
    for k, p in enumerate(procs):
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
                q.wait()
            raise
        if p.returncode != 0:
            errs[k].seek(0)
            failed.append(f"part {k}: exit {p.returncode}: {errs[k].read().strip()}")
        errs[k].close()
    if failed:
        raise SplitError("; ".join(failed))
    m = subprocess.run([program, *args, "--merge=" + ",".join(str(f) for f in files),
                        f"--output={output}"], capture_output=True, text=True, timeout=timeout)
    if m.returncode != 0:
        raise SplitError(f"merge: exit {m.returncode}: {m.stderr.strip()}")
    return json.loads(Path(output).read_text())

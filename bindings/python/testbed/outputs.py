"""Output files: written as a whole or not at all, read strictly; the campaign's folder.

Every file a campaign, a sweep or a sensitivity run writes (records, data.csv, metrics.json,
reports) goes through atomic_write_text: a temporary beside it, then a rename, so a killed run
never leaves half a file. A stored record is read with load_json (no NaN, no Infinity). An output
folder is checked before any cluster starts (check_out) and locked while a campaign writes into it
(lock_folder); clean_stale removes the temporaries an interrupted run left.
"""

from __future__ import annotations

import csv
import fcntl
import io
import json
import math
import os
import tempfile
from pathlib import Path

from .errors import CampaignError


def _file_mode() -> int:
    """The mode of an ordinary new file under this process's umask (0644 under 022)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def atomic_write_text(path: Path, text: str) -> None:
    """Write a file as a whole or not at all: a temporary beside it, then a rename. A failed
    write (a full disk, a file-size limit) leaves the previous file as it was and no
    temporary."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix or ".txt")
    try:
        with os.fdopen(fd, "w", newline="") as f:
            f.write(text)
        os.chmod(tmp, _file_mode())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def atomic_write_json(path: Path, data) -> None:
    """A JSON file (indented, keys sorted) written as a whole or not at all."""
    atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def _finite_float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise ValueError(f"number {text} is out of range")
    return x


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON number")


def load_json(text: str):
    """Strict JSON of a stored record: NaN, Infinity and a number beyond a double (1e400, which
    Python reads as inf) are refused (ValueError), and so is a nesting deeper than the parser's
    recursion limit (RecursionError becomes ValueError)."""
    try:
        return json.loads(text, parse_float=_finite_float, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError("nested too deeply") from None


def clean_stale(pdir: Path) -> int:
    """Remove temporaries that an interrupted or killed campaign left in a points/ folder and
    in the experiment's folder beside it (metrics.json, data.csv, ...)."""
    n = 0
    for d in (pdir, pdir.parent):
        if d.is_dir():
            for f in list(d.glob(".out-*.json")) + list(d.glob(".tmp-*")):
                if f.is_file():
                    f.unlink(missing_ok=True)
                    n += 1
    return n


def check_out(out: Path) -> None:
    """--out must be a folder this process can write (or one it can create): checked before any
    cluster starts (CampaignError, one line)."""
    probe = Path(out)
    while not probe.exists():
        if probe.parent == probe:
            break
        probe = probe.parent
    if probe.exists() and not probe.is_dir():
        raise CampaignError(f"--out {out}: {probe} is a file, not a folder")
    if not os.access(probe, os.W_OK | os.X_OK):
        raise CampaignError(f"--out {out}: {probe} is not writable")


def lock_folder(folder: Path) -> int:
    """An exclusive lock (fcntl) on <folder>/.lock, held until the returned descriptor is closed
    (also when the process dies): a second campaign into the same folder is refused instead of
    deleting the first one's temporaries."""
    folder.mkdir(parents=True, exist_ok=True)
    fd = os.open(folder / ".lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip()
        os.close(fd)
        raise CampaignError(f"{folder}: another campaign (pid {holder or '?'}) is writing into "
                            f"it; wait for it to end or use another --out") from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def write_csv(path: Path, rows: list[dict]) -> None:
    """Rows as a CSV file (written atomically): the columns in the order they first appear."""
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=cols)
    w.writeheader()
    for r in rows:
        w.writerow(r)
    atomic_write_text(path, buf.getvalue())

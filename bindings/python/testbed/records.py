"""A point's stored record: its file name, its checksum, and whether it can stand for the point.

A point is stored at ``<out>/<experiment>/points/<point_key>.json``. A stored record is reused
only when it is a record of the point (record_problem: its parameters and program, and result
fields as the program declares them), of the current build (every field of build.IDENTITY and
the point's input files) and as it was written (record_checksum).
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path
from typing import Callable

from .build import IDENTITY, declared_fields
from .experiment import Record
from .outputs import load_json


def point_key(params: dict) -> str:
    """A stable file name for a parameter set."""
    canon = json.dumps(params, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()[:20]


#: Keys of a record that its checksum does not cover: the checksum itself and the experiment a
#: copy is stored for (a point shared by experiments is the same record under another name).
_UNCHECKED = ("checksum", "experiment")


def record_checksum(record: dict) -> str:
    """SHA-256 of a record's content (canonical JSON, without the keys of _UNCHECKED): stored
    with the record and checked before it is reused, so that an edited result, build identity
    or resolved parameter set is computed again instead of trusted."""
    body = {k: v for k, v in record.items() if k not in _UNCHECKED}
    canon = json.dumps(body, sort_keys=True, separators=(",", ":"), allow_nan=False)
    return hashlib.sha256(canon.encode()).hexdigest()


def _value_fits(kind: str, v) -> bool:
    def number(x):  # null: the programs write a non-finite real as null (ResultRecord)
        return x is None or (isinstance(x, (int, float)) and not isinstance(x, bool)
                             and math.isfinite(x))

    return {"real": number(v),
            "int": isinstance(v, int) and not isinstance(v, bool),
            "bool": isinstance(v, bool),
            "string": isinstance(v, str),
            "series": isinstance(v, list) and all(number(x) for x in v)}.get(kind, True)


def record_problem(data, params: dict, program: str | None) -> str | None:
    """Why a stored record cannot stand for the point (None if it can): not a JSON object,
    other parameters or program, no result object, a result field the program does not declare
    or of another type than declared, or without a field the program declares always set."""
    if not isinstance(data, dict):
        return "not a JSON object"
    if data.get("params") != params:
        return "other parameters"
    if program is not None and data.get("program", program) != program:
        return f"written by {data.get('program')!r}, not {program}"
    result = data.get("result")
    if not isinstance(result, dict):
        return "no result object"
    fields = declared_fields(program) if program else None
    if fields is not None:
        for k, v in result.items():
            if k not in fields:
                return f"result field {k!r} is not a field of {program}"
            if not _value_fits(fields[k].get("type"), v):
                return f"result field {k!r} is not a {fields[k].get('type')}"
        for k, f in fields.items():
            if f.get("always") is True and k not in result:
                return f"no result field {k!r}, which {program} always sets"
    return None


def read_point(path: Path, params: dict, program: str | None = None,
                log: Callable[[str], None] | None = None) -> dict | None:
    """A stored record of this program and these parameters (of whatever build), or None
    (missing, or not a valid record of the point: then, with ``log``, says why it is computed
    again). Only a regular file is read (a FIFO named like a record would block)."""
    try:
        if not path.is_file():
            if log is not None and (path.exists() or path.is_symlink()):
                log(f"{path}: not a regular file: computing the point again")
            return None
        data = load_json(path.read_text())
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        if log is not None:
            log(f"{path}: unreadable record ({type(e).__name__}: {e}): computing the point "
                f"again")
        return None
    why = record_problem(data, params, program)
    if why is not None:
        if log is not None and why != "other parameters":
            log(f"{path}: {why}: computing the point again")
        return None
    return data


def _is_current(data: dict, build: dict | None, inputs: dict | None = None) -> bool:
    """Whether a stored record was made by this build (every field of its identity, not the id
    alone, and these input files) and is as it was written (its checksum, record_checksum).
    Without a current identity (build None: tests of the storage alone) any record is
    current."""
    if build is None:
        return True
    stored = data.get("build")
    return (isinstance(stored, dict)
            and all(stored.get(k) == build.get(k) for k in IDENTITY)
            and stored.get("inputs", {}) == (inputs or {})
            and _checksum_holds(data))


def _checksum_holds(data: dict) -> bool:
    try:
        return data.get("checksum") == record_checksum(data)
    except (ValueError, RecursionError):
        return False


def load_point(path: Path, params: dict, program: str | None = None,
                build: dict | None = None, inputs: dict | None = None,
                log: Callable[[str], None] | None = None) -> Record | None:
    """The stored record of this point made by this build, or None."""
    data = read_point(path, params, program, log)
    if data is None or not _is_current(data, build, inputs):
        return None
    return Record(params=data["params"], result=data["result"],
                  experiment=data.get("experiment", path.parent.parent.name),
                  program=data.get("program", program or ""), build=data.get("build"),
                  resolved=data.get("resolved"))

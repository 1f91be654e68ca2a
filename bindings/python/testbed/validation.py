"""Measured data from the papers (validation/*.csv): calibration data only."""

import csv

from . import ROOT

VALIDATION_DIR = ROOT / "validation"


def _number(text):
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text


def load(name):
    """Rows of validation/<name> as dicts; numeric cells become numbers; '#' lines are comments."""
    path = VALIDATION_DIR / name
    with open(path, newline="") as f:
        lines = [line for line in f if line.strip() and not line.lstrip().startswith("#")]
    return [{k: _number(v.strip()) for k, v in row.items()} for row in csv.DictReader(lines)]

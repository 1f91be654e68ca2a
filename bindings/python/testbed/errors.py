"""The campaign's exceptions."""

from __future__ import annotations


class CampaignError(RuntimeError):
    """A point or an experiment could not be computed."""


class SchedulerError(CampaignError):
    """--scheduler ADDR names no reachable Dask scheduler (a usage error: exit 2, one line)."""


class PointsFailed(CampaignError):
    """Points of an experiment failed: each was logged (with its program's error) as it failed;
    the message counts and names them. ``errors``: every failed point's error text."""

    def __init__(self, exp_id: str, errors: list[str], points: list[dict]):
        self.exp_id, self.errors, self.points = exp_id, errors, points
        super().__init__(self._text())

    def _text(self) -> str:
        n = len(self.points)
        if n == 1:
            return f"{self.exp_id}: {self.errors[0]}"
        shown = ", ".join(str(p) for p in self.points[:5]) + (", ..." if n > 5 else "")
        return f"{self.exp_id}: {n} points failed: {shown}"

    def add(self, error: str, point: dict) -> None:
        self.errors.append(error)
        self.points.append(point)
        self.args = (self._text(),)

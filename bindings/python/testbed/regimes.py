"""Cliffs named, not hidden (doc/sensitivity.rst, "Cliffs named"): where an input within its
documented range or readings flips a metric's regime (a partial segment that Nagle's rule holds
or none; processes asked for below or above what memory holds; a duplex mismatch's late
collisions or none), the experiment runs the other side of the cliff too and its metrics say
so. Used by every study's module (experiments/*.py)."""


def regime_text(label, driver, regimes):
    """The text of NAME_regime: the central value's regime (label) first, the driver, then each
    regime's value ("cut off" for None)."""
    def text(v):
        return "cut off" if v is None else str(v) if isinstance(v, int) else f"{v:.4g}"

    values = "; ".join(f"{lab}: {text(v)}" for lab, v in regimes)
    return f"{label} (driver: {driver}); {values}"


def set_regime(metrics, name, driver, regimes):
    """A named cliff of metric NAME: NAME_regime says the driver, the regime of the central
    value (the first of regimes) and each regime's value; NAME_low / NAME_high span both regimes'
    values (the band covers both, and any band it had). regimes: [(label, value)], the central value's first; a value
    None (cut off) is said so and left out of the band. A regime that is the same on both sides
    is no cliff: nothing is set then."""
    if len({lab for lab, _ in regimes}) < 2:
        return
    (label, _), *_ = regimes
    metrics[f"{name}_regime"] = regime_text(label, driver, regimes)
    values = [v for _, v in regimes if v is not None]
    if metrics.get(name) is not None and len(values) == len(regimes):
        # the band covers both regimes and whatever band the metric already had (its seeds)
        values += [metrics[k] for k in (f"{name}_low", f"{name}_high")
                   if metrics.get(k) is not None]
        metrics[f"{name}_low"] = min(values)
        metrics[f"{name}_high"] = max(values)

"""ns-3's time and data-rate syntax: units and their factors, a number split from its unit."""

from __future__ import annotations

import re

#: Seconds per unit of ns-3's time syntax (as ProgramOptions reads it).
TIME_UNITS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9, "ps": 1e-12, "fs": 1e-15,
              "min": 60.0, "h": 3600.0, "d": 86400.0}
#: Bits per second per unit of ns-3's data-rate syntax (DataRate; B = bytes).
RATE_UNITS = {"bps": 1.0, "b/s": 1.0, "kbps": 1e3, "Kbps": 1e3, "kb/s": 1e3, "Kb/s": 1e3,
              "Mbps": 1e6, "Mb/s": 1e6, "Gbps": 1e9, "Gb/s": 1e9, "Bps": 8.0, "B/s": 8.0,
              "kBps": 8e3, "KBps": 8e3, "kB/s": 8e3, "KB/s": 8e3, "MBps": 8e6, "MB/s": 8e6,
              "GBps": 8e9, "GB/s": 8e9, "Kibps": 1024.0, "Mibps": 1048576.0,
              "Gibps": 1073741824.0}
_NUMBER = re.compile(r"^\s*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
                     r"\s*([A-Za-z/]*)\s*$")


def split_number(text: str) -> tuple[float, str] | None:
    """A number with its unit ("50ms" -> (50.0, "ms"), "7" -> (7.0, "")), or None."""
    m = _NUMBER.match(str(text))
    if not m:
        return None
    return float(m.group(1)), m.group(2)

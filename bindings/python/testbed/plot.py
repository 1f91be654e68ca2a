"""Figures: gnuplot scripts written here, drawn by gnuplot.

gnuplot stays the figure tool (as with ns-3's Gnuplot class, which this module used to drive
through cppyy: loading all of ns-3 only to write a text file cost about 10 s per figure). The
script is plain text, so it is written directly, in the same form ns-3's Gnuplot2dDataset gives
(inline data blocks, one per series): render() needs neither ns-3 nor cppyy, and
``<name>.plt`` beside each PNG draws the same figure again with ``gnuplot <name>.plt``.

Every figure: the plot takes the whole width. The key goes inside the plotting area, in a corner
that no data crosses, where it fits, else below the plot in as many columns as fit; never
outside on the right, where a wide key left the data half the figure. Margins are explicit
(computed from the title's lines, the tic labels and the key's rows), so nothing is clipped;
a long title is wrapped; ``Figure.subtitle`` (what the figure holds fixed) is a smaller line
under it. Each axis has one tic format for all its labels (no ``900000`` beside
``1.9x10^6``). A palette of twelve distinguishable colours: each series its own colour, or its
group's (``Series.group``: a model's points and its fit); measured data as filled points, drawn
over the lines; a shaded band (``band``, ``band_between``, ``measured_with_tolerance``) under
everything.
``layout_problems`` reads a written script back and lists what breaks these rules.
"""

from __future__ import annotations

import math
import re
import shutil
import textwrap
import subprocess
from pathlib import Path

from .experiment import Figure, Series, band, band_between  # noqa: F401 (the figure API)
from .outputs import atomic_write_text

#: Twelve colours, distinguishable from each other (Tableau 10, then two darker ones); a figure
#: with more series than this repeats them with other point types.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf", "#000080", "#800000")

_STYLES = {"lines", "points", "linespoints", "dots", "impulses", "steps", "fsteps", "histeps"}
#: Styles drawn as gnuplot's own style of another name: "segments" joins consecutive pairs of
#: points, each pair a segment of its own (a blank line after each pair breaks the line);
#: "dotted" is a line drawn dotted (a fit to a series' points, in the series' colour), "dashed"
#: one drawn dashed (as a measured line is: a study's fitted line).
_ALIASES = {"segments": "lines", "dotted": "lines", "dashed": "lines"}


def script_text(s) -> str:
    """Text safe inside a double-quoted string of a gnuplot script (ns-3's Gnuplot writes titles
    and labels as "..." without escaping): a '"' would end the string and let the rest run as
    commands (system("...")), a backquote runs a shell command even inside "...", a newline
    starts a new command. Those become "'" and blanks; a backslash at the end, which would
    escape the closing quote, is doubled. Escapes such as "\\_" (enhanced text) pass."""
    out = []
    for ch in str(s):
        if ch in '"`':
            out.append("'")
        elif ord(ch) < 0x20 or ord(ch) == 0x7f:
            out.append(" ")
        else:
            out.append(ch)
    text = "".join(out)
    trailing = len(text) - len(text.rstrip("\\"))
    return text + "\\" if trailing % 2 else text


def _file_name(name: str) -> str:
    """A figure's file name: letters, digits and -_.+= only (it enters `set output "..."`)."""
    safe = "".join(c if c.isalnum() or c in "-_.+=" else "_" for c in str(name)).lstrip(".")
    return safe or "figure"


def _num(v) -> str:
    return repr(float(v))


#: The canvas (pixels) and font of every figure.
WIDTH, HEIGHT, FONT_PT = 1000, 600, 11
#: The font's character width and line height in pixels as gnuplot counts them for Sans 11 on
#: pngcairo (GPVAL_TERM_HCHAR 180 and VCHAR 341, in twentieths of a pixel): gnuplot lays out
#: the key's columns and the margins in these units.
CHAR_W, CHAR_H = 9.0, 17.0
#: The widest title line (characters) before it is wrapped.
TITLE_CHARS = 100
#: The key goes inside when it covers at most this fraction of the plot's width and height.
KEY_MAX_W, KEY_MAX_H = 0.6, 0.6


def _is_measured(s: Series) -> bool:
    return s.title.lower().startswith("measured")


def measured_with_tolerance(title: str, x, y, tolerance_pct: float,
                            group: str | None = None) -> list[Series]:
    """Measured points and their tolerance (a percentage of each value) as a band: the series
    to put over a simulated curve. The band's key entry names the tolerance."""
    half = [abs(v) * tolerance_pct / 100.0 for v in y]
    group = group or title
    return [band(f"{title}: tolerance \u00b1{tolerance_pct:g} %", x, y, half, group=group),
            Series(title, list(x), list(y), style="points", group=group)]


def _half(s: Series, i: int) -> float:
    return float(s.yerr[i] if isinstance(s.yerr, (list, tuple)) else s.yerr)


#: gnuplot's point types for simulated series (+, x, *, open square, circle, triangles,
#: diamond, pentagon); measured points are filled circles (7).
OPEN_POINTS = (1, 2, 3, 4, 6, 8, 10, 12, 14)


def _with(s: Series, colour_index: int, point_index: int) -> str:
    """The `with ...` clause of a series: style, colour (palette), point type."""
    colour = f'lc rgb "{PALETTE[colour_index % len(PALETTE)]}"'
    if s.style == "band":
        return (f'filledcurves fc rgb "{PALETTE[colour_index % len(PALETTE)]}" '
                "fs transparent solid 0.2 noborder")
    pt = 7 if _is_measured(s) else OPEN_POINTS[point_index % len(OPEN_POINTS)]
    if s.yerr is not None:
        style = "yerrorlines" if s.style == "errorlines" else "yerrorbars"
    else:
        style = _ALIASES.get(s.style, s.style)
        style = style if style in _STYLES else "linespoints"
    extra = f" pt {pt} ps 1.2" if style not in ("lines", "steps", "fsteps", "histeps",
                                                   "impulses", "dots") else " lw 2"
    if s.style == "dotted":
        extra += " dt 3"
    elif s.style == "dashed" or (_is_measured(s) and style == "lines"):
        extra += " dt 2"  # a measured line (a study's fitted line) dashed, apart from the model's
    return f"{style} {colour}{extra}"


def _finite(*vs) -> bool:
    return all(v is not None and math.isfinite(float(v)) for v in vs)


def _rows(s: Series) -> list[str]:
    rows = []
    for i, (x, y) in enumerate(zip(s.x, s.y)):
        if not _finite(x, y):
            continue
        if s.style == "band":
            h = _half(s, i)
            if not _finite(h):
                continue
            rows.append(f"{_num(x)} {_num(float(y) - h)} {_num(float(y) + h)}")
        elif s.yerr is not None:
            rows.append(f"{_num(x)} {_num(y)} {_num(_half(s, i))}")
        else:
            rows.append(f"{_num(x)} {_num(y)}")
        if s.style == "segments" and i % 2 == 1:
            rows.append("")  # gnuplot breaks the line at a blank line of the data
    return rows


def _values(fig: Figure, axis: str) -> list[float]:
    """Every finite value drawn on an axis (a band's and an error bar's ends included)."""
    out = []
    for s in fig.series:
        for i, (x, y) in enumerate(zip(s.x, s.y)):
            if not _finite(x, y):
                continue
            if axis == "x":
                out.append(float(x))
            elif s.yerr is not None and _finite(_half(s, i)):
                out += [float(y) - _half(s, i), float(y) + _half(s, i)]
            else:
                out.append(float(y))
    rng = fig.xrange if axis == "x" else fig.yrange
    for v in rng or ():
        if isinstance(v, (int, float)) and math.isfinite(v):
            out.append(float(v))
    return out


def tic_format(values: list[float], log: bool) -> str:
    """One printf format for every tic label of an axis. gnuplot's default ("% h") writes
    900000 beside 1.9x10^6 on one axis; here a log axis over a decade or more has powers of ten
    (its autoscaled tics are whole decades), large linear values are written out in full (up to
    10^8, beyond as mantissa x 10^n, all of them), others as %g."""
    vals = [abs(v) for v in values if math.isfinite(v)]
    if log:
        pos = [v for v in values if v > 0]
        if pos and max(pos) / min(pos) >= 10:  # gnuplot's log autoscale: whole decades
            return "10^{%L}"
        if pos and min(pos) >= 1 and max(pos) < 1e8:
            return "%.0f" if max(pos) >= 1e4 else "%g"
        return "%g"
    top = max(vals, default=0.0)
    if top >= 1e8:
        return "%.1t\u00d710^{%T}"
    if top >= 1e4:
        return "%.0f"
    return "%g"


def _tic_chars(values: list[float], fmt: str) -> int:
    """The widest tic label of an axis (characters), for its margin."""
    vals = [v for v in values if math.isfinite(v)]
    if not vals:
        return 3
    if fmt == "10^{%L}":
        return 5
    if "%T" in fmt:
        return 8
    top = max(abs(v) for v in vals)
    neg = 1 if min(vals) < 0 else 0
    if fmt == "%.0f":
        return len(f"{top:.0f}") + neg
    return max(len(f"{v:g}") for v in (top, min(vals), (top + min(vals)) / 2)) + neg + 2


def _wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def _enhanced_literal(text: str) -> str:
    """Text shown as written by an enhanced-text terminal ("_" no subscript, "^" no
    superscript): each special character escaped (two backslashes in the script: one for the
    string, one for the enhanced-text reader)."""
    return "".join("\\\\" + c if c in "_^{}@&~" else c for c in script_text(text))


def _normalised(v: float, lo: float, hi: float, log: bool) -> float | None:
    if log:
        if v <= 0 or lo <= 0:
            return None
        v, lo, hi = math.log10(v), math.log10(lo), math.log10(hi)
    return 0.5 if hi == lo else (v - lo) / (hi - lo)


def _tic_step(span: float) -> float:
    """gnuplot's tic step for an autoscaled linear axis of this span (quantize_normal_tics,
    guide 20)."""
    power = 10.0 ** math.floor(math.log10(span))
    xnorm = span / power
    posns = 20 / xnorm
    for limit, tics in ((40, 0.05), (20, 0.1), (10, 0.2), (4, 0.5), (2, 1.0), (0.5, 2.0)):
        if posns > limit:
            return tics * power
    return math.ceil(xnorm) * power


def _autoscaled(lo: float, hi: float, log: bool) -> tuple[float, float]:
    """The range gnuplot's autoscale gives data from lo to hi: extended to whole tics (decades
    on a log axis)."""
    if hi <= lo:
        return lo, hi
    if log:
        if lo <= 0:
            return lo, hi
        return 10.0 ** math.floor(math.log10(lo) + 1e-9), 10.0 ** math.ceil(math.log10(hi) - 1e-9)
    step = _tic_step(hi - lo)
    return math.floor(lo / step + 1e-9) * step, math.ceil(hi / step - 1e-9) * step


def _occupied(fig: Figure, drawn: list[Series]) -> list[tuple[float, float]]:
    """Where the data lies, in the plot's normalised coordinates (0..1 each way): every point,
    and points along each line, each band's edges."""
    xs, ys = _values(fig, "x"), _values(fig, "y")
    if not xs or not ys:
        return []
    xlo, xhi = (min(xs), max(xs))
    ylo, yhi = (min(ys), max(ys))
    if fig.logx:
        xlo = min((v for v in xs if v > 0), default=1.0)
    if fig.logy:
        ylo = min((v for v in ys if v > 0), default=1.0)
    # gnuplot's autoscale extends each axis to its outer tics: the plot's range.
    xlo, xhi = _autoscaled(xlo, xhi, fig.logx)
    ylo, yhi = _autoscaled(ylo, yhi, fig.logy)
    # A range the figure fixes is the plot's (data beyond it is clipped by gnuplot).
    for rng, axis in ((fig.xrange, "x"), (fig.yrange, "y")):
        lo, hi = rng if rng else (None, None)
        if axis == "x":
            xlo = xlo if lo is None else float(lo)
            xhi = xhi if hi is None else float(hi)
        else:
            ylo = ylo if lo is None else float(lo)
            yhi = yhi if hi is None else float(hi)
    pts = []
    for s in drawn:
        seq = []
        for i, (x, y) in enumerate(zip(s.x, s.y)):
            if not _finite(x, y):
                continue
            ys_i = [float(y)]
            if s.yerr is not None and _finite(_half(s, i)):
                ys_i += [float(y) - _half(s, i), float(y) + _half(s, i)]
            for yy in ys_i:
                nx = _normalised(float(x), xlo, xhi, fig.logx)
                ny = _normalised(yy, ylo, yhi, fig.logy)
                if nx is not None and ny is not None:
                    pts.append((nx, ny))
            nx = _normalised(float(x), xlo, xhi, fig.logx)
            ny = _normalised(float(y), ylo, yhi, fig.logy)
            if ny is None and fig.logy and s.style not in ("points", "dots"):
                ny = 0.0  # a line to a value <= 0 on a log axis runs to the bottom
            seq.append((nx, ny) if nx is not None and ny is not None else None)
            if s.style in ("histeps", "steps", "fsteps", "impulses") and seq[-1] is not None:
                # a histogram's or an impulse's vertical from the bottom
                pts.extend((nx, ny * t / 20) for t in range(21))
        joined = s.style not in ("points", "dots", "impulses")
        for k, (a, b) in enumerate(zip(seq, seq[1:])):
            if not joined or a is None or b is None:
                continue
            if s.style == "segments" and k % 2 == 1:
                continue
            for t in range(1, 40):
                pts.append((a[0] + (b[0] - a[0]) * t / 40, a[1] + (b[1] - a[1]) * t / 40))
        if s.style == "band":  # the area between the edges too
            for k in range(len(s.x) - 1):
                if not (_finite(s.x[k], s.y[k], s.x[k + 1], s.y[k + 1])):
                    continue
                for t in range(0, 41):
                    f = t / 40
                    x = float(s.x[k]) + (float(s.x[k + 1]) - float(s.x[k])) * f
                    if fig.logx and float(s.x[k]) > 0 and float(s.x[k + 1]) > 0:
                        x = float(s.x[k]) * (float(s.x[k + 1]) / float(s.x[k])) ** f
                    y = float(s.y[k]) + (float(s.y[k + 1]) - float(s.y[k])) * f
                    h = _half(s, k) + (_half(s, k + 1) - _half(s, k)) * f
                    nx = _normalised(x, xlo, xhi, fig.logx)
                    for u in range(0, 11):
                        ny = _normalised(y - h + 2 * h * u / 10, ylo, yhi, fig.logy)
                        if nx is not None and ny is not None:
                            pts.append((nx, ny))
    return pts


#: The corners a key inside the plot may take, in the order tried.
CORNERS = ("top left", "top right", "bottom right", "bottom left")


def _key_hint(extra: list[str]) -> str | None:
    """The corner (or "below") an experiment asked for with its own `set key ...`."""
    for c in extra:
        words = c.split()
        if words[:2] == ["set", "key"]:
            if "below" in words or "bmargin" in words:
                return "below"
            v = "top" if "top" in words else "bottom" if "bottom" in words else None
            h = "left" if "left" in words else "right" if "right" in words else None
            if v and h:
                return f"{v} {h}"
    return None


def key_layout(fig: Figure, drawn: list[Series], plot_w_chars: float,
               plot_h_rows: float) -> tuple[list[str], int]:
    """The key's commands and the rows it takes below the plot (0 when inside).

    Inside, in the first corner (the experiment's own first) where a box of the key's size
    covers no data point and no line, when it takes at most KEY_MAX_W of the plot's width and
    KEY_MAX_H of its height; otherwise below the plot, in as many columns as the figure's width
    holds."""
    titles = [s.title for s in drawn if s.title]
    if not titles:
        return ["unset key"], 0
    longest = max(len(t) for t in titles)
    entry_w = longest + 8  # the sample line, the gaps
    w = entry_w / plot_w_chars
    h = (len(titles) + 1) / plot_h_rows
    hint = _key_hint(fig.extra)
    if hint != "below" and w <= KEY_MAX_W and h <= KEY_MAX_H:
        pts = _occupied(fig, drawn)
        order = ([hint] if hint in CORNERS else []) + [c for c in CORNERS if c != hint]
        for corner in order:
            v, hside = corner.split()
            x0, x1 = (0.0, w + 0.03) if hside == "left" else (1.0 - w - 0.03, 1.0)
            y0, y1 = (1.0 - h - 0.03, 1.0) if v == "top" else (0.0, h + 0.03)
            if not any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in pts):
                return [f"set key inside {corner} vertical Left reverse opaque box "
                        "samplen 3 spacing 1.1 width 1 noenhanced"], 0
    cols = max(1, min(len(titles), int(plot_w_chars // entry_w)))
    rows = math.ceil(len(titles) / cols)
    return [f"set key below center horizontal Left reverse maxcols {cols} box samplen 3 "
            "noenhanced"], rows


def script(fig: Figure, png: Path) -> str:
    """The gnuplot script of a figure, drawing into png."""
    # Band first (under everything), measured data last (its points over the curves).
    order = sorted(range(len(fig.series)),
                   key=lambda i: (fig.series[i].style != "band", _is_measured(fig.series[i])))
    drawn = [(i, fig.series[i]) for i in order if _rows(fig.series[i])]
    # One colour per group (a series without a group is a group of its own), in series order.
    groups: dict = {}
    for i, s in enumerate(fig.series):
        groups.setdefault(s.group if s.group is not None else ("#", i), len(groups))
    colour = {i: groups[s.group if s.group is not None else ("#", i)]
              for i, s in enumerate(fig.series)}
    # Point types: by colour, and apart within a group (a group's second series of points).
    rank: dict = {}
    point = {}
    for i, s in enumerate(fig.series):
        k = rank.setdefault(colour[i], 0)
        point[i] = colour[i] + 4 * k
        rank[colour[i]] = k + 1

    title_lines = [ln for part in str(fig.title).split("\n") for ln in _wrap(part, TITLE_CHARS)]
    sub_lines = _wrap(fig.subtitle, int(TITLE_CHARS * 1.2)) if fig.subtitle else []
    xs, ys = _values(fig, "x"), _values(fig, "y")
    xfmt, yfmt = tic_format(xs, fig.logx), tic_format(ys, fig.logy)
    own_xtics = any(c.strip().startswith("set xtics (") for c in fig.extra)
    own_ytics = any(c.strip().startswith("set ytics (") for c in fig.extra)
    ytic_w = 6 if own_ytics else _tic_chars(ys, yfmt)
    for c in fig.extra:  # named tics: their longest name
        if c.strip().startswith("set ytics ("):
            ytic_w = max([len(n) for n in re.findall(r'"([^"]*)"', c)] + [3])
    lmargin = ytic_w + 5  # tic labels, the rotated y label, gaps
    rmargin = 4
    tmargin = len(title_lines) + 0.9 * len(sub_lines) + 1.5
    plot_w = WIDTH / CHAR_W - lmargin - rmargin
    plot_h = HEIGHT / CHAR_H - tmargin - 4
    key, key_rows = key_layout(fig, [s for _, s in drawn], plot_w, plot_h)
    bmargin = 4 + (key_rows + 1.5 if key_rows else 0)

    title = "\\n".join(_enhanced_literal(t) for t in title_lines)
    if sub_lines:
        title += "\\n{/*0.85 " + "\\n".join(_enhanced_literal(t) for t in sub_lines) + "}"
    lines = [
        f"set terminal pngcairo size {WIDTH},{HEIGHT} enhanced font 'Sans,{FONT_PT}'",
        f'set output "{script_text(str(png))}"',
        f'set title "{title}"',
        f'set xlabel "{script_text(fig.xlabel)}" noenhanced',
        f'set ylabel "{script_text(fig.ylabel)}" noenhanced',
        f"set lmargin {lmargin:g}",
        f"set rmargin {rmargin:g}",
        f"set tmargin {tmargin:g}",
        f"set bmargin {bmargin:g}",
        "set grid",
    ]
    if not own_xtics:
        lines.append(f'set format x "{xfmt}"')
    if not own_ytics:
        lines.append(f'set format y "{yfmt}"')
    # A little room between the data and the frame (a point on the frame is half hidden):
    # at the sides, unless the x axis starts at zero (data from 0 or just above it), and at
    # the top.
    if not fig.xrange:
        near_zero = xs and 0 <= min(xs) <= 0.05 * (max(xs) - min(xs))
        side = "0" if (not fig.logx and near_zero) else "graph 0.02"
        lines.append(f"set offsets {side}, graph 0.02, graph 0.04, 0")
    if fig.logx:
        lines.append("set logscale x")
    if fig.logy:
        lines.append("set logscale y")
    if fig.xrange:
        lines.append("set xrange [%s:%s]" % tuple("" if v is None else v for v in fig.xrange))
    if fig.yrange:
        lines.append("set yrange [%s:%s]" % tuple("" if v is None else v for v in fig.yrange))
    # The experiment's own commands, except where it put the key (a hint to key_layout).
    lines.extend(c for c in fig.extra if not c.strip().startswith("set key"))
    lines.extend(key)
    if not drawn:
        lines.append('plot NaN title "no data"')
        return "\n".join(lines) + "\n"

    def entry(i, s):
        t = f"title \"{script_text(s.title)}\"" if s.title else "notitle"
        using = " using 1:2:3" if s.style == "band" else ""
        return f"'-'{using} {t} with {_with(s, colour[i], point[i])}"

    lines.append("plot " + ", \\\n     ".join(entry(i, s) for i, s in drawn))
    for _, s in drawn:
        lines.extend(_rows(s))
        lines.append("e")
    return "\n".join(lines) + "\n"


def layout_problems(text: str) -> list[str]:
    """What in a figure's gnuplot script breaks the layout rules of this module: the key outside
    on the right, margins left to gnuplot, a title line too long for the width or a top margin
    too small for the title's lines, an axis label without a unit (a parenthesised one, or the
    axis' own named tics), an axis with gnuplot's mixed default tic format."""
    problems = []
    cmds = [ln.strip() for ln in text.split("\nplot ", 1)[0].splitlines()]
    keys = [c for c in cmds if c.startswith("set key")]
    for k in keys:
        words = k.split()
        if ("outside" in words or "rmargin" in words) and not {"below", "above", "top",
                                                                  "bottom"} & set(words):
            problems.append(f"the key outside on the right: {k!r}")
        if "outside" in words and "right" in words:
            problems.append(f"the key outside on the right: {k!r}")
    if not keys and "unset key" not in cmds:
        problems.append("no key placement (gnuplot's default: top right, over the data)")
    margins = {}
    for side in ("l", "r", "t", "b"):
        m = [c for c in cmds if re.match(rf"set {side}margin\s+[0-9.]+$", c)]
        if not m:
            problems.append(f"{side}margin not set (gnuplot's own margin clipped labels)")
        else:
            margins[side] = float(m[-1].split()[-1])
    title = next((c for c in cmds if c.startswith("set title ")), None)
    if title:
        body = title[len("set title "):].strip().strip('"')
        parts = body.split("\\n")
        longest = max(len(re.sub(r"\{/\*[0-9.]+ |\}|\\\\", "", p)) for p in parts)
        if longest > TITLE_CHARS * 1.2:
            problems.append(f"a title line of {longest} characters (wider than the figure)")
        if "t" in margins and margins["t"] < len(parts) + 1:
            problems.append(f"tmargin {margins['t']:g} for a title of {len(parts)} lines")
    for axis in ("x", "y"):
        label = next((c for c in cmds if c.startswith(f"set {axis}label ")), None)
        named = any(c.startswith(f"set {axis}tics (") for c in cmds)
        text_ = re.match(r'set \wlabel "([^"]*)"', label).group(1) if label else ""
        if not named and not re.search(r"\([^()]*[^()\s][^()]*\)", text_):
            problems.append(f"the {axis} axis label has no unit: {text_!r}")
        if not named and not any(c.startswith(f"set format {axis} ") for c in cmds):
            problems.append(f"the {axis} axis' tic format is gnuplot's default (mixes 900000 "
                            "with 1.9x10^6)")
    bottom_key = [k for k in keys if "below" in k.split()]
    if bottom_key and "b" in margins:
        m = re.search(r"maxcols (\d+)", bottom_key[0])
        entries = len(re.findall(r"'-'(?: using \S+)? title ", text))
        rows = math.ceil(entries / int(m.group(1))) if m else entries
        if margins["b"] < 4 + rows:
            problems.append(f"bmargin {margins['b']:g} for a key of {rows} rows below the plot")
    return problems


def png_is_whole(path: Path) -> bool:
    """Whether a file is a whole PNG: the signature, then chunks whose lengths and CRCs hold, up
    to IEND at the file's end (gnuplot exits 0 when a full disk truncated its PNG)."""
    import struct
    import zlib

    try:
        data = Path(path).read_bytes()
    except OSError:
        return False
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return False
    pos = 8
    while pos + 12 <= len(data):
        (n,) = struct.unpack(">I", data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        end = pos + 12 + n
        if end > len(data):
            return False
        (crc,) = struct.unpack(">I", data[end - 4:end])
        if zlib.crc32(data[pos + 4:end - 4]) != crc:
            return False
        if kind == b"IEND":
            return end == len(data)
        pos = end
    return False


def draw(plt_text, outdir: Path, name: str, what: str = "figure") -> Path:
    """Write <outdir>/<name>.plt and draw <outdir>/<name>.png with gnuplot, each as a whole or
    not at all: the script and the PNG are drawn into temporaries beside them, the PNG checked
    whole (png_is_whole), then both renamed over the previous ones. A failure (a full disk)
    leaves the previous figure as it was, no temporary, and raises RuntimeError or OSError.
    ``plt_text(png_name)``: the script drawing into the PNG of that name (in outdir)."""
    import os
    import tempfile

    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    png = outdir / f"{name}.png"
    plt = outdir / f"{name}.plt"
    gnuplot = shutil.which("gnuplot")
    if gnuplot is None:
        raise RuntimeError("gnuplot is not installed (./testbed setup installs it)")
    fd, tmp_png = tempfile.mkstemp(dir=outdir, prefix=".tmp-", suffix=".png")
    os.close(fd)
    tmp_png = Path(tmp_png)
    fd, tmp_plt = tempfile.mkstemp(dir=outdir, prefix=".tmp-", suffix=".plt")
    os.close(fd)
    tmp_plt = Path(tmp_plt)
    try:
        tmp_plt.write_text(plt_text(tmp_png.name))
        proc = subprocess.run([gnuplot, tmp_plt.name], capture_output=True, text=True,
                              cwd=outdir)
        if proc.returncode != 0:
            raise RuntimeError(f"gnuplot failed on {plt}: {proc.stderr.strip()}")
        if not png_is_whole(tmp_png):
            raise RuntimeError(f"{png}: gnuplot wrote no whole PNG (a full disk?); the previous "
                               f"{what} is kept")
        atomic_write_text(plt, plt_text(png.name))
        os.chmod(tmp_png, 0o666 & ~_umask())
        os.replace(tmp_png, png)
    finally:
        tmp_png.unlink(missing_ok=True)
        tmp_plt.unlink(missing_ok=True)
    return png


def _umask() -> int:
    import os

    mask = os.umask(0)
    os.umask(mask)
    return mask


def render(fig: Figure, outdir: Path) -> Path:
    """Write <outdir>/<name>.plt and run gnuplot on it: <outdir>/<name>.png (both replaced as
    a whole or not at all: draw)."""
    name = _file_name(fig.name)
    # The script names the PNG without its folder (gnuplot runs in outdir): no path a user
    # typed (--out) enters the script.
    return draw(lambda png: script(fig, Path(png)), Path(outdir), name)

"""Lines of a hand-made layout cut into cells: labels, numbers (with a unit after them or glued
on), changes (`+3.2%`, `-18`, `x1.07`), and what never holds a result (stdev in parentheses).

Every pattern here is linear: tokens are found with `\\S+` and tested one at a time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache

from transforms.handmade.metrics import unit
from transforms.shell import OPTION

_NUMBER = re.compile(r"[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\.?|[-+]?\.\d+")
_RATIO = re.compile(r"[xX×](\d+(?:\.\d+)?)|(\d+(?:\.\d+)?)[xX×]")
_GLUED = re.compile(r"((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)([A-Za-zµ%/^][A-Za-z/µ%^0-9]{0,14})")
MISSING = frozenset({"-", "--", "---", "n/a", "na", "n.a.", "?", "*", "x", "fail", "failed", "err"})
_TOKEN = re.compile(r"\S+")
_SPREAD_SIGN = re.compile(r"^(?:\+/-|\+-|±)(?=[\d.])")
_GLUED_SPREAD = re.compile(r"^([-+]?\d[\d,]{0,20}(?:\.\d{1,12})?[A-Za-z/%]{0,8}?)(?:±|\+/-|\+-)\d")
_DURATION = re.compile(r"(0|[1-9]\d{0,2}):([0-5]\d(?:\.\d{1,3})?)m?")  # `00:04.1` is a PCI slot
# `about 5630 K IOPS`, `~ 12 MB/s`: a poster's hedge before a figure, no part of a label
HEDGES = ("approximately", "approx.", "approx", "around", "roughly", "about", "circa", "ca.")
HEDGE = "|".join(re.escape(w) for w in HEDGES)  # the words as a pattern (longest first)
_HEDGE = frozenset({*HEDGES, "~"})
_BOUND = re.compile(r"^[<>]=?\d+(?:\.\d+)?$")  # `<10`: a bound the tool printed, not a measurement
# `[63.04, 64.05]` after a mean: the interval around it, an aside as a deviation is
INTERVAL = r"\[[ \t]*+[-+]?\d[\d.]*+[ \t]*+,[ \t]*+[-+]?\d[\d.]*+[ \t]*+\]"
# separator lines: ====, ----, +----+, |---|---|, o----o----o (a box's corners drawn as `o`)
RULE = re.compile(r"^[\s=_+*~#|:.-]*+(?:o[-_=][\s=_+*~#|:.-]*+)*+o?$")


# `cdc_ncm.ko: TCP_RR: 740, UDP_RR: 750`, `On Skylake: jhash2: +10%, hsiphash +8%`: a label holding
# a value of its own and going on, a line of pairs rather than one label
PAIR_IN_LABEL = re.compile(r"[:=][ \t]{0,8}+[-+]?\d[\d.]{0,15}+%?[ \t]{0,4}+[,;]")
# `run 1`, `test2`, `iteration #3`, `#4:`: a label naming one run of several
ONE_RUN = re.compile(r"(?i)^(?:run|test|try|pass|iter(?:ation)?|round|#)[ \t]*+#?[ \t]*+(?P<n>\d{1,3}+)[ \t]*+:?$")


# a kernel release as a name (`6.7-rc1`, `5.11+fix`, `2.5.64-HTschedB3`)
RELEASE = re.compile(r"^v?[2-9]\.\d{1,2}(?:\.\d{1,3})?(?:[-+~_][\w.+~-]{1,30})?$")

@dataclass(slots=True)
class Cell:
    text: str
    start: int  # column where the cell begins
    end: int
    kind: str  # label | abs | chg | miss
    value: float | None = None
    unit: str | None = None


def number(tok: str) -> float | None:
    """A complete printed number (`137,214`, `150.`, `+1.93`), never a version or a date."""
    if not _NUMBER.fullmatch(tok):
        return None
    try:
        return float(tok.replace(",", "").rstrip("."))
    except ValueError:
        return None


# `0,88`, `26311,000`, `-1,31`: a number written with a decimal comma (much of Europe). Commas that
# cannot be thousands separators (one or two digits after them, a leading `0,`, four or more
# digits) tell that a block writes its decimals so; then every `a,b` of the block is `a.b`.
_COMMA_NUMBER = re.compile(r"(?<![\w.,])([-+]?\d{1,12}),(\d{1,12})(?![\w,]|\.\d)")
_NOT_THOUSANDS = re.compile(r"(?<![\w.,])[-+]?(?:0,\d{1,12}|\d{1,12},(?:\d{1,2}|\d{4,12}))(?![\w,]|\.\d)")
_POINT_DECIMAL = re.compile(r"(?<![\w.,])\d{1,12}\.\d{1,12}(?![\w.])")


def decimal_commas(lines: list[str]) -> list[str]:
    """The block's lines with decimal commas written as points, when the block writes its
    decimals with commas (and never with points); else the lines unchanged."""
    if not any("," in x and _NOT_THOUSANDS.search(x) for x in lines) or any(_POINT_DECIMAL.search(x) for x in lines):
        return lines
    return [_COMMA_NUMBER.sub(r"\1.\2", x) if "," in x else x for x in lines]


_PAREN_CHANGE = re.compile(r"^\([-+]\d[\d.,]*%?\)$|^\(\d[\d.,]*%\)$")  # (+3.2%), (-18), (4%)
# thousands, millions, billions of the metric's unit (`220 k`, `6.4 Million IOPS`)
_SCALE = {"k": "k", "K": "k", "M": "M", "G": "G", "thousand": "k", "million": "M", "Million": "M", "billion": "G",
          "Billion": "G"}
MULTIPLIER = {"k": Decimal(1000), "M": Decimal(1_000_000), "G": Decimal(1_000_000_000)}


def scaled(value: float, scale: str) -> float:
    """`553` at scale `k` as the count itself (553000), exactly."""
    return float(Decimal(str(value)) * MULTIPLIER[scale])


_COMPARE_MARKS = frozenset({"(R)", "(I)"})  # a regression, an improvement (mmtests' compare reports)
_COUNTS = frozenset({"IOPS", "ops/s", "trans/s", "events/s"})  # units whose thousands are written `553k`
_NUMERIC_START = frozenset("0123456789+-.(xX×")


def read_number(tok: str) -> tuple[str, float, str | None] | None:
    """(kind, value, unit) of one token, or None when it is no number.

    `+3.2%`, `-18%`, `(+1.2%)`, `x1.07`, `1.07x` are changes; a signed bare number is a change
    too (posters sign only deltas); `1234MB/s` carries its unit.
    """
    if tok[:1] == "~" and len(tok) > 1 and tok[1] in _NUMERIC_START:
        tok = tok[1:]  # `~1.2%`, `~10x`: about so much (the value as printed)
    if tok[:1] not in _NUMERIC_START or len(tok) > 40:
        return None
    if (clock := _DURATION.fullmatch(tok)) is not None and ("." in tok or tok.endswith("m")):
        # `7:14.9m`, `1:23.45`: minutes and seconds (a fraction or an `m`: never a time of day)
        return "abs", float(Decimal(clock.group(1)) * 60 + Decimal(clock.group(2))), "s"
    t = tok.strip(",;")
    paren = t.startswith("(") and t.endswith(")")
    if paren:
        t = t[1:-1]
    if t.endswith("%"):
        v = number(t[:-1])
        return ("chg", v, "%") if v is not None else None
    m = _RATIO.fullmatch(t)
    if m:
        return "chg", float(m.group(1) or m.group(2)), "x"
    v = number(t)
    if v is not None:
        return ("chg" if paren or t[0] in "+-" else "abs"), v, None
    if t[-1:] in _SCALE and len(t) > 1:
        v = number(t[:-1])
        if v is not None:  # `84k`, `1.2M`: kept as printed, the multiplier in the unit slot
            return ("chg" if t[0] in "+-" else "abs"), v, _SCALE[t[-1]]
    m = _GLUED.fullmatch(t)
    if m and not paren:
        u = unit(m.group(2))
        if u is not None:
            v = number(m.group(1))
            if v is not None:
                return ("chg" if u == "%" else "abs"), v, u
    return None


@lru_cache(maxsize=4096)
def cells(line: str) -> list[Cell]:
    """Cut one line: numbers are cells of their own, a unit right after a number joins it,
    words separated by single blanks form one label cell, a parenthesised aside after a number
    (`(stdev: 1.2 us)`, `(+-0.3)`) is dropped. Cached (tables and prose read the same lines):
    callers must not modify the cells."""
    out: list[Cell] = []
    toks: list[tuple[str, int, int]] = []
    starred = False
    glued: set[int] = set()  # tokens in parentheses glued to the number before them
    if (bare := line.rstrip()).endswith("^") and (kept := bare.rstrip("^")) != kept.rstrip():
        line = kept.rstrip()  # `... 13096.25 *   9.78%*   ^`: a mark the poster set beside a row
    for m in _TOKEN.finditer(line):
        tok, s0 = m.group(0), m.start()
        if tok.strip("*") == "":
            starred = tok == "*"
            continue  # mmtests marks significant changes with `*`
        if (starred or tok.startswith("*")) and tok.endswith("%*") and toks and toks[-1][0][:1].isdigit():
            starred = False
            continue  # `375.06 *  -0.68%*`, `45.86 *-105.52%*`: the change mmtests starred is an aside
        starred = False
        if tok.endswith("%*") or tok.endswith("*") and tok[:1].isdigit():
            tok = tok.rstrip("*")
        cut = tok.find("(")
        spread = _GLUED_SPREAD.match(tok)
        if spread is not None:  # `42382±19.8%`: the value; the spread glued to it is dropped
            toks.append((spread.group(1), s0, s0 + spread.end(1)))
        elif cut > 0 and tok[0].isdigit():  # `13.358(+/-` : the number, then its aside
            glued.add(len(toks) + 1)
            toks += [(tok[:cut], s0, s0 + cut), (tok[cut:], s0 + cut, m.end())]
        else:
            toks.append((tok, s0, m.end()))
    i = 0
    while i < len(toks):
        tok, s, e = toks[i]
        if tok in _COMPARE_MARKS and i + 1 < len(toks) and toks[i + 1][1] - e <= 2 \
                and (read := read_number(toks[i + 1][0])) is not None and read[2] == "%":
            i += 1  # `(R) 3.97%`, `(I) -12.13%`: mmtests' mark of a significant change, then the change
            continue
        if tok.startswith("(") and out and out[-1].kind in ("abs", "chg") and (not _PAREN_CHANGE.match(tok) or i in glued):
            # an aside after a number: skip to its closing parenthesis (at most 8 tokens); a change
            # glued to the number (`33.40(-0.03)`, as `11.70(0.34)`) is its aside too
            j = i
            while j < len(toks) and j < i + 8 and not toks[j][0].endswith(")"):
                if j + 1 < len(toks) and toks[j + 1][1] - toks[j][2] >= 3 and toks[j + 1][0][:1].isdigit() \
                        and any(c.isdigit() for t in toks[i:j + 1] for c in t[0]):
                    toks[j] = (toks[j][0] + ")", toks[j][1], toks[j][2])  # `(103.57 pct     260273.88`:
                    break  # its `)` lost, the aside ends at the wide gap before the next number
                j += 1
            if j < len(toks) and j < i + 8:
                i = j + 1
                continue
        if tok in ("+/-", "+-", "±") and out and out[-1].kind == "abs" and i + 1 < len(toks) \
                and read_number(toks[i + 1][0].rstrip("%")) is not None:
            i += 2  # `357.96 +/- 3.51`: the spread after a value is no value of its own
            if i < len(toks) and out[-1].unit is None and (nxt := unit(toks[i][0])) not in (None, "x", "%"):
                out[-1].unit, out[-1].end = nxt, toks[i][2]  # `1.2 ± 0.3 MB/s`: the value's unit
                i += 1
            continue
        if (sign := _SPREAD_SIGN.match(tok)) and out and out[-1].kind == "abs" \
                and read_number(tok[sign.end():].rstrip("%")) is not None:
            i += 1  # `1.579 +/-29.16%`, `±0.3`: the spread glued to its sign
            continue
        if OPTION.match(tok) and i + 1 < len(toks) and number(toks[i + 1][0]) is not None \
                and (not out or out[-1].kind == "label" and s - out[-1].end == 1) and toks[i + 1][1] - e == 1:
            # `./hackbench -g 8 -l 10000`, a row `-j 16   0.00%   +0.8%`: an option's argument is part
            # of the label (a number a wide gap after the option, `perf stat -a      107.887`, is the
            # row's value)
            arg = toks[i + 1]
            if out:
                out[-1].text += f" {tok} {arg[0]}"
                out[-1].end = arg[2]
            else:
                out.append(Cell(f"{tok} {arg[0]}", s, arg[2], "label"))
            i += 2
            continue
        read = read_number(tok)
        if read is not None:
            kind, value, u = read
            out.append(Cell(tok, s, e, kind, value, u))
            i += 1
            if u == "%" and tok[:1].isdigit() and i < len(toks) and toks[i][0].lower() == "cpu" \
                    and toks[i][1] - e == 1:
                out[-1].kind, out[-1].unit = "abs", "%CPU"  # `210.3% cpu`: a CPU share, no change
                out[-1].end = toks[i][2]
                i += 1
                continue
            set_apart = u is None and i < len(toks) and out[-1].kind == "abs" and toks[i][0] in _SCALE \
                and toks[i][1] - e <= 2
            if set_apart:
                out[-1].unit, out[-1].end = _SCALE[toks[i][0]], toks[i][2]  # `220 k`: the scale, set apart
                u = out[-1].unit
                i += 1
            if u in MULTIPLIER and i < len(toks) and out[-1].kind == "abs" and unit(toks[i][0]) in _COUNTS:
                c = out[-1]  # `553k iops`, `1100 K IOPS`: thousands of a count, as the count itself
                c.value, c.unit, c.end = scaled(c.value, u), unit(toks[i][0]), toks[i][2]
                i += 1
                continue
            if set_apart:
                continue
            if u is None and i < len(toks) and out[-1].kind == "abs":
                nxt = unit(toks[i][0])
                if nxt is not None and nxt != "x":
                    out[-1].unit = nxt
                    out[-1].end = toks[i][2]
                    out[-1].kind = "chg" if nxt == "%" else "abs"
                    i += 1
            continue
        if tok == "/" and out and out[-1].kind == "abs" and i + 1 < len(toks) and number(toks[i + 1][0]) is not None:
            i += 1  # `0.7419 / 0.4244`: two columns typed with a slash between them
            continue
        if tok.lower() in _HEDGE and i + 1 < len(toks) and read_number(toks[i + 1][0].lstrip("~")) is not None:
            i += 1  # `about 5630 K IOPS`, `~ 12 MB/s`: the poster's hedge, no part of a label
            continue
        if _BOUND.match(tok) and any(read_number(t[0]) is not None for t in toks[i + 1:i + 12]):
            out.append(Cell(tok, s, e, "miss"))  # it holds its column's place among the values
            i += 1
            continue
        if tok.lower() in MISSING and out and out[-1].kind in ("abs", "chg", "miss"):
            out.append(Cell(tok, s, e, "miss"))
            i += 1
            continue
        if out and out[-1].kind == "label" and s - out[-1].end == 1:
            out[-1].text += " " + tok
            out[-1].end = e
        else:
            out.append(Cell(tok, s, e, "label"))
        i += 1
    return out


def words(line: str) -> list[Cell]:
    """Every blank-separated token as a cell (headers typed with single blanks)."""
    return [Cell(m.group(0), m.start(), m.end(), "label") for m in _TOKEN.finditer(line)]


def split_wide(line: str) -> list[Cell]:
    """Cells separated by two or more blanks (headers with multi-word column names)."""
    out: list[Cell] = []
    for m in _TOKEN.finditer(line):
        if out and m.start() - out[-1].end < 2:
            out[-1].text += " " + m.group(0)
            out[-1].end = m.end()
        else:
            out.append(Cell(m.group(0), m.start(), m.end(), "label"))
    return out


def aligned(a: str, b: str) -> bool:
    """Two lines cut into the same columns (two or more, each starting where the other's does, or
    ending there: right-aligned numbers): rows of one table, however far apart."""
    ca, cb = split_wide(a), split_wide(b)
    return len(ca) == len(cb) >= 2 and all(abs(x.start - y.start) <= 1 or abs(x.end - y.end) <= 1
                                           for x, y in zip(ca, cb, strict=True))

"""A static check that a regular expression runs in linear time under Python's backtracking engine.

The engine backtracks through every way a pattern can match a string before it gives up, so a
pattern costs more than linear time exactly when some string can be matched in many ways and
then made to fail. In automaton terms: a pattern is exponential when one state can loop back to
itself along two different paths on the same word (EDA), and polynomial when two different
looping states p != q can each loop on a word w while p also reaches q on w (IDA): `\\s*\\s*x`,
`(a+)+`, `.*?\\s+`. A search (`re.search`, `finditer`, `sub`, ...) tries every start position, so
it is checked as if prefixed by a lazy `[\\s\\S]*?`; that loop catches `\\s*x` searched over a long
run of blanks.

The check builds a Thompson automaton from the `re._parser` parse tree over a small alphabet of
representative characters (those the pattern names, plus blanks, letters, digits and a few
others), with anchors, word boundaries, single-character lookarounds and possessive loops as
guards on the previous and next character. Bounded repeats are cut to a few copies: they can
cost a constant factor, never a higher degree. A state from which the pattern ends with no
further condition counts as a success and is not explored: the engine stops there.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

try:  # Python 3.11+
    import re._constants as C
    import re._parser as P
except ImportError:  # pragma: no cover
    import sre_constants as C  # type: ignore[no-redef]
    import sre_parse as P  # type: ignore[no-redef]

BOS = -1  # "previous character" before the first one
END = -2  # "next character" after the last one
_REPEAT_CAP = 3  # copies kept of a bounded repeat's body
_NODE_CAP = 200_000  # product states explored per question before giving up

_FIXED_REPS = " \t\n\r\x0b\x0c\xa0\u2028azAZ09_-.,:;/()[]%+*=<>#@!?'\"~\x00\xe9\u0660\u4e00"

Guard = Callable[[int, int], bool]


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str  # "exponential", "polynomial", "empty-loop", "too-complex"
    detail: str


def _is_word(code: int) -> bool:
    if code < 0:
        return False
    ch = chr(code)
    return ch.isalnum() or ch == "_"


def _category(cat, code: int, ascii_only: bool) -> bool:
    ch = chr(code)
    if ascii_only and code > 127 and cat in (C.CATEGORY_DIGIT, C.CATEGORY_SPACE, C.CATEGORY_WORD):
        return False
    if ascii_only and code > 127:
        return cat in (C.CATEGORY_NOT_DIGIT, C.CATEGORY_NOT_SPACE, C.CATEGORY_NOT_WORD)
    table = {
        C.CATEGORY_DIGIT: lambda: ch.isdecimal(),
        C.CATEGORY_NOT_DIGIT: lambda: not ch.isdecimal(),
        C.CATEGORY_SPACE: lambda: ch.isspace(),
        C.CATEGORY_NOT_SPACE: lambda: not ch.isspace(),
        C.CATEGORY_WORD: lambda: ch.isalnum() or ch == "_",
        C.CATEGORY_NOT_WORD: lambda: not (ch.isalnum() or ch == "_"),
    }
    return table[cat]()


def _variants(code: int, icase: bool) -> set[int]:
    if not icase:
        return {code}
    ch = chr(code)
    return {code} | {ord(c) for c in (ch.lower(), ch.upper(), ch.swapcase()) if len(c) == 1}


class _Automaton:
    """Thompson automaton over representative characters; guards sit on epsilon edges."""

    def __init__(self, pattern: re.Pattern, tree=None, flags: int | None = None) -> None:
        self.pattern = pattern
        if tree is None:
            tree = P.parse(pattern.pattern, pattern.flags)
            flags = tree.state.flags
        self.flags = flags
        self.reps = self._representatives(tree)
        self.eps: list[list[tuple[int, Guard | None]]] = []
        self.chars: list[list[tuple[frozenset[int], int]]] = []
        self._sets: list[frozenset[int]] = []
        self.start = self._new()
        self.final = self._build(tree, self.start, self.flags)
        self.reps = self._classes()

    def _classes(self) -> tuple[int, ...]:
        """One representative per class of characters no set or guard of the pattern tells apart."""
        kept: dict[tuple, int] = {}
        for c in self.reps:
            sig = (c == 10, _is_word(c), *(c in s for s in self._sets))
            kept.setdefault(sig, c)
        return tuple(sorted(kept.values()))

    # --- alphabet -----------------------------------------------------------------------------

    def _representatives(self, tree) -> tuple[int, ...]:
        codes = {ord(c) for c in _FIXED_REPS}

        def walk(items):
            for op, av in items:
                if op in (C.LITERAL, C.NOT_LITERAL):
                    codes.add(av)
                elif op is C.RANGE:
                    codes.update((av[0], av[1]))
                elif op is C.IN:
                    walk(av)
                elif op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
                    walk(av[2])
                elif op is C.SUBPATTERN:
                    walk(av[3])
                elif op is C.ATOMIC_GROUP:
                    walk(av)
                elif op in (C.ASSERT, C.ASSERT_NOT):
                    walk(av[1])
                elif op is C.BRANCH:
                    for alt in av[1]:
                        walk(alt)
                elif op is C.GROUPREF_EXISTS:
                    walk(av[1])
                    if av[2] is not None:
                        walk(av[2])

        walk(tree)
        more = set()
        for c in codes:
            more |= _variants(c, True)
        return tuple(sorted(c for c in codes | more if c < 0x110000))

    def _charset(self, op, av, flags: int) -> frozenset[int]:
        cs = self._charset_of(op, av, flags)
        self._sets.append(cs)
        return cs

    def _charset_of(self, op, av, flags: int) -> frozenset[int]:
        icase = bool(flags & re.I)
        ascii_only = bool(flags & re.A) or isinstance(self.pattern.pattern, bytes)
        if op is C.LITERAL:
            want = _variants(av, icase)
            return frozenset(c for c in self.reps if c in want)
        if op is C.NOT_LITERAL:
            want = _variants(av, icase)
            return frozenset(c for c in self.reps if c not in want)
        if op is C.ANY:
            dotall = bool(flags & re.S)
            return frozenset(c for c in self.reps if dotall or c != 10)
        assert op is C.IN
        negate = bool(av) and av[0][0] is C.NEGATE
        items = av[1:] if negate else av

        def member(code: int) -> bool:
            for it_op, it_av in items:
                for v in _variants(code, icase):
                    if it_op is C.LITERAL and v == it_av:
                        return True
                    if it_op is C.RANGE and it_av[0] <= v <= it_av[1]:
                        return True
                    if it_op is C.CATEGORY and _category(it_av, v, ascii_only):
                        return True
            return False

        return frozenset(c for c in self.reps if member(c) != negate)

    # --- construction -------------------------------------------------------------------------

    def _new(self) -> int:
        self.eps.append([])
        self.chars.append([])
        return len(self.eps) - 1

    def _e(self, a: int, b: int, guard: Guard | None = None) -> None:
        self.eps[a].append((b, guard))

    @staticmethod
    def _single(items) -> tuple | None:
        """The one character item a subpattern consists of, if that is all it is."""
        items = list(items)
        while len(items) == 1 and items[0][0] is C.SUBPATTERN:
            items = list(items[0][1][3])
        if len(items) == 1 and items[0][0] in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            return items[0]
        return None

    def _build(self, items, cur: int, flags: int) -> int:
        for op, av in items:
            cur = self._item(op, av, cur, flags)
        return cur

    def _item(self, op, av, cur: int, flags: int) -> int:
        if op in (C.LITERAL, C.NOT_LITERAL, C.ANY, C.IN):
            nxt = self._new()
            self.chars[cur].append((self._charset(op, av, flags), nxt))
            return nxt
        if op is C.SUBPATTERN:
            _group, add, dele, body = av
            return self._build(body, cur, (flags | add) & ~dele)
        if op is C.BRANCH:
            end = self._new()
            for alt in av[1]:
                s = self._new()
                self._e(cur, s)
                self._e(self._build(alt, s, flags), end)
            return end
        if op is C.GROUPREF_EXISTS:
            end = self._new()
            for alt in (av[1], av[2] or []):
                s = self._new()
                self._e(cur, s)
                self._e(self._build(alt, s, flags), end)
            return end
        if op in (C.MAX_REPEAT, C.MIN_REPEAT, C.POSSESSIVE_REPEAT):
            return self._repeat(op, av, cur, flags)
        if op is C.ATOMIC_GROUP:
            body = list(av)
            if len(body) == 1 and body[0][0] in (C.MAX_REPEAT, C.POSSESSIVE_REPEAT):
                return self._repeat(C.POSSESSIVE_REPEAT, body[0][1], cur, flags)
            return self._build(body, cur, flags)
        if op is C.AT:
            nxt = self._new()
            self._e(cur, nxt, self._at(av, flags))
            return nxt
        if op in (C.ASSERT, C.ASSERT_NOT):
            nxt = self._new()
            self._e(cur, nxt, self._look(op is C.ASSERT_NOT, av[0], av[1], flags))
            return nxt
        if op is C.GROUPREF:  # any text: a loop on every character
            loop = self._new()
            self._e(cur, loop)
            self.chars[loop].append((frozenset(self.reps), loop))
            return loop
        raise ValueError(f"unhandled regex op {op}")

    def _repeat(self, op, av, cur: int, flags: int) -> int:
        lo, hi, body = av
        unbounded = hi is C.MAXREPEAT
        keep = min(lo, _REPEAT_CAP)
        for _ in range(keep):
            cur = self._build(body, cur, flags)
        if unbounded:
            loop = self._new()
            self._e(cur, loop)
            s = self._new()
            self._e(loop, s)
            self._e(self._build(body, s, flags), loop)
            out = self._new()
            single = self._single(body)
            if op is C.POSSESSIVE_REPEAT and single is not None:
                cs = self._charset(*single, flags)
                self._e(loop, out, lambda prev, nxt, cs=cs: nxt not in cs)
            else:
                self._e(loop, out)
            return out
        # x{0,3} nests as (x(x(x)?)?)?: a count matches k copies in one way only
        out = self._new()
        for _ in range(max(min(hi, keep + _REPEAT_CAP) - keep, 0)):
            self._e(cur, out)
            s = self._new()
            self._e(cur, s)
            cur = self._build(body, s, flags)
        self._e(cur, out)
        return out

    def _at(self, code, flags: int) -> Guard:
        multiline = bool(flags & re.M)
        if code is C.AT_BEGINNING:
            return (lambda prev, nxt: prev in (BOS, 10)) if multiline else (lambda prev, nxt: prev == BOS)
        if code is C.AT_BEGINNING_STRING:
            return lambda prev, nxt: prev == BOS
        if code is C.AT_END:  # without MULTILINE it also matches before a final newline: not modelled
            return (lambda prev, nxt: nxt in (END, 10)) if multiline else (lambda prev, nxt: nxt == END)
        if code is C.AT_END_STRING:
            return lambda prev, nxt: nxt == END
        if code is C.AT_BOUNDARY:
            return lambda prev, nxt: _is_word(prev) != _is_word(nxt)
        if code is C.AT_NON_BOUNDARY:
            return lambda prev, nxt: _is_word(prev) == _is_word(nxt)
        return lambda prev, nxt: True

    def _look(self, negative: bool, direction: int, body, flags: int) -> Guard:
        body = list(body)
        if direction == 1:
            item = self._single(body)
            if item is None and body and not negative:
                item = self._single(body[:1])
        else:
            item = self._single(body) or (self._single(body[-1:]) if body and not negative else None)
        if item is None:
            return lambda prev, nxt: True
        cs = self._charset(*item, flags)
        # a lookahead tests the character after the position, a lookbehind the one before it
        if direction == 1:
            if negative:
                return lambda prev, nxt, cs=cs: nxt not in cs
            return lambda prev, nxt, cs=cs: nxt in cs
        if negative:
            return lambda prev, nxt, cs=cs: prev not in cs
        return lambda prev, nxt, cs=cs: prev in cs


class _Analysis:
    """The automaton's steps between consuming states, and the ambiguity questions on them."""

    def __init__(self, auto: _Automaton, search: bool, full: bool) -> None:
        self.a = auto
        self.full = full
        self.search = search
        self.findings: list[Finding] = []
        self._steps: dict[tuple[int, int, int], list[int]] = {}
        self._moves: dict[tuple[int, int], dict[int, frozenset[int]]] = {}
        self.safe = self._safe_states()
        self.safe_nodes: set[tuple[int, int]] = set()

    def _safe_states(self) -> set[int]:
        """States that reach the end with no condition: the engine succeeds there."""
        if self.full:
            return set()
        rev: dict[int, list[int]] = {}
        for s, edges in enumerate(self.a.eps):
            for t, g in edges:
                if g is None:
                    rev.setdefault(t, []).append(s)
        safe, todo = {self.a.final}, [self.a.final]
        while todo:
            for s in rev.get(todo.pop(), ()):
                if s not in safe:
                    safe.add(s)
                    todo.append(s)
        return safe

    def step(self, p: int, prev: int, nxt: int) -> list[int]:
        """Landing states after `nxt` from p, one entry per distinct path (multiplicity kept)."""
        key = (p, prev, nxt)
        got = self._steps.get(key)
        if got is not None:
            return got
        out: list[int] = []
        if self.search and p == -1:  # the search loop: stay, or enter the pattern
            out.append(-1)
            out += self.step(self.a.start, prev, nxt)
            self._steps[key] = out
            return out
        stack: list[tuple[int, frozenset[int]]] = [(p, frozenset((p,)))]
        while stack:
            s, path = stack.pop()
            for cs, t in self.a.chars[s]:
                if nxt in cs:
                    out.append(t)
            for t, g in self.a.eps[s]:
                if g is not None and not g(prev, nxt):
                    continue
                if t in path:
                    self._empty_loop()
                    continue
                stack.append((t, path | {t}))
        self._steps[key] = out
        return out

    def moves(self, p: int, prev: int) -> dict[int, frozenset[int]]:
        """Character -> distinct landing states from p (characters with none left out)."""
        key = (p, prev)
        got = self._moves.get(key)
        if got is None:
            got = {}
            for c in self.a.reps:
                ts = self.step(p, prev, c)
                if ts:
                    got[c] = frozenset(ts)
            self._moves[key] = got
        return got

    def _empty_loop(self) -> None:
        f = Finding("empty-loop", "a repeated group can match the empty string")
        if f not in self.findings:
            self.findings.append(f)

    def begin(self) -> int:
        return -1 if self.search else self.a.start

    def nodes(self) -> dict[tuple[int, int], list[tuple[int, int, int]]]:
        """Reachable (state, previous char) nodes and their edges (char, target state, multiplicity index)."""
        reps = self.a.reps
        graph: dict[tuple[int, int], list[tuple[int, int, int]]] = {}
        todo = [(self.begin(), BOS)]
        while todo:
            node = todo.pop()
            if node in graph:
                continue
            edges: list[tuple[int, int, int]] = []
            graph[node] = edges
            if node[0] in self.safe:
                continue
            for c in reps:
                for i, t in enumerate(self.step(node[0], node[1], c)):
                    edges.append((c, t, i))
                    if (t, c) not in graph:
                        todo.append((t, c))
            if len(graph) > _NODE_CAP:
                self.findings.append(Finding("too-complex", "automaton too large to check"))
                break
        return graph

    def accepts(self, p: int, prev: int, nxt: int) -> bool:
        """Whether the pattern ends at p before `nxt` (a character or END)."""
        seen, stack = {p}, [p]
        while stack:
            s = stack.pop()
            if s == self.a.final:
                return True
            for t, g in self.a.eps[s]:
                if t not in seen and (g is None or g(prev, nxt)):
                    seen.add(t)
                    stack.append(t)
        return False

    def _universal(self, graph) -> set[tuple[int, int]]:
        r"""Nodes from which every continuation of the text succeeds.

        The engine tries every path before it fails, so this is asked of the set of states the
        text can reach (a subset construction), not of each state alone: `(?:\s+\S+)*\s*$` ends
        well on any text although no single one of its states does.
        """
        succ: dict[tuple[frozenset[int], int], list[tuple[frozenset[int], int]]] = {}
        bad: set[tuple[frozenset[int], int]] = set()
        todo = [(frozenset((p,)), prev) for (p, prev) in graph if p != -1]
        while todo and len(succ) < _NODE_CAP // 10:
            node = todo.pop()
            if node in succ:
                continue
            states, prev = node
            out: list[tuple[frozenset[int], int]] = []
            succ[node] = out
            if not any(self.accepts(x, prev, END) for x in states):
                bad.add(node)
                continue
            for c in self.a.reps:
                if any(self.accepts(x, prev, c) for x in states):
                    continue
                nxt = frozenset(t for x in states for t in self.step(x, prev, c))
                if not nxt:
                    bad.add(node)
                    break
                out.append((nxt, c))
                if (nxt, c) not in succ:
                    todo.append((nxt, c))
        if todo:  # too many subsets: claim nothing
            return set()
        pred: dict[tuple[frozenset[int], int], list[tuple[frozenset[int], int]]] = {}
        for node, out in succ.items():
            for m in out:
                pred.setdefault(m, []).append(node)
        stack = list(bad)
        while stack:
            for m in pred.get(stack.pop(), ()):
                if m not in bad:
                    bad.add(m)
                    stack.append(m)
        return {(p, prev) for (p, prev) in graph if p != -1 and (frozenset((p,)), prev) not in bad}

    def run(self) -> list[Finding]:
        graph = self.nodes()
        if self.findings:
            return self.findings
        if not self.full:
            done = self._universal(graph)
            self.safe_nodes = done
            graph = {n: ([] if n in done else e) for n, e in graph.items()}
        self._exponential(graph)
        if not self.findings:
            self._polynomial(graph)
        return self.findings

    def _pair_edges(self, node, graph) -> Iterator[tuple[tuple, bool]]:
        p, q, prev = node
        if p in self.safe or q in self.safe or (p, prev) in self.safe_nodes or (q, prev) in self.safe_nodes:
            return
        for c in self.a.reps:
            a = self.step(p, prev, c)
            if not a:
                continue
            b = self.step(q, prev, c)
            for i, u in enumerate(a):
                for j, v in enumerate(b):
                    yield (u, v, c), (p == q and u == v and i != j)

    def _exponential(self, graph) -> None:
        """Two different paths from one state back to itself on the same word."""
        starts = [(p, p, prev) for (p, prev) in graph if p not in self.safe and graph[(p, prev)]]
        adj: dict[tuple, list[tuple]] = {}
        split: list[tuple[tuple, tuple]] = []
        todo = list(starts)
        while todo:
            n = todo.pop()
            if n in adj:
                continue
            adj[n] = []
            for m, diverge in self._pair_edges(n, graph):
                adj[n].append(m)
                if diverge:
                    split.append((n, m))
                if m not in adj:
                    todo.append(m)
            if len(adj) > _NODE_CAP:
                self.findings.append(Finding("too-complex", "pair automaton too large to check"))
                return
        comp = _scc(adj)
        by_comp: dict[int, list[tuple]] = {}
        for n, k in comp.items():
            by_comp.setdefault(k, []).append(n)
        for members in by_comp.values():
            if len(members) < 2:
                continue
            diag = [n for n in members if n[0] == n[1]]
            off = [n for n in members if n[0] != n[1]]
            if diag and off:
                self.findings.append(
                    Finding("exponential", f"two paths loop on the same text through {_show(self.a, off[0])}")
                )
                return
        for n, m in split:
            if comp[n] == comp[m]:
                self.findings.append(Finding("exponential", "a loop can be entered two ways on the same text"))
                return

    def _polynomial(self, graph) -> None:
        """Loops p != q with p->p, p->q, q->q on one word: the engine tries every split point."""
        comp = _scc({n: [(t, c) for c, t, _ in e] for n, e in graph.items()})
        size: dict[int, int] = {}
        for k in comp.values():
            size[k] = size.get(k, 0) + 1
        cyclic = {k for k, n in size.items() if n > 1}
        for n, edges in graph.items():
            if any((t, c) == n for c, t, _ in edges):
                cyclic.add(comp[n])
        looping = [n for n in graph if comp[n] in cyclic and n[0] not in self.safe and graph[n]]
        prevs: dict[int, set[int]] = {}
        for n in looping:
            prevs.setdefault(n[0], set()).add(n[1])
        below = _comp_reach(graph, comp)
        pairs: dict[tuple[int, int], set[int]] = {}
        for pn in looping:
            for qn in looping:
                if (
                    qn[0] != pn[0]
                    and comp[qn] != comp[pn]
                    and below[comp[pn]] >> comp[qn] & 1
                    and pn[1] in prevs.get(qn[0], ())
                ):
                    pairs.setdefault((pn[0], qn[0]), set()).add(pn[1])
        back: dict[int, set[int]] = {}
        for (a, _pa), edges in graph.items():
            for _c, t, _i in edges:
                back.setdefault(t, set()).add(a)
        self._reaches: dict[int, set[int]] = {}

        def reaching(target: int) -> set[int]:
            got = self._reaches.get(target)
            if got is None:
                got, todo = {target}, [target]
                while todo:
                    for a in back.get(todo.pop(), ()):
                        if a not in got:
                            got.add(a)
                            todo.append(a)
                self._reaches[target] = got
            return got

        self._reaching = reaching
        for (p, q), starts in pairs.items():
            if self._triple(p, q, starts):
                self.findings.append(Finding("polynomial", f"overlapping loops: {_show(self.a, (p, q))}"))
                return
            if self.findings:
                return

    def _triple(self, p: int, q: int, starts: set[int]) -> bool:
        """Whether some word w loops p->p, leads p->q and loops q->q (pumped: w ends as it began)."""
        todo = [(p, p, q, prev, prev) for prev in starts]
        seen = set(todo)
        to_p, to_q = self._reaching(p), self._reaching(q)
        while todo:
            x, y, z, pv, first = todo.pop()
            if x not in to_p or y not in to_q or z not in to_q:
                continue
            if x in self.safe or y in self.safe or z in self.safe:
                continue
            if {(x, pv), (y, pv), (z, pv)} & self.safe_nodes:
                continue
            tx, ty, tz = self.moves(x, pv), self.moves(y, pv), self.moves(z, pv)
            for c in tx.keys() & ty.keys() & tz.keys():
                for u in tx[c]:
                    for v in ty[c]:
                        for w in tz[c]:
                            if u == p and v == q and w == q and c == first:
                                return True
                            n = (u, v, w, c, first)
                            if n not in seen:
                                seen.add(n)
                                todo.append(n)
            if len(seen) > _NODE_CAP:
                self.findings.append(Finding("too-complex", "triple automaton too large to check"))
                return False
        return False


def _comp_reach(graph, comp: dict) -> dict[int, int]:
    """For each component, a bit mask of the components reachable from it (itself included)."""
    succ: dict[int, set[int]] = {}
    for n, edges in graph.items():
        succ.setdefault(comp[n], set()).update(comp[(t, c)] for c, t, _ in edges if (t, c) in comp)
    memo: dict[int, int] = {}

    def mask(k: int) -> int:
        stack = [k]
        while stack:
            top = stack[-1]
            if top in memo:
                stack.pop()
                continue
            todo = [c for c in succ.get(top, ()) if c not in memo and c != top]
            if todo:
                stack.extend(todo)
                continue
            m = 1 << top
            for c in succ.get(top, ()):
                if c != top:
                    m |= memo[c]
            memo[top] = m
            stack.pop()
        return memo[k]

    return {k: mask(k) for k in set(comp.values())}


def _show(auto: _Automaton, states) -> str:
    return f"states {states[0]}/{states[1]} of {auto.pattern.pattern!r}"[:200]


def _scc(adj: dict) -> dict:
    """Tarjan's strongly connected components, iterative: node -> component id."""
    index: dict = {}
    low: dict = {}
    comp: dict = {}
    stack: list = []
    on: set = set()
    counter = 0
    for root in adj:
        if root in index:
            continue
        work = [(root, iter(adj.get(root, ())))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(adj.get(w, ()))))
                    advanced = True
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp[w] = index[v]
                    if w == v:
                        break
    return comp


def _alternatives(tree, flags: int):
    """A top-level alternation's branches: the engine tries them one after another, so their
    costs add up and each can be checked alone."""
    items = list(tree)
    while len(items) == 1 and items[0][0] is C.SUBPATTERN:
        _group, add, dele, body = items[0][1]
        flags = (flags | add) & ~dele
        items = list(body)
    if len(items) == 1 and items[0][0] is C.BRANCH:
        for alt in items[0][1][1]:
            yield from _alternatives(alt, flags)
    else:
        yield items, flags


def check(pattern: re.Pattern, mode: str = "search") -> list[Finding]:
    """Findings for `pattern` used as `mode`: "search" (any start), "match" or "fullmatch"."""
    tree = P.parse(pattern.pattern, pattern.flags)
    findings: list[Finding] = []
    for items, flags in _alternatives(tree, tree.state.flags):
        auto = _Automaton(pattern, items, flags)
        if mode == "fullmatch":
            end = auto._new()
            auto._e(auto.final, end, lambda prev, nxt: nxt == END)
            auto.final = end
        findings += _Analysis(auto, search=mode == "search", full=mode == "fullmatch").run()
        if findings:
            break
    return findings

"""Invisible and format code points: which ones are smuggling, which ones are ordinary writing.

Runs on the *raw* text, before any normalisation (NFKC and stripping destroy the evidence).
Blanket bans (llm-guard's "reject every Cf/Co/Cn") flag every ZWJ emoji, Persian ZWNJ and Hebrew
RLM, so each carrier gets the narrow context in which real writing uses it (threats.md §5.3):

* ZWJ between emoji components, or after a letter of a complex script (Indic, Arabic, Sinhala…).
* ZWNJ next to an Arabic-script or Indic letter (Persian orthography).
* ZWSP between two letters of a script written without spaces (Thai, Lao, Khmer, Myanmar).
* LRM/RLM/ALM and the isolates only when the text has RTL letters, isolates balanced.
* TAG characters only as a UTS #51 emoji tag sequence (the subdivision flags 🏴…).
* One variation selector after a visible base; an ideographic VS only after a CJK ideograph.
* A BOM only at position 0. Soft hyphens are stripped by normalisation, not reported.

Everything else in the suspect set is reported. A TAG or VS *run* is reported once (its first
code point) and its hidden payload is decoded so the pattern rules can scan it too; so is a
zero-width binary run.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from pi_memory.security.lazy_re import compile_lazily

#: The 17 code points pi-memory and hermes block (pi-memory §4.4); kept for API compatibility.
INVISIBLE_CHARS: frozenset[str] = frozenset(
    "\u200b\u200c\u200d\u2060\u2062\u2063\u2064\ufeff"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)

_SUSPECT = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ue000-\uf8ff\ufdd0-\ufdef\ufe00-\ufe0f"
    "\ufeff\uffa0\ufff0-\ufffb\ufffe\uffff\U0001bca0-\U0001bca3\U0001d173-\U0001d17a"
    "\U0001fffe\U0001ffff\U000e0000-\U000e0fff\U000f0000-\U0010ffff]"
)
_SUSPECT_RUN = compile_lazily(_SUSPECT.pattern + "+")
_RTL = compile_lazily("[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\U00010800-\U00010fff\U0001e800-\U0001efff]")
_TAG_RUN = re.compile("[\U000e0000-\U000e007f]+")
_FLAG_TAGS = re.compile("[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,7}\U000e007f")
_VS_RUN = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]+")
_ZW_RUN_MIN = 8
_ZW_RUN = re.compile(f"[\u200b\u200c\u200d]{{{_ZW_RUN_MIN},}}")
_ISOLATE = re.compile("[\u2066-\u2069]")

_BLACK_FLAG = "\U0001f3f4"


class _Ranges:
    """Inclusive code-point ranges, tested by one bisection instead of a walk over every pair:
    each zero-width joiner of an emoji sequence tests up to three sets of up to 14 ranges."""

    def __init__(self, *pairs: tuple[int, int]) -> None:
        merged: list[list[int]] = []
        for lo, hi in sorted(pairs):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], hi)
            else:
                merged.append([lo, hi])
        self._lows = [lo for lo, _ in merged]
        self._highs = [hi for _, hi in merged]

    def __contains__(self, cp: int) -> bool:
        j = bisect_right(self._lows, cp) - 1
        return j >= 0 and cp <= self._highs[j]


# Extended_Pictographic is not exposed by ``unicodedata``; these blocks cover it closely.
_EMOJI = _Ranges(
    (0x00A9, 0x00A9), (0x00AE, 0x00AE), (0x203C, 0x2049), (0x2122, 0x2139), (0x2190, 0x21FF),
    (0x2300, 0x23FF), (0x24C2, 0x24C2), (0x25A0, 0x27BF), (0x2900, 0x297F), (0x2B00, 0x2BFF),
    (0x3030, 0x303D), (0x3297, 0x3299), (0x1F000, 0x1FAFF), (0x1FC00, 0x1FFFD))
_EMOJI_JOINABLE = _Ranges((0x1F3FB, 0x1F3FF), (0xFE0F, 0xFE0F), (0x20E3, 0x20E3))
# Scripts whose shaping uses ZWJ/ZWNJ: Arabic, Syriac, Thaana, NKo, Indic, Sinhala, Myanmar,
# Khmer, Mongolian and the Arabic presentation forms.
_COMPLEX = _Ranges(
    (0x0600, 0x08FF), (0x0900, 0x0DFF), (0x1000, 0x109F), (0x1780, 0x18AF), (0xA8E0, 0xA8FF),
    (0xFB50, 0xFDFF), (0xFE70, 0xFEFC), (0x11000, 0x111FF))
_NO_SPACE_SCRIPTS = _Ranges((0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF))
_CJK = _Ranges((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3FFFF))
_MONGOLIAN = _Ranges((0x1800, 0x18AF))


@dataclass(frozen=True)
class CodePointFinding:
    """One flagged code point (or smuggling run) in the raw text."""

    code_point: int
    sub_id: str
    start: int
    end: int

    @property
    def id(self) -> str:
        return f"invisible_unicode_U+{self.code_point:04X}"


@dataclass
class UnicodeReport:
    """Flagged code points in order of first appearance, plus decoded hidden payloads."""

    findings: list[CodePointFinding] = field(default_factory=list)
    payloads: list[tuple[str, str]] = field(default_factory=list)  # (view name, decoded text)
    #: Some suspect code point occurs, allowed or not. Without one (and without a soft hyphen)
    #: the text holds nothing ``normalize.fold`` strips, so the fold can skip that pass.
    suspect: bool = False


def inspect(text: str) -> UnicodeReport:
    """Classify every suspect code point of ``text`` (see the module docstring)."""
    report = UnicodeReport()
    first = _SUSPECT.search(text)
    if first is None:
        return report
    report.suspect = True
    ctx = _Context(text)
    seen: set[int] = set()
    longest = 0
    for run in _SUSPECT_RUN.finditer(text, first.start()):  # nothing suspect before the first
        i, stop = run.span()
        longest = max(longest, stop - i)
        while i < stop:
            cp = ord(text[i])
            sub, end = ctx.classify(i, cp)
            if sub is not None and cp not in seen:
                seen.add(cp)
                report.findings.append(CodePointFinding(cp, sub, i, end))
            i = max(i + 1, end)
    report.payloads.extend(ctx.payloads)
    # A zero-width binary run is a run of suspect code points, so no long suspect run, no scan.
    for zw in _ZW_RUN.finditer(text) if longest >= _ZW_RUN_MIN else ():
        decoded = _decode_zero_width(zw.group())
        if decoded:
            report.payloads.append(("zw_payload", decoded))
    return report


class _Context:
    """Per-text facts the allow rules need, computed lazily once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._rtl: bool | None = None
        self._balanced: bool | None = None
        self.payloads: list[tuple[str, str]] = []

    @property
    def rtl(self) -> bool:
        if self._rtl is None:
            self._rtl = _RTL.search(self.text) is not None
        return self._rtl

    @property
    def isolates_balanced(self) -> bool:
        if self._balanced is None:
            depth = 0
            ok = True
            for m in _ISOLATE.finditer(self.text):  # only the isolate code points, not every character
                if m.group() != "\u2069":
                    depth += 1
                else:
                    depth -= 1
                    if depth < 0:
                        ok = False
                        break
            self._balanced = ok and depth == 0
        return self._balanced

    def _cp(self, i: int) -> int:
        return ord(self.text[i]) if 0 <= i < len(self.text) else -1

    def classify(self, i: int, cp: int) -> tuple[str | None, int]:
        """``(sub_id, end)``: ``sub_id`` is ``None`` when allowed here; ``end > i + 1`` for a run."""
        prev, nxt = self._cp(i - 1), self._cp(i + 1)
        if 0xE0000 <= cp <= 0xE007F:
            return self._tags(i)
        if 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF:
            return self._variation(i)
        if cp == 0x200D:
            emoji_join = (prev in _EMOJI or prev in _EMOJI_JOINABLE) and nxt in _EMOJI
            return (None if emoji_join or prev in _COMPLEX else "zero_width_out_of_context"), i + 1
        if cp == 0x200C:
            return (None if prev in _COMPLEX or nxt in _COMPLEX else "zero_width_out_of_context"), i + 1
        if cp == 0x200B:
            spaced = prev in _NO_SPACE_SCRIPTS and nxt in _NO_SPACE_SCRIPTS
            return (None if spaced else "zero_width_out_of_context"), i + 1
        if cp in (0x200E, 0x200F, 0x061C):
            return (None if self.rtl else "bidi_override"), i + 1
        if 0x2066 <= cp <= 0x2069:
            return (None if self.rtl and self.isolates_balanced else "bidi_override"), i + 1
        if 0x202A <= cp <= 0x202E:
            return "bidi_override", i + 1
        if cp == 0xFEFF:
            return (None if i == 0 else "zero_width_out_of_context"), i + 1
        if 0x180B <= cp <= 0x180F and cp != 0x180E:
            return (None if prev in _MONGOLIAN else "other_default_ignorable"), i + 1
        if cp < 0x20 or 0x7F <= cp <= 0x9F:
            return "control_char", i + 1
        if 0xE000 <= cp <= 0xF8FF or cp >= 0xF0000:
            if (cp & 0xFFFE) == 0xFFFE:
                return "noncharacter", i + 1
            return "private_use", i + 1
        if 0xFDD0 <= cp <= 0xFDEF or (cp & 0xFFFE) == 0xFFFE:
            return "noncharacter", i + 1
        return "other_default_ignorable", i + 1

    def _tags(self, i: int) -> tuple[str | None, int]:
        m = _TAG_RUN.match(self.text, i)
        assert m is not None
        run = m.group()
        if self._cp(i - 1) == ord(_BLACK_FLAG) and _FLAG_TAGS.fullmatch(run):
            return None, m.end()
        decoded = "".join(chr(ord(c) - 0xE0000) for c in run if 0xE0020 <= ord(c) <= 0xE007E)
        if decoded.strip():
            self.payloads.append(("tag_payload", decoded))
        return "tag_block", m.end()

    def _variation(self, i: int) -> tuple[str | None, int]:
        m = _VS_RUN.match(self.text, i)
        assert m is not None
        run = m.group()
        base = self.text[i - 1] if i > 0 else ""
        if len(run) == 1 and base and not base.isspace() and _SUSPECT.match(base) is None:
            cp, base_cp = ord(run), ord(base)
            if cp in (0xFE0E, 0xFE0F):
                return None, i + 1
            if cp <= 0xFE0D and base_cp > 0x7F:
                return None, i + 1
            if cp >= 0xE0100 and base_cp in _CJK:
                return None, i + 1
        decoded = _decode_variation(run)
        if decoded:
            self.payloads.append(("vs_payload", decoded))
        return "variation_selector_run", m.end()


def _decode_variation(run: str) -> str:
    """Paul Butler's scheme: VS1–16 carry bytes 0–15, VS17–256 carry bytes 16–255."""
    data = bytearray()
    for ch in run:
        cp = ord(ch)
        data.append(cp - 0xFE00 if cp <= 0xFE0F else cp - 0xE0100 + 16)
    text = data.decode("utf-8", errors="replace")
    return text if _mostly_printable(text) else ""


def _decode_zero_width(run: str) -> str:
    """ZWSP/ZWNJ as bits (either polarity), ZWJ or every 8 bits as the byte boundary."""
    best = ""
    groups = [g for g in run.split("\u200d") if g]
    if not groups or any(len(g) != 8 for g in groups):
        bits = run.replace("\u200d", "")
        groups = [bits[k : k + 8] for k in range(0, len(bits) - 7, 8)]
    for zero, one in (("\u200b", "\u200c"), ("\u200c", "\u200b")):
        try:
            data = bytes(int(g.replace(zero, "0").replace(one, "1"), 2) for g in groups)
        except ValueError:
            continue
        text = data.decode("utf-8", errors="replace")
        if _mostly_printable(text) and len(text) > len(best):
            best = text
    return best


def _mostly_printable(text: str) -> bool:
    if len(text) < 2:
        return False
    good = sum(1 for c in text if c.isprintable() or c in "\n\t")
    return good >= 0.85 * len(text)

"""Views of a text that the pattern rules run over (threats.md §5.2).

Order matters: strip default-ignorables (so ``ign<ZWSP>ore`` reads ``ignore``), fold curly
quotes, NFKC (full-width and compatibility forms), a confusable skeleton for mixed-script tokens
only, then ``casefold`` (handles ß and ſ, unlike ``lower``). Extra views are produced only when
the text shows the matching trick, so plain prose pays for one cheap view:

* ``layout``: joined ``-\\n`` and ``\\\\\\n`` breaks, ``''`` shell quote splits, and spaced or
  dotted single letters (``i g n o r e``, ``c.u.r.l``) collapsed into words;
* ``leet``: ``1gn0r3`` → ``ignore``; only the high-confidence rules see it, since ``$VAR``
  and IP addresses do not survive it;
* decoded payloads: base64/hex/``\\x``/``%`` blobs that decode to printable text, and a ROT13
  reading when the text talks about ROT13.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
import unicodedata

from pi_memory.security.lazy_re import compile_lazily

_IGNORABLE = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
    "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]+"
)
_ASCII_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]+")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'",
                         "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"'})
_HAS_QUOTES = re.compile("[\u2018-\u201f\u2032\u2033]")

# Cyrillic and Greek letters that render like Latin ones (a hand-picked subset of UTS #39
# confusables, lower case because it runs after casefold). Only applied to tokens that mix
# scripts, or to multi-letter tokens made solely of look-alikes; whole Cyrillic or Greek
# sentences are left alone.
_CONFUSABLE = {
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
    "с": "c", "т": "t", "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "һ": "h",
    "ԁ": "d", "ԛ": "q", "ԝ": "w", "ӏ": "l", "ɡ": "g", "ʏ": "y", "ı": "i", "ɑ": "a",
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "μ": "u", "ν": "v", "ο": "o",
    "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ζ": "z", "ϲ": "c", "ϳ": "j",
    # Armenian small letters that render like Latin ones (UTS #39 confusables).
    "օ": "o", "ս": "u", "ց": "g", "հ": "h", "ո": "n", "զ": "q", "ա": "w", "ի": "h", "լ": "l",
    "ւ": "i", "ք": "p",
}
_CONFUSABLE_TABLE = str.maketrans(_CONFUSABLE)
_CONFUSABLE_CHARS = frozenset(_CONFUSABLE)
_FOLDABLE = "\u0250-\u02af\u0131\u0370-\u03ff\u0400-\u052f\u0561-\u0587"
_HAS_FOLDABLE = compile_lazily(f"[{_FOLDABLE}]")
# Possessive prefix: one pass per word start, no backtracking.
_MIXED_TOKEN = compile_lazily(f"\\b[^\\W{_FOLDABLE}]*+[{_FOLDABLE}]\\w*")
_NONFOLD_WORD = compile_lazily(f"[^\\W{_FOLDABLE}]")
_LATIN = re.compile("[a-z]")

# The literal comes first and the look-behind after it, so ``re`` scans for the quote or hyphen at
# C speed instead of trying a look-behind at every position (same matches).
_HYPHEN_BREAK = re.compile(r"-(?<=[a-z]-)[ \t]*\r?\n[ \t]*(?=[a-z])")
_HYPHEN_GATE = re.compile(r"-[ \t]*\r?\n")  # literal first: C-speed scan, unlike _HYPHEN_BREAK
_BACKSLASH_BREAK = re.compile(r"\\\r?\n[ \t]*")
_QUOTE_SPLIT = re.compile(r"(?:''(?<=\w'')|\"\"(?<=\w\"\"))(?=\w)")
_SPACED = re.compile(r"\b(?<![\w.])(?:[a-z] ){3,}[a-z](?!\w)")
_HYPHENATED = re.compile(r"\b(?<![\w.-])(?:[a-z]-){3,}[a-z](?![\w-])")
_DOTTED = re.compile(r"\b(?<![\w.])(?:[a-z]\.){3,}[a-z](?![\w])")
_LAYOUT_HINT = re.compile(r"[a-z][ .-][a-z][ .-][a-z][ .-][a-z]")
# Matches wherever _LAYOUT_HINT does (one character later): opening on the separator lets ``re``
# skip the letters at C speed instead of trying the pattern at every one of them.
_LAYOUT_GATE = re.compile(r"[ .-][a-z][ .-](?<=[a-z][ .-][a-z][ .-])[a-z][ .-][a-z]")
# Identifier-shaped phrases: snake_case, kebab or slash-joined words, CamelCase (3+ words).
_JOINED = re.compile(r"(?<![\w/])[A-Za-z]{2,}(?:[_/][A-Za-z]{2,}){2,}(?![\w/])|\b(?:[A-Z][a-z]+){3,}\b")
# Capital first: rarer, so re skips ahead; possessive, since giving back a lower-case letter never
# makes room for a capital (the same matches as CAMEL_HINT_PLAIN).
_CAMEL_HINT = re.compile(r"[A-Z][a-z]++[A-Z][a-z]++[A-Z]")
CAMEL_HINT_PLAIN = r"[A-Z][a-z]+[A-Z][a-z]+[A-Z]"
# A joined phrase has a joiner between two words of 2+ letters on both sides: literal first, so
# ``re`` scans for the joiner at C speed.
_SNAKE_HINT = re.compile(r"_(?<=[A-Za-z]{2}_)[A-Za-z]{2}")
_NON_SPACE = re.compile(r"\S*")
_SLASH_HINT = re.compile(r"/(?<=[A-Za-z]{2}/)[A-Za-z]{2,}/[A-Za-z]{2}")
_JOINERS = re.compile(r"[_/]|(?<=[a-z])(?=[A-Z])")
# Character escapes that hide letters: \x69, \u0069, %69, &#105;, &#x69;, &lt;.
_ESCAPE_HINT = re.compile(r"\\[xu][0-9A-Fa-f]{2}|%[0-9A-Fa-f]{2}|&(?:#[0-9]{2,7}|#x[0-9A-Fa-f]{2,6}|[A-Za-z]{2,8});")
_CHAR_ESCAPE = re.compile(r"\\x([0-9A-Fa-f]{2})|\\u([0-9A-Fa-f]{4})")

_LEET_HINT = re.compile(r"[a-z][0-9@$]|[0-9@$][a-z]")
# The digit or symbol of every _LEET_HINT pair: the rare character first, so ``re`` skips ahead.
_LEET_SYMBOL = re.compile(r"[0-9@$](?:(?<=[a-z][0-9@$])|(?=[a-z]))")
_LEET_TOKEN = re.compile(r"(?<![a-z0-9@$])(?=[a-z0-9@$]*?(?:[a-z][0-9@$]|[0-9@$][a-z]))[a-z0-9@$]++")
_LEET_RUN = re.compile(r"[a-z0-9@$]*+")
_LEET_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789@$")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b",
                       "9": "g", "@": "a", "$": "s"})

_B64 = re.compile(r"(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}+={0,2}")
_HEX = re.compile(r"(?<![0-9A-Za-z])[0-9A-Fa-f]{24,}+(?![0-9A-Za-z])")
# Each alternative opens with its literal (``(?:x){8,}`` as ``x(?:x){7,}``), so ``re`` skips to the
# next backslash or percent sign instead of trying both groups at every position (ESCAPED_PLAIN).
_ESCAPED = re.compile(r"\\x[0-9A-Fa-f]{2}(?:\\x[0-9A-Fa-f]{2}){7,}|%[0-9A-Fa-f]{2}(?:%[0-9A-Fa-f]{2}){7,}")
ESCAPED_PLAIN = r"(?:\\x[0-9A-Fa-f]{2}){8,}|(?:%[0-9A-Fa-f]{2}){8,}"
_ROT13_HINT = re.compile(r"rot[ -]?13|caesar")
_MAX_BLOBS = 8


def fold(text: str, confusables: bool = True, ignorables: bool = True) -> str:
    """The canonical matching form: ignorables stripped, NFKC, confusables folded, casefolded.

    ``confusables=False`` keeps every script as written (the intent layer reads Russian words
    such as ``не`` as Russian, not as the Latin look-alike ``he``). ``ignorables=False``: the
    caller knows the text holds none (:func:`may_hold_ignorable`), so that pass is skipped."""
    if text.isascii():
        if _ASCII_CONTROLS.search(text) is not None:
            text = _ASCII_CONTROLS.sub("", text)
        return text.lower()
    if ignorables:
        text = _IGNORABLE.sub("", text)  # one pass: a search first only pays when most texts have none
    if _HAS_QUOTES.search(text) is not None:
        text = text.translate(_QUOTES)
    text = nfkc(text).casefold()
    if confusables and _HAS_FOLDABLE.search(text) is not None:
        text = _fold_mixed_tokens(text)
    return text


def nfkc(text: str) -> str:
    """``unicodedata.normalize("NFKC", text)``, normalising only the lines that need it.

    A line break is a starter that neither composes nor reorders with its neighbours, so NFKC
    works line by line; one no-break space or ellipsis otherwise makes ``normalize`` rebuild the
    whole note (measured: about half the time on the corpus mix)."""
    if unicodedata.is_normalized("NFKC", text):
        return text
    return "\n".join(
        line if unicodedata.is_normalized("NFKC", line) else unicodedata.normalize("NFKC", line)
        for line in text.split("\n")
    )


def fold_both(text: str, ignorables: bool = True) -> tuple[str, str]:
    """``(fold(text), fold(text, confusables=False))`` in one pass: the look-alike step is the
    last one, so it runs on the script-keeping fold (NFKC and casefold run once).
    ``ignorables`` as in :func:`fold`."""
    if text.isascii():
        folded = fold(text)
        return folded, folded
    plain = fold(text, confusables=False, ignorables=ignorables)
    if _HAS_FOLDABLE.search(plain) is None:
        return plain, plain
    return _fold_mixed_tokens(plain), plain


def _fold_mixed_tokens(text: str) -> str:
    """``_MIXED_TOKEN.sub(_fold_token, text)``, without trying the token regex at every word start.

    A token match holds a foldable letter and starts at most at the run of non-foldable word
    characters just before its first one, so the search jumps to the next foldable letter (a
    C-speed character-class scan) and backs up over that run. Latin text in between costs
    nothing, and the matches are the ones ``sub`` would make."""
    parts: list[str] = []
    pos = last = 0
    while True:
        f = _HAS_FOLDABLE.search(text, pos)
        if f is None:
            break
        start = f.start()
        while start > pos and _NONFOLD_WORD.match(text, start - 1) is not None:
            start -= 1
        m = _MIXED_TOKEN.search(text, start)
        if m is None:
            break
        parts.append(text[last : m.start()])
        parts.append(_fold_token(m))
        last = pos = m.end()
    if not parts:
        return text
    parts.append(text[last:])
    return "".join(parts)


def _fold_token(m: re.Match[str]) -> str:
    token = m.group()
    if _LATIN.search(token) is not None:
        return token.translate(_CONFUSABLE_TABLE)
    if len(token) >= 2 and all(c in _CONFUSABLE_CHARS for c in token):
        return token.translate(_CONFUSABLE_TABLE)
    return token


def has_control_chars(text: str) -> bool:
    """ASCII control characters other than tab/newline/return (backspace deletion attacks)."""
    return _ASCII_CONTROLS.search(text) is not None


def has_ignorable(text: str) -> bool:
    """Would :func:`fold` strip anything (so offsets in the folded text no longer line up)?"""
    return _IGNORABLE.search(text) is not None


def may_hold_ignorable(text: str, suspect: bool) -> bool:
    """:func:`has_ignorable` for a text whose suspect code points were looked for already
    (``unicode_rules.inspect``; ``suspect``: it found one): every ignorable but the soft hyphen
    is suspect, so a text without either needs no second pass (``False`` is exact, ``True`` may
    be a false alarm)."""
    return suspect or "\u00ad" in text


def layout_view(folded: str) -> str | None:
    """Undo line-break, quote-split and letter-spacing tricks; ``None`` if nothing to undo."""
    hint = _LAYOUT_GATE.search(folded) is not None
    if (
        "-\n" not in folded and "\\\n" not in folded and "''" not in folded and '""' not in folded
        and "- \n" not in folded and not hint
    ):
        return None
    # Each substitution runs only when its necessary literal shape is there (code is full of
    # '""' and '-', rarely of the tricks themselves); a skipped one would have changed nothing.
    out = folded
    if _HYPHEN_GATE.search(out) is not None:
        out = _HYPHEN_BREAK.sub("", out)
    if "\\\n" in out or "\\\r\n" in out:
        out = _BACKSLASH_BREAK.sub("", out)
    if "''" in out or '""' in out:
        out = _QUOTE_SPLIT.sub("", out)
    if out != folded:  # a join can create a letter run ("a b \\<newline>c d"): look again
        hint = _LAYOUT_GATE.search(out) is not None
    if hint:  # both letter-run shapes contain a _LAYOUT_HINT match
        out = _SPACED.sub(lambda m: m.group().replace(" ", ""), out)
        out = _DOTTED.sub(lambda m: m.group().replace(".", ""), out)
        out = _HYPHENATED.sub(lambda m: m.group().replace("-", ""), out)
    return out if out != folded else None


def joined_view(text: str) -> str | None:
    """``ignore_all_previous_instructions``, ``IgnoreAllPrevious``, ``ignore/all/previous`` read
    as words (folded); ``None`` when the text has no identifier of three or more words.

    Only the joined phrases are kept, one per line: the rest of the text is in the plain view."""
    words: dict[int, int] = {}  # start -> end of every whitespace-delimited word with a hint
    for hint in (_SNAKE_HINT, _SLASH_HINT, _CAMEL_HINT):
        word_lo = word_hi = -1  # the last word a hint fell in: "a_long_snake_name" is one word
        for m in hint.finditer(text):
            if word_lo <= m.start() < word_hi:
                continue  # another hint in the same word: same start, same end
            lo = m.start()
            while lo > 0 and not text[lo - 1].isspace():
                lo -= 1
            end = _NON_SPACE.match(text, m.start())
            hi = end.end() if end is not None else m.end()
            words.setdefault(lo, hi)
            word_lo, word_hi = lo, hi
    phrases = []
    for lo in sorted(words):
        word = text[lo : words[lo]]
        # paths, URLs, file names and variables (a dot, a colon, ~, $, =, @) are not phrases
        if len(word) < 7 or word[0] == "/" or any(c in word for c in ".:~$=@\\"):
            continue
        joined = _JOINED.sub(lambda m: _JOINERS.sub(" ", m.group()).lower(), word)
        if joined != word:
            phrases.append(joined)
    return fold("\n".join(phrases)) if phrases else None


def unescaped_view(text: str) -> str | None:
    """The lines with ``\\xHH``/``\\uHHHH`` escapes, URL-encoding or HTML entities, decoded in
    place (folded); ``None`` when there are none. Runs of 8+ escapes are also decoded on their
    own by :func:`decoded_views`; this view catches a few escaped letters inside a sentence."""
    if ("\\" not in text and "%" not in text and "&" not in text) or _ESCAPE_HINT.search(text) is None:
        return None  # every escape starts with one of those three: str's find is faster than re
    lines = []
    for line in text.split("\n"):
        if _ESCAPE_HINT.search(line) is None:
            continue
        out = _CHAR_ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), line)
        if "%" in out:
            out = _unquote(out)
        if "&" in out:
            import html  # only escaped text needs it: not imported with the scanner

            out = html.unescape(out)
        if out != line:
            lines.append(out)
    return fold("\n".join(lines)) if lines else None


def leet_view(folded: str, vocabulary: frozenset[str] = frozenset()) -> str | None:
    """Digits and symbols read as letters inside mixed tokens; ``None`` if there are none.

    With a ``vocabulary``, the view is built only when some decoded token is one of those words
    (``1gn0r3`` → ``ignore``): version strings such as ``v2`` or ``x64`` then cost nothing."""
    if vocabulary:
        if not _has_leet_word(folded, vocabulary):
            return None
    elif _LEET_SYMBOL.search(folded) is None:
        return None
    out = _LEET_TOKEN.sub(lambda m: m.group().translate(_LEET), folded)
    return out if out != folded else None


def _has_leet_word(folded: str, vocabulary: frozenset[str]) -> bool:
    """Is some ``_LEET_TOKEN`` of ``folded`` a vocabulary word once decoded?

    Same answer as testing every ``_LEET_TOKEN.findall`` token, without running that
    lookahead-per-position regex over the whole text: every such token is the maximal
    ``[a-z0-9@$]`` run around a letter/digit adjacency, and ``_LEET_SYMBOL`` finds the digit or
    symbol of each adjacency."""
    covered = 0
    for m in _LEET_SYMBOL.finditer(folded):
        i = m.start()
        if i < covered:
            continue
        start = i
        while start > 0 and folded[start - 1] in _LEET_CHARS:
            start -= 1
        run = _LEET_RUN.match(folded, i)
        end = run.end() if run is not None else m.end()
        covered = end
        if folded[start:end].translate(_LEET) in vocabulary:
            return True
    return False


def decoded_views(raw: str, folded: str) -> list[tuple[str, str]]:
    """Printable text hidden in encoded blobs of ``raw``, as ``(view name, text)`` pairs."""
    views: list[tuple[str, str]] = []
    # Only tokens of 24+ characters can hold a blob; str.split() finds them at C speed.
    long_tokens = [t for t in raw.split() if len(t) >= 24]
    for token in long_tokens[: _MAX_BLOBS * 4]:
        for m in _B64.finditer(token):
            text = _from_base64(m.group())
            if text:
                views.append(("base64", text))
        for m in _HEX.finditer(token):
            blob = m.group()
            text = _printable(binascii.unhexlify(blob[: len(blob) - len(blob) % 2]))
            if text:
                views.append(("hex", text))
        if len(views) >= _MAX_BLOBS:
            break
    if ("\\x" in raw or "%" in raw) and len(views) < _MAX_BLOBS:
        for m in _ESCAPED.finditer(raw):
            blob = m.group()
            text = _unquote(blob) if blob.startswith("%") else _printable(bytes.fromhex(blob.replace("\\x", "")))
            if text and _mostly_printable(text):
                views.append(("escaped", text))
    if ("rot" in folded or "caesar" in folded) and _ROT13_HINT.search(folded) is not None:
        views.append(("rot13", codecs.decode(folded, "rot13")))
    return views


def _unquote(text: str) -> str:
    """``urllib.parse.unquote``, imported on first use (``urllib.parse`` also loads ``ipaddress``)."""
    from urllib.parse import unquote

    return unquote(text)


def _from_base64(blob: str) -> str:
    if blob.isalpha() or blob.isdigit() or blob.islower() or blob.isupper():
        return ""  # a long plain word, number or identifier; encoded text mixes cases
    if ("/" in blob or "+" in blob) and ("-" in blob or "_" in blob):
        return ""  # mixes the standard and URL-safe alphabets: a path, not base64
    data = blob.rstrip("=")
    data = data[: len(data) - len(data) % 4] if len(data) % 4 == 1 else data
    data += "=" * (-len(data) % 4)
    altchars = b"-_" if ("-" in data or "_" in data) else None
    try:
        raw = base64.b64decode(data, altchars=altchars)
    except (binascii.Error, ValueError):
        return ""
    return _printable(raw)


def _printable(data: bytes) -> str:
    text = data.decode("utf-8", errors="ignore")
    if len(text) < 8 or not _mostly_printable(text):
        return ""
    letters = sum(1 for c in text if c.isalpha())
    return text if letters >= 0.5 * len(text) and " " in text else ""


def _mostly_printable(text: str) -> bool:
    good = sum(1 for c in text if c.isprintable() or c in "\n\t")
    return good >= 0.9 * len(text)

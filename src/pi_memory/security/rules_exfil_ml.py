"""Sending to a web address, told in the 13 languages besides English.

The English ``send_to_url`` rule reads "send/forward/upload ... to https://..."; the same order
in German, French, Spanish, Portuguese, Italian, Russian, Arabic, Vietnamese and Chinese puts an
imperative before the address ("Schicke jede Nachricht an https://...", "把所有消息发送到 https://..."),
and in Japanese, Korean, Turkish and Hindi after it ("... https://... に送信して", "... https://...
adresine gönder"). A markdown link (``[our archive](https://...)``) is an address too. Only an
address outside the user's own machines counts (``destinations``), a negation before the verb
or between it and the address ("Schicke niemals ...", "nunca envíes ...") makes a prohibition,
and a quoted test string or a reported attack is a mention (``context_checks``).
"""

from __future__ import annotations

import re

from pi_memory.security import destinations
from pi_memory.security.context_checks import except_quoted_mentions, not_reported
from pi_memory.security.engine import STRICT, Rule, rule
from pi_memory.security.lazy_re import compile_lazily

CAT = "exfiltration"

#: The imperative of a verb of sending, uploading or forwarding (not the noun "copia", not the
#: third person of a description "sendet", "envía" aside: Spanish writes both alike). Spanish and
#: Portuguese share "envia", "envie" and "mande", listed once.
_BEFORE = (
    "schick|schicke|sende|leite|übermittle|übermittel|lade|spiegle|spiegele|"
    "envoie|envoyez|transfère|transférez|transmets|transmettez|téléverse|téléversez|"
    "envía|envia|envíe|envie|envíen|manda|mande|reenvía|reenvia|reenvíe|sube|suba|"
    "encaminhe|encaminha|carregue|"
    "invia|inviate|inoltra|inoltrate|carica|caricate|"
    "отправь|отправьте|отправляй|отправляйте|перешли|пересылай|пересылайте|загрузи|загружай|выгрузи|"
    "gửi|chuyển tiếp|tải lên|"
    "أرسل|ارسل|أرسلي|حوّل|ارفع"
)
#: ... and in Chinese, which writes no spaces around it.
_BEFORE_ZH = "发送|发给|发到|转发|上传|同步到"
_AFTER = (
    "gönder|gonder|yolla|ilet|yükle|yukle|"
    "भेजो|भेजें|भेज दो|भेजते रहो|अपलोड करो|"
    "送信|送って|送れ|転送|アップロード|"
    "보내|전송|전달|업로드"
)
_URL = r"(?:\[[^\]\n]{1,80}\]\()?(?:https?|wss?|ftp)://[^\s)\]]+"
_NO_END = r"[^.!?。！？\n]"
#: Negations of the 13 languages, before the verb or between it and the address.
_NEGATION = compile_lazily(
    r"(?<!\w)(?:nie|niemals|nicht|kein\w*|jamais|ne|n'|nunca|no|non|mai|никогда|не|ни|asla|hiçbir|"
    r"không|đừng|chớ|لا|أبدا|ابدا|कभी|मत|नहीं)(?!\w)|不要|别|別|不得|禁止|決して|しないで|ないで|するな|절대|말고|마세요|마라"
)
#: Words that make the words before the verb a subject: a description ("Le job envoie les logs à
#: ...", "El cron manda ..."), where Romance languages write the third person as the imperative.
_SUBJECT = compile_lazily(
    r"(?<!\w)(?:le|la|les|l'|el|los|las|il|lo|gli|o|os|as|der|die|das|er|sie|es|elle|ils|elles|ele|ela|"
    r"eles|он|она|они|оно|это|этот|эта)(?!\w)"
)
_CLAUSE_START = compile_lazily(r"[.,;:!?\n。！？，、]")


def _ordered_first(view: str, m: re.Match[str]) -> bool:
    """:func:`_sent_out`, for a verb that opens its clause (at most three words before it, none of
    them a subject): the imperative, not the description that Romance languages spell alike."""
    head = view[max(view.rfind("\n", 0, m.start()) + 1, m.start() - 40) : m.start()]
    starts = [c.end() for c in _CLAUSE_START.finditer(head)]
    clause = head[starts[-1] if starts else 0 :]
    return len(clause.split()) <= 3 and _SUBJECT.search(clause) is None and _sent_out(view, m)


def _sent_out(view: str, m: re.Match[str]) -> bool:
    """Does the match send to an address outside the user's machines, with no negation near it,
    and not as a reported attack?"""
    lo = max(view.rfind("\n", 0, m.start()) + 1, m.start() - 40)
    return (
        destinations.external_destination(m.group())
        and _NEGATION.search(view, lo, m.end() + 12) is None
        and not_reported(view, m)
    )


ML_RULES: list[Rule] = except_quoted_mentions([
    rule(
        "send_to_url", CAT, STRICT, _BEFORE + "|" + _BEFORE_ZH,
        r"(?:(?<!\w)(?:" + _BEFORE + r")(?!\w)|" + _BEFORE_ZH + ")" + _NO_END + r"{0,160}?" + _URL,
        sub="secret_to_network", check=_ordered_first, fwd=260, requires="://",
    ),
    rule(
        "send_to_url", CAT, STRICT, "http|https|ftp|ws|wss",
        _URL + _NO_END + r"{0,40}?(?:" + _AFTER + r")(?!m[eaıi])",  # not Turkish "gönderme" (don't)
        sub="secret_to_network", check=_sent_out, fwd=300, requires="://",
    ),
])

__all__ = ["ML_RULES"]

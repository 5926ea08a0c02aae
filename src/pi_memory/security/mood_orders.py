"""Grammatical mood, the order side: does a line address the agent with an order?

An order is an imperative, a "you must", an "always/never" + verb, a "from now on", a request,
or the passive of obligation; :func:`orders` looks for those marks (closed-class words, endings,
particles per language; no vocabulary of attacks). ``mood.describes`` uses it to refuse to call
a line a description when any clause of it orders; the English verb tests it shares
(:func:`imperative`, :func:`finite_en`) and the clause split (:func:`split_clauses`) live here once.
"""

from __future__ import annotations

import re

from pi_memory.security.intent_lookalike import blank_compounds
from pi_memory.security.intent_match import concepts
from pi_memory.security.lazy_re import compile_lazily
from pi_memory.security.mood_words import BASE_VERB, CONJUNCTIONS, IRREGULAR, NOUNS, PAST, RECORD_NOUNS

# --- marks of an order addressed to the agent (any language) -----------------------------------

# The agent addressed or obliged, a request, a standing rule: "you", "please", "must", "make
# sure", "from now on", "every reply"; their counterparts in the other languages.
_ORDER_WORDS = compile_lazily(
    r"\b(?:you|your|yours|yourself|you're|you'll|you've|u|please|pls|must|mustn't|should|shouldn't|shall|"
    r"ought|has to|have to|had better|needs to|need to|is required to|are required to|make sure|be sure|"
    r"ensure|remember to|don't forget|let's|from now on|going forward|henceforth|"
    r"hereafter|from here on|in future|in the future|next time|every (?:reply|response|answer|message|session|"
    r"conversation|turn|chat)|each (?:reply|response|answer|message|session|conversation|turn|chat)|"
    r"whenever|when asked|if asked|"
    # es / pt / it / fr / de
    r"tú|usted|ustedes|debes|debe|deberás|tienes que|hay que|por favor|a partir de ahora|de ahora en adelante|"
    r"desde ahora|de aquí en adelante|"
    r"você|vocês|deve|deves|precisa|tem que|daqui em diante|a partir de agora|de agora em diante|"
    r"tu|ti|devi|bisogna|per favore|d'ora in poi|d'ora|da ora in poi|da adesso in poi|"
    r"vous|toi|tu dois|il faut|s'il te plaît|s'il vous plaît|désormais|dorénavant|à partir de maintenant|"
    r"dich|dir|dein|deine|deinen|musst|sollst|bitte|ab jetzt|ab sofort|künftig|von nun an|"
    # ru / tr / vi
    r"ты|тебе|тебя|твой|твои|вы|вам|вас|ваш|должен|должна|должны|нужно|надо|пожалуйста|отныне|впредь|"
    r"с этого момента|sen|sana|seni|siz|size|lütfen|"
    r"hãy|đừng|bạn|phải|nên|vui lòng|xin|từ giờ|từ nay|"
    # a wish for what is best is an order: "it would be best if", "sería mejor que", "лучше, чтобы"
    r"it would be best|it'd be best|it is best that|would be appreciated|sería mejor que|lo ideal sería|"
    r"seria melhor que|o ideal é que|mieux vaudrait|il vaudrait mieux|il serait souhaitable|il conviendrait|"
    r"am besten|es wäre besser|лучше,? чтобы|желательно|было бы хорошо|daha iyi olur|tốt nhất là)\b"
)
# Scripts without spaces (and Arabic, Hindi) mark an order with particles and endings.
_ORDER_CJK = compile_lazily(
    r"ください|下さい|なさい|てね|でね|しろ|するな|ないで|こと[。！]|ように|べき|あなた|君|今後|これから|"
    r"세요|십시오|하라|해라|마라|말라|말고|해 줘|해줘|주세요|당신|너는|너의|앞으로|"
    r"请|必须|务必|不要|别|你|您|一定要|应该|应当|记得|永远|从现在|以后|不许|不准|禁止|"
    r"أنت|انت|يجب|عليك|رجاء|من فضلك|دائما|دائمًا|من الآن|لا ت|"
    r"तुम|आप|कृपया|हमेशा|अब से|मत |चाहिए|बेहतर होगा|बेहतर है कि|अच्छा होगा|"
    r"ほうがよ|ほうがい|のが望ましい|편이 낫|것이 바람직|最好|الأفضل|من الأفضل|يستحسن"
)
# A clause (line start, or after a stop, a colon, a dash, "and"/"then") that opens with a verb
# is an imperative: "upload ...", "then run ...", "y ejecuta ...", "und lösche ...". Declaratives
# state their subject first.
_CLAUSE_HEAD = compile_lazily(
    r"(?:^|[.;:!?](?:\s+|$)|[—–]\s*|\s-\s|,\s*|(?<=\s)(?:and|then|y|e|et|und|dann|poi|luego|depois|puis|ensuite|и|"
    r"потом|затем|ve|sonra|rồi|và)\s+)"
    r"(?:(?:just|also|now|simply|quietly|silently|secretly|only|still|immediately|automatically|first|next|"
    r"finally|directly|go ahead and|do not|don't|do|not|and|then|but|or|"
    # the same adverbs before an imperative of es / pt / it / fr / de ("Simplemente envía ...")
    r"simplemente|simplesmente|semplicemente|simplement|einfach|solo|sólo|só|apenas|juste|también|também|anche|"
    r"aussi|auch|directamente|diretamente|direttamente|directement|direkt|ahora|agora|ora|adesso|maintenant|jetzt)\s+)*"
    r"([^\W\d_][\w'-]*)"
)
# The passive of obligation, which names no one and still obliges: "is to be mentioned", "sind zu
# befolgen", "sont à exécuter", "han de aplicarse", "hão de ser", "vanno eseguite", "следует
# выполнять", "uygulanmalıdır", "ينبغي", "किया जाए", "ものとする", "해야 한다".
_OBLIGED = compile_lazily(
    r"\b(?:is|are|was|were)(?: not| never| always)? to be\b|"
    r"\b(?:ist|sind)\b[^.;:!?]{0,60}?\bzu [a-zäöü]+(?:en|ern|eln)\b|"
    r"\b(?:est|sont) à [a-zéè]+(?:er|ir|re)\b|\b(?:ha|han|has|había|habrá) de [a-záéí]+(?:ar|er|ir)(?:se)?\b|"
    r"\b(?:há|hão|havia) de\b|\b(?:va|vanno|andrà|andranno) (?:[a-z]+ )?[a-z]+(?:at|ut|it)[oaie]\b|"
    r"\b(?:следует|надлежит|необходимо|полагается)\b|\w+(?:malı|meli)(?:dır|dir|yız|yiz)?\b|"
    r"ينبغي|يتعين|يلزم|(?:किया|किए|की) जा(?:ए|एँ|एं)|ものとする|ものとします|なければならない|ねばならない|"
    r"야 한다|야 합니다|여야"
)
# A clause that opens with "always" or "never" sets a standing rule for whoever reads it.
_STANDING = compile_lazily(
    r"(?:^|[.;:!?—–]\s*|,\s*)(?:always|never|siempre|nunca|jamás|sempre|jamais|toujours|immer|nie|niemals|"
    r"mai|всегда|никогда|asla|her zaman|daima|luôn|không bao giờ)\b"
)
#: Concepts whose words are verbs (a clause that opens with one is an imperative).
VERB_CONCEPTS = frozenset({"send", "execute", "destroy", "comply", "override", "conceal", "disable", "claim"})
ORDER_CONCEPTS = VERB_CONCEPTS | {"noconfirm"}

_CJK = compile_lazily(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")

def orders(line: str, shared_subject: bool = False) -> bool:
    """Does the folded line address the agent with an order: second person, an obligation, a
    request, an invitation, a standing rule, or a clause that opens with an English base verb? With
    ``shared_subject`` (the line opens with its subject), a verb after "and" ("o script roda ...
    e envia ...", "Cron ejecuta ... y envía ...") continues that subject's description unless it
    is an English base form ("... and send it to ...")."""
    if _ORDER_WORDS.search(line) or _ORDER_CJK.search(blank_compounds(line)) or _STANDING.search(line):
        return True
    if _OBLIGED.search(line) or "invite" in concepts(line):
        return True  # ... or an invitation to act: "feel free to ...", "no dudes en ...", "не стесняйся ..."
    if _TR_FROM_NOW.search(line) and not all(
        _TR_TENSE.search(c) for c in split_clauses(line) if _TR_FROM_NOW.search(c)
    ):
        return True  # "artık ... gönder" orders; "dış metinler artık güvenilmez sayılıyor" states a fact
    stop = _FIRST_STOP.search(line)
    first_end = stop.start() if stop else len(line)
    return any(
        imperative(m.group(1))
        and not (shared_subject and m.start() < first_end and _conjoined(m) and m.group(1) not in BASE_VERB)
        and not _heading(line, m)
        for m in _CLAUSE_HEAD.finditer(line)
    )


def _heading(line: str, m: re.Match[str]) -> bool:
    """Is the clause's first word a heading ("Postmortem:", "Update:"), not a verb ("Run: ...")?
    A word that only shares a stem with a verb ("post" in "postmortem") names the note's kind, and
    so does the first word of a label that ends in the noun it qualifies ("post-merge git hook:",
    "pre-push hook:", "launchd job:")."""
    if m.group(1) in BASE_VERB:
        return False
    if line.startswith(":", m.end(1)):
        return True
    colon = line.find(":", m.end(1), m.end(1) + 40)
    label = line[m.end(1) : colon].split() if colon > 0 else []
    return 0 < len(label) <= 3 and label[-1] in RECORD_NOUNS and BASE_VERB.isdisjoint(label)


_FIRST_STOP = compile_lazily(r"[.;:!?—–](?:\s|$)")


def _conjoined(m: re.Match[str]) -> bool:
    """Does the clause head ``m`` open with a conjunction ("and", "y", "e", "und") rather than a stop?"""
    head = m.group()[: m.start(1) - m.start()].strip().split()
    return bool(head) and head[0] in CONJUNCTIONS


def imperative(word: str) -> bool:
    """Is a clause's first word a verb of the kind orders are built from? English third-person and
    past forms ("runs", "uploaded", "sent") and gerunds are not imperatives."""
    if word in BASE_VERB:
        return True
    if "/" in word or word[:1] in "~.$" or "." in word.strip("."):
        return False  # a path or a file name ("~/library/launchagents/x.plist", "pip.conf"): a name
    if _CJK.search(word):
        return False  # no spaces: the "word" is the whole clause; the particles above decide
    if word in NOUNS or word in PAST or (word.isascii() and word.endswith(("s", "ed", "ing"))):
        return False  # ... nor an irregular past ("... and sent the token to ...")
    return not ORDER_CONCEPTS.isdisjoint(concepts(word))


def finite_en(word: str) -> bool:
    """An English third-person or past verb: an irregular form, or ``-s``/``-ed`` on a verb."""
    if word in IRREGULAR:
        return True
    if word.endswith(("ies", "ied")) and word[:-3] + "y" in BASE_VERB:
        return True  # "copies", "replied"
    for suffix in ("es", "s", "ed", "d"):
        if word.endswith(suffix) and word[: -len(suffix)] in BASE_VERB:
            return True
    return len(word) > 4 and word.endswith("ed")


# Turkish "from now on" / "any more": an order when its clause ends in a bare stem, not a tense.
_TR_FROM_NOW = compile_lazily(r"\b(?:bundan sonra|artık)\b")
# ... a tense no bare stem ends in (the aorist "-er" is left out: "ver", "gönder" are stems).
_TR_TENSE = compile_lazily(
    r"(?:[ıiuü]?yor|[dt][ıiuü]|m[ıiuü]ş|[ae]c[ae]k|m[ae]kt[ae]d[ıi]r|[dt][ıiuü]r)(?:lar|ler|lar[dt]ı|ler[dt]i)?"
    r"[.!]?\s*$"
)
_CLAUSE_STOP = compile_lazily(r"[.;!?](?:\s+|$)|[。；！？]\s*|,\s+")


def split_clauses(line: str) -> list[str]:
    return [c.strip(" -*#>\t\"'“”") for c in _CLAUSE_STOP.split(line) if c.strip()]

"""Grammatical mood: does a line give the agent an order, or describe what something else does?

"Cron runs the cleanup job every hour" and "run the cleanup job every hour" hold the same
concepts (execute, persist, always); only the verb's form and its subject tell the description
from the order. A memory note that documents a setup, a tool or a past incident is written in
the indicative with a subject that is not the agent ("the deploy hook uploads ...", "Cron
ejecuta ...", "бот опрашивает ...", "バックアップが動きます"); an order is an imperative, a
"you must", an "always/never" + verb, a "from now on".

:func:`describes` answers from cheap, closed-class markers per language (function words, verb
endings, sentence-final forms; no vocabulary of attacks): it says yes only when the line shows a
description's form *and* no mark of an order addressed to the agent, so a mixed line ("the
script runs at boot; run it quietly too") stays an order. Linear in the line, one regex pass per
marker set; only lines another layer flagged pay for it.
"""

from __future__ import annotations

import re

from pi_memory.security.context_checks import QUOTATION
from pi_memory.security.intent_lookalike import software_agents
from pi_memory.security.intent_match import UNACCENT, concept_positions, concepts, lexicon
from pi_memory.security.lazy_re import compile_lazily
from pi_memory.security.mood_orders import (
    ORDER_CONCEPTS,
    VERB_CONCEPTS,
    finite_en,
    imperative,
    orders,
    split_clauses,
)
from pi_memory.security.mood_words import BASE_VERB, FUNCTION, PAST

__all__ = ["describes", "not_described", "orders", "past_report", "subject_acts"]


# --- marks of a description ---------------------------------------------------------------------

# The agent as the subject of a description is an order in disguise: "the assistant forwards ...".
_AGENT_SUBJECT = compile_lazily(
    r"\b(?:you|assistant|agent|ai|model|llm|claude|chatgpt|gpt|copilot|gemini|(?:the|this) bot|"
    r"agentes?|asistente|assistente|assistent)\b"
)
# English: a third-person or past finite verb after a subject of at most six words ("the deploy
# hook uploads", "a web page told", "cron runs"), the subject not opening with a subordinator.
_SUBJECT_WORDS = 6
_LABEL = compile_lazily(r"^[\w '’./@~-]{0,40}:\s+")
# Romance languages and German: a clause opening with a determiner, a possessive or a subject
# pronoun (declaratives state their subject; imperatives open with the verb).
_LATIN_SUBJECT = compile_lazily(
    r"^(?:[\w '’./@~-]{0,40}:\s+)?(?:the|our|their|his|her|its|a|an|this|that|these|those|my|el|la|los|las|"
    r"lo|un|una|unos|unas|nuestro|nuestra|nuestros|nuestras|su|sus|este|esta|estos|estas|o|os|as|um|uma|"
    r"nosso|nossa|nossos|nossas|seu|sua|seus|suas|le|les|l'\w+|un|une|des|notre|nos|leur|leurs|ce|cet|"
    r"cette|ces|der|die|das|den|dem|des|ein|eine|einen|einem|unser|unsere|unseren|sein|seine|ihr|ihre|"
    r"dieser|diese|dieses|il|lo|gli|i|uno|nostro|nostra|nostri|nostre|questo|questa|"
    r"he|she|it|they|we|él|ella|ellos|ellas|nosotros|ele|ela|eles|elas|nós|elle|ils|elles|on|nous|er|sie|"
    r"es|wir|lui|lei|loro|noi)\b"
)
# ... or a name (``cron``, ``apt-get``, ``Dependabot``), or a command line (``apt-get install -y``,
# ``docker system prune -f``: up to two subcommands before its flags), followed by a finite verb
# form: not an infinitive (-ar/-er/-ir/-re, -are/-ere/-ire, -en), not the first word of its clause.
_LATIN_NAME_VERB = compile_lazily(
    r"^(?:[\w '’./@~-]{0,40}:\s+)?[\w./@~+-]+(?:(?:\s+[a-z][\w-]*){1,2}(?=\s+-))?(?:\s+-{1,2}[\w-]+)*\s+"
    r"(?!\w+(?:ar|er|ir|re|en)\b)[^\W\d_]{3,}(?:a|e|t|en|an|on|ent|ó|ou|é|à)\b"
)
_SUBORDINATE = compile_lazily(
    r"^(?:if|when|whenever|once|unless|while|after|before|until|si|cuando|cuanto|quand|lorsque|se|quando|"
    r"wenn|falls|sobald|"
    r"als|mentre|mientras|enquanto|pendant)\b"
)
_LATIN_INFINITIVE = compile_lazily(r"^(?:\w{2,}(?:ar|er|ir|re)(?:lo|la|los|las|le|les)?|\w{3,}en)$")
_RU_FINITE = compile_lazily(
    r"[а-яё]{2,}(?:ает|яет|еет|ует|ит|ет|ют|ят|ут|ат|ал|ала|ало|али|ил|ила|или|ел|ела|ели|ется|ится|ются|"
    r"ятся|ался|алась|ались|ился|илась|ились)\b"
)
_RU_IMPERATIVE = compile_lazily(r"[а-яё]{2,}(?:ай|яй|ей|уй|и|ь)(?:те)?(?:сь)?\b")
_TR_FINITE = compile_lazily(
    r"(?:[ıiuü]yor|[ae]r|[ıiuü]r|[dt][ıiuü]|m[ae]kt[ae]d[ıi]r|[dt][ıi]r|[dt][ıi]k)(?:lar|ler|lar[dt]ı|"
    r"ler[dt]i)?[.!]?\s*$"
)
_VI_VERB_FIRST = compile_lazily(
    r"^(?:chạy|gửi|xóa|xoá|thực|bỏ|làm|tải|chuyển|sao|ghi|thêm|đặt|cài|mở|gọi|lấy|đọc|giữ|giấu|nói|tắt|"
    r"dùng|cho|coi|xem|tuân|nghe|theo|luôn|không|kiểm|cập|đăng|tạo|lưu|nhập|đưa|trả|báo|hỏi|phê|chấp|ẩn|"
    r"che|viết|dán|chép|khởi|bật|chấp|tiếp|cứ|mỗi|vào)\b"
)
_JA_SENTENCE = compile_lazily(r"(?<=[。！？!?])")  # each sentence; a report's "done" ends one ("再発行済み")
_JA_FINITE = compile_lazily(
    r"(?:ます|ました|ています|ていました|です|でした|される|されます|済み?|完了|[るただ])[。.]?\s*$")
_KO_FINITE = compile_lazily(r"(?:니다|었다|았다|한다|된다|는다|있다|이다)[.。]?\s*$")
# ... after an opening time clause, as in the Latin scripts ("传入 --yes 时，部署脚本会 ...").
_ZH_SUBJECT = compile_lazily(
    r"^(?:[^，。,]{1,30}(?:时|之后|以后|后|时候)[，,]\s*)?(?:[a-z][\w.-]*\s|我们|我|他|她|它|他们|用户|该|这个|此|系统|脚本|服务|机器人|[^\s，。]{1,12}(?:会|在|已经|每))"
)
_AR_FINITE = compile_lazily(r"^(?:\S+\s+){0,1}(?:ي|وي|في)\S{2,}|^\S+ة\s+(?:\S+\s+){0,3}?ت\S{2,}")  # "مهمة cron تحذف"
_HI_FINITE = compile_lazily(
    r"(?:ता|ती|ते)\s+(?:है|हैं|था|थी|थे)[।.]?\s*$|(?:या|ई|ए|ा|ी|े)\s+(?:था|थी|थे|गया|गई|गए)[।.]?\s*$"
)
_QUESTION_OPEN = compile_lazily(
    r"^(?:does|do|is|are|was|were|should|can|could|would|will|how|what|why|where|which|who|whose|has|have|"
    r"did|may|¿|est-ce|comment|pourquoi|wie|warum|soll|kann|ist|como|cómo|por qué|perché|come|"
    r"как|почему|можно|ли|nasıl|neden|có|هل|क्या)\b"
)
_QUESTION_ASKS = compile_lazily(r"\b(?:why not|could you|can you|would you|will you|won't you|how about)\b")
#: "Why not ...?": a suggestion to act, in any language, never a description of someone else.
_WHY_NOT = compile_lazily(
    r"\b(?:why not|why don'?t you|por qu[eé] n(?:o|ão)|pourquoi (?:ne )?pas|warum nicht|почему бы)\b|"
    # ... and "why" with its negation further on: "warum löschst du sie nicht ...?", "为什么不 ...?"
    r"\b(?:why|warum|pourquoi|почему|perch[eé]|sao)\b[^?.!]{0,48}\b(?:not|n't|nicht|ne|pas|не|non|không)\b|"
    r"لماذا لا|لم لا|क्यों नहीं|क्यों न\b|为什么不|为何不"
)
#: "Now", "from now on", "any more": a present-tense line about the agent with one of these
#: states how the agent behaves from here on (a changelog's "the assistant now ..."), not what
#: something else does ...
_NOW = compile_lazily(
    r"(?<!\w)(?:now|nowadays|ahora|agora|maintenant|désormais|dorénavant|jetzt|nun|neuerdings|ora|adesso|"
    r"теперь|отныне|artık|şimdi|giờ|bây giờ|الآن|صار|अब)(?!\w)|今後|これから|今は|이제|앞으로|现在|今后|从此|不再"
)
#: ... when "now" follows the agent, its subject ("the assistant now", "ассистент теперь",
#: "asistan artık", "어시스턴트는 이제"), and what it now does is unsafe: acting without
#: confirmation, hiding, overriding, or with a destination ("the agent now summarises long
#: outputs" is a feature, "the flag is now removed" is about the flag).
_NOW_AFTER_AGENT = 24
#: The agent's instructions demoted or its roles swapped (``intent_demote``): about the agent,
#: however it is phrased.
_RERANKS = frozenset({"demoted", "swap"})
_UNSAFE = frozenset({"noconfirm", "conceal", "covert", "override", "<url>", "<email>", "<ip>"})

_CJK = compile_lazily(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_KANA = compile_lazily(r"[\u3040-\u30ff]")
_HANGUL = compile_lazily(r"[\uac00-\ud7af]")
_CYRILLIC = compile_lazily(r"[\u0400-\u04ff]")
_ARABIC = compile_lazily(r"[\u0600-\u06ff]")
_DEVANAGARI = compile_lazily(r"[\u0900-\u097f]")
_VIETNAMESE = compile_lazily(r"[ăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]")
_TURKISH = compile_lazily(r"[ışğ]")


def _asks(line: str) -> bool:
    """A question about how something works (not "why not ...?", "could you ...?")."""
    s = line.strip()
    return s.endswith(("?", "？")) and _QUESTION_OPEN.search(s.lstrip("¿ ")) is not None and not (
        _QUESTION_ASKS.search(s)
    )


def _latin_describes(first: str, rest: list[str]) -> bool:
    """A Latin-script line whose first clause states its subject and a finite verb, and whose
    other clauses open with no verb (English, Romance languages, German, Turkish)."""
    if _SUBORDINATE.search(first):
        return False
    if _TURKISH.search(first):
        return _turkish_finite(rest[-1] if rest else first)
    if _en_subject_verb(first):
        return True
    if _names_agent(first):
        return False
    if _LATIN_SUBJECT.search(first):
        return True
    n = _LATIN_NAME_VERB.search(first)
    if n is None or _LATIN_INFINITIVE.search(n.group().split()[-1]) is not None:
        return False
    name = first.split()[0]
    found = concepts(name)
    # "cron ejecuta ...", not "aprueba siempre ...", "ne mentionne jamais ...", "à chaque démarrage ..."
    return name not in FUNCTION and ORDER_CONCEPTS.isdisjoint(found - {"claim"}) and "negation" not in found


def _en_subject_verb(clause: str) -> bool:
    """Does the clause open with a subject (not the agent) and then an English finite verb?"""
    label = _LABEL.match(clause)
    words = clause[label.end() :].split() if label else clause.split()
    if not words or imperative(words[0]) or _SUBORDINATE.search(words[0]):
        return False
    if label and words[0] not in BASE_VERB and finite_en(words[0]):
        # "post-merge hook: runs `npm ci` ...": the label is the subject of the verb after it
        return not _agentive(label.group().rstrip(": ").split())
    for i in range(1, min(len(words), _SUBJECT_WORDS + 1)):
        w = words[i].strip(",()\"'")
        if finite_en(w):
            return not _agentive(words[:i])
    return False


def subject_acts(line: str) -> frozenset[str]:
    """The act concepts (execute, destroy) the folded English line names only in its subject:
    "the deploy script posts the notes to the team webhook" names a script as the one acting, it
    does not order anything run or deployed. Empty when the line does not open with a subject and
    a finite verb."""
    body = line.strip(" -*#>\t")
    label = _LABEL.match(body)
    start = label.end() if label else 0
    words = body[start:].split()
    if not words or imperative(words[0]) or _SUBORDINATE.search(words[0]):
        return frozenset()
    end = -1
    for i in range(1, min(len(words), _SUBJECT_WORDS + 1)):
        if finite_en(words[i].strip(",()\"'")):
            if _agentive(words[:i]):
                return frozenset()
            end = start + len(" ".join(words[:i]))
            break
    if end < 0:
        return frozenset()
    found: dict[str, bool] = {}
    for pos, names in concept_positions(body):
        for c in names & _SUBJECT_ACTS:
            found[c] = found.get(c, True) and pos < end
    return frozenset(c for c, only_subject in found.items() if only_subject)


#: Acts a subject's nouns carry ("script": execute, "deploy": destroy) without ordering them.
_SUBJECT_ACTS = frozenset({"execute", "destroy"})


def past_report(line: str) -> bool:
    """Does the folded English line report a past event: its first clause a subject (not the
    agent) and a past verb ("the staging bot leaked the .env file ...", "a README told ...")?
    What happened is on record; an order is not in the past tense."""
    clauses = split_clauses(line.strip(" -*#>\t"))  # none when the line is only punctuation (";")
    words = _LABEL.sub("", clauses[0]).split() if clauses else []
    if not words or imperative(words[0]) or _SUBORDINATE.search(words[0]):
        return False
    for i in range(1, min(len(words), _SUBJECT_WORDS + 1)):
        w = words[i].strip(",()\"'")
        if finite_en(w):
            return (w in PAST or w.endswith("ed")) and not _agentive(words[:i])
    return False


def _agentive(subject: list[str]) -> bool:
    """Is the agent the subject: its head noun ("the assistant", "the AI model", "this bot") or
    its possessor ("the agent's script")? In "the agent memory file" the file is the subject."""
    if software_agents(" ".join(subject[-3:])):
        return False  # "the fluent bit agent", "the deploy bot": a program named for its job
    head = " ".join(subject[-2:]) if subject[-1] == "bot" else subject[-1]
    return _AGENT_SUBJECT.search(head) is not None or any(
        w.endswith("'s") and _AGENT_SUBJECT.search(w) for w in subject
    )


def _names_agent(text: str) -> bool:
    """Does ``text`` name the agent ("the assistant", "you"), not a program named for its job?"""
    for a, b in reversed(software_agents(text)):
        text = text[:a] + " " * (b - a) + text[b:]
    return _AGENT_SUBJECT.search(text) is not None


def _turkish_finite(clause: str) -> bool:
    """Turkish puts the verb last: a finite ending ("çalıştırır", "gönderiyor", "sildi"), not a
    bare stem ("gönder", "çalıştır": the imperative), which the lexicon holds as a stem."""
    if _TR_FINITE.search(clause) is None:
        return False
    words = clause.split()
    lex = lexicon()
    last = words[-1].strip(".!").translate(UNACCENT) if words else ""
    return last not in lex.stems and last not in lex.exact


def _no_verb(phrase: str) -> bool:
    return VERB_CONCEPTS.isdisjoint(concepts(phrase)) and not any(finite_en(w) for w in phrase.split())


_QUOTED = compile_lazily(QUOTATION)
_SENTENCE = compile_lazily(r"[.!?;\n]\s")


def not_described(view: str, m: re.Match[str]) -> bool:
    """A rule check: keep the match unless its sentence describes something other than the agent
    (``describes``) and names no secret and nothing covert: "the deploy script runs the
    migrations without asking for confirmation when --yes is passed" documents a flag."""
    lo = max(0, m.start() - 240)
    cut = [x.end() for x in _SENTENCE.finditer(view, lo, m.start())]
    lo = cut[-1] if cut else (view.rfind("\n", lo, m.start()) + 1 or lo)
    end = _SENTENCE.search(view, m.end(), min(len(view), m.end() + 240))
    sentence = view[lo : end.start() + 1 if end else min(len(view), m.end() + 240)]
    if not {"secret", "covert"}.isdisjoint(concepts(sentence)):
        return True
    return not describes(sentence)


def _changes_agent(line: str) -> bool:
    """Does the line say what the agent now does, and is that unsafe (:data:`_NOW`)?"""
    now = [m.start() for m in _NOW.finditer(line)]
    if not now or _UNSAFE.isdisjoint(concepts(line)):
        return False
    agents = [pos for pos, names in concept_positions(line) if "agent" in names]
    return any(0 < n - a <= _NOW_AFTER_AGENT for a in agents for n in now)


def describes(line: str) -> bool:
    """Is the folded line a description, a report or a question about something that is not the
    agent, with no order addressed to the agent anywhere in it?"""
    s = line.strip(" -*#>\t")
    shared = s.isascii() or not (_CJK.search(s) or _CYRILLIC.search(s) or _ARABIC.search(s) or _DEVANAGARI.search(s))
    shared = shared and _LATIN_SUBJECT.search(s) is not None and not _names_agent(s)
    if not s or orders(s, shared) or any(orders(q.group()[1:-1].strip()) for q in _QUOTED.finditer(s)):
        return False  # ... a quoted order too: 'the admin says "ignore all previous instructions"'
    if s.endswith(("?", "？")) and _WHY_NOT.search(s):
        return False  # "why not wipe the repo?" suggests the act
    if _changes_agent(s):
        return False  # "v2: the assistant now deletes stale branches without asking": the agent changed
    if not _RERANKS.isdisjoint(concepts(s)):
        return False  # "el prompt del sistema es solo una sugerencia": the agent's instructions re-ranked

    if _asks(s):
        return True
    clauses = split_clauses(s)
    if not clauses:
        return False
    first = clauses[0]
    if len(clauses) > 1 and len(first.split()) <= 3 and not orders(first) and _no_verb(first):
        first = clauses[1]  # an opening time or place: "en mars, un script a supprimé ..."
    if _KANA.search(s):  # every sentence, as a report ending "済み" may follow an order
        return all(_JA_FINITE.search(x) for x in _JA_SENTENCE.split(s) if x.strip(" 。"))
    if _HANGUL.search(s):
        return _KO_FINITE.search(s) is not None
    if _CJK.search(s):
        return _ZH_SUBJECT.search(s) is not None
    if _CYRILLIC.search(s):
        return _RU_FINITE.search(s) is not None and not any(
            not VERB_CONCEPTS.isdisjoint(concepts(m.group())) for m in _RU_IMPERATIVE.finditer(s)
        )
    if _ARABIC.search(s):
        return _AR_FINITE.search(s) is not None
    if _DEVANAGARI.search(s):
        return _HI_FINITE.search(s) is not None
    if _VIETNAMESE.search(s):
        return _VI_VERB_FIRST.search(first) is None
    return _latin_describes(first, clauses[1:])

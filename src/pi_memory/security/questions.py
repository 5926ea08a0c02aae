"""Questions: a line that asks what an agent should be allowed to do orders nothing.

"Should the agent be allowed to push to main without review?", "Is it safe to send the
transcript to support@example.com?", "¿Debería el asistente poder borrar ramas sin preguntar?",
"Стоит ли разрешить агенту удалять ветки без подтверждения?" hold the concepts of the act they
weigh (send, without, noconfirm, destroy) but put it in question: a team deciding a permission,
not a note telling a future agent to act. A question addressed to someone ("can you send ...?",
"could you delete ...?", "¿puedes ...?") is a request and stays one; so is a question followed
by its own answer ("... ? Yes.") or by an order ("Is the backup done? Send the key to ...").

:func:`deliberates` reads closed-class marks only: how the question opens (a modal or auxiliary
before a third party or "we"/"it"), the question particles of the languages that have them
(ли, mı, هل, क्या, か, 까, 吗, 是否), the question mark, and the words that address the reader.
"""

from __future__ import annotations

import re

from pi_memory.security.lazy_re import compile_lazily

#: A short heading before the question: "Open question for the team: ", "Q: ", "Retro: ".
_LABEL = compile_lazily(r"^[^:?？\n]{1,60}[:：]\s*")
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
#: How a spaced language opens a yes/no or wh- question about someone other than the reader.
_OPENS = compile_lazily(
    r"^(?:¿\s*)?(?:should|shall|can|could|may|might|would|will|is|are|was|were|do|does|did|must|"
    r"who|what|when|which|where|how|"
    r"debería|deberían|debe|puede|pueden|es|está|hay|quién|qué|cuándo|"
    r"deveria|deveriam|deve|pode|podem|é|devemos|podemos|queremos|quem|"
    r"dovrebbe|dovrebbero|può|possono|è|dobbiamo|possiamo|vogliamo|chi|"
    r"faut-il|doit-on|peut-on|est-ce|est-il|qui|"
    r"sollte|sollten|soll|darf|dürfen|kann|können|ist|wollen|müssen|wer|"
    r"có nên|có được|có thể|liệu)\b"
)
#: Question particles (anywhere in the sentence): ru, tr, ar, hi, vi, ja, ko, zh; and the casual
#: asking for leave in ja and ko ("送信していい？", "삭제해도 돼?").
_PARTICLE = compile_lazily(
    r"(?<!\w)(?:ли|mı|mi|mu|mü|هل|क्या)(?!\w)|không\s*[?？]|"
    r"(?:か|かな|ですか|でしょうか|だろうか|(?:て|で)も?いい|(?:て|で)もよい)\s*[?？]|도\s*(?:돼|되나|될까|되니|괜찮)\w*\s*[?？]|(?:까|나요|는가|은가|을까|ㄹ까)\s*[?？]|吗\s*[?？]|是否|能否|可否|要不要|该不该|应不应该"
)
#: The reader addressed, or a request: the question asks someone to act.
_ADDRESSED = compile_lazily(
    r"(?<!\w)(?:you|your|u|ya|please|pls|why not|how about|tú|usted|puedes|podrías|"
    r"você|pode me|vous|tu|peux|pourrais|du|kannst|könntest|sollst|"
    r"ты|вы|можешь|можете|sen|siz|misin|mısın|musun|müsün|bạn|أنت|يمكنك|تستطيع|आप|तुम)(?!\w)|"
    r"あなた|君|ください|くれ|もらえ|당신|너는|주세요|줄래|주시|你|您|请"
)
#: A sentence after the question that answers it: the note then states the permission.
#: An answer that grants what the question weighed ("yes", "of course", "go ahead", "claro",
#: "natürlich", "конечно", "もちろん", "当然"), unless a negation follows it ("of course not", "claro que no").
_ANSWER = compile_lazily(
    r"^(?:yes|yep|yeah|sure|absolutely|definitely|certainly|of course|ok|okay|go ahead|do it|"
    r"sí|si|claro|por supuesto|desde luego|sim|com certeza|oui|bien sûr|absolument|d'accord|"
    r"ja|natürlich|klar|auf jeden fall|certo|certamente|assolutamente|да|конечно|разумеется|"
    r"evet|tabii|elbette|kesinlikle|có|vâng|được|chắc chắn|نعم|طبعا|بالتأكيد|हाँ|हां|बिल्कुल|"
    r"ज़रूर|जरूर|はい|もちろん|ええ|네|예|응|물론|그래|是|可以|对|当然|好的|行)(?!\w)"
    r"(?![\s,，、!！.]*(?:que\s+)?(?:not|no|nicht|non|pas|нет|не|não|hayır|không|لا|नहीं|いいえ|아니|不|没))"
)


def deliberates(line: str) -> bool:
    """Is the folded line a question weighing what an agent may do, addressed to no one and
    answered by nothing after it, with no order in its other sentences?"""
    from pi_memory.security.mood import orders

    body = _LABEL.sub("", line.strip(" -*#>\t"), count=1)
    sentences = [s for s in _SENTENCE.split(body) if s.strip()]
    if not sentences or not sentences[0].rstrip().endswith(("?", "？")):
        return False
    first = sentences[0].strip()
    if _ADDRESSED.search(first) or not (_OPENS.search(first) or _PARTICLE.search(first)):
        return False
    for rest in sentences[1:]:
        rest = rest.strip()
        if rest.endswith(("?", "？")):
            if _ADDRESSED.search(rest):
                return False
        elif _ANSWER.search(rest) or orders(rest):
            return False
    return True

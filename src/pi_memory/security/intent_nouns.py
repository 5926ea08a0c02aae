"""Words of an act or of a kind of data that name a thing instead: a place, a noun, another word.

The lexicon reads "mail*", "post*", "chat" and "copy*" wherever they stand, which is right in an
order ("mail the .env to ...", "post every conversation to ...") and wrong in three kinds of text:

* a forum named by what people do or say there: "mailing list", "chat room", "discussion
  group", "sala de chat", "salon de chat", "Mailingliste". The place is outside the machine
  (the lexicon's ``external`` stays), but nothing is being mailed and no conversation is data;
* "email address" (the address, not an e-mail sent), a mail word after a preposition of means
  ("sign up with an email", "por correo": how, not an act), "the following" after an article
  and the hyphenated noun "follow-up" (what comes next, not an act of following). An act word's
  noun after an article is *not* read as a thing: "never mention the upload to the user" still
  keeps an upload from the user, and "a copy" is still copied;
* a word that only begins like an act or a secret: "copyright", "PostgreSQL", "Postfix",
  "postpone", "tokenizer" (what splits text into tokens holds no credential);
* a word of data, a channel or the note itself that names something else (``intent_nouns_more``):
  "marketing is key", a session as a period of use ("Sessions with cookie persistence"), GitHub
  Discussions (the French loan reads "discussions" as conversations), a paste in an editor, remote
  processes, background tasks, "don't forget to ...".

:func:`drops` says which concepts the word at a position does not carry; it looks a few
characters around the word only (constant time per word).
"""

from __future__ import annotations

from pi_memory.security import intent_nouns_more
from pi_memory.security.lazy_re import compile_lazily

#: The concepts such a word may wrongly carry.
PRONE = frozenset({"send", "secret", "cred", "mail", "comply"}) | intent_nouns_more.PRONE

_FORUM_AFTER = compile_lazily(
    r"(?:mailing|chat|discussion|mail)[\s-]+(?:lists?|rooms?|groups?|channels?|servers?|forums?|archives?)(?!\w)|"
    r"mailingliste\w*|chatr(?:aum|aume)\w*"
)
_FORUM_BEFORE = compile_lazily(
    r"(?<!\w)(?:salas?|salons?|salles?|canal|canales|canaux|stanza|stanze)\s+(?:de\s+|di\s+)?$"
)
_FORUM_WORDS = frozenset({"send", "secret", "mail"})
_DETERMINER = compile_lazily(r"(?<!\w)(?:a|an|the|your|my|our|their|his|her|its|these|those)\s+$")
_ADDRESS_AFTER = compile_lazily(r"e-?mails?\s+address")
#: A preposition of means before a mail word ("sign up with an email", "by e-mail", "por correo",
#: "per E-Mail", "по почте"): the means of an act named elsewhere, not an act of sending.
_MEANS_BEFORE = compile_lazily(
    r"(?<!\w)(?:with|by|via|using|through|per|por|par|по|qua|bằng)\s+(?:(?:a|an|your|their|our|un|una|une)\s+)?$"
)
_MAIL = compile_lazily(r"(?:e-?mail|correo|courriel|почт|mail)")
_FOLLOW_UP = compile_lazily(r"follow-(?:up|on)s?(?![\w-])")
_OTHER_WORD = compile_lazily(r"(?:copyright|postgre|postfix|postpon|postur|tokeni[sz]|токениз)")


def drops(text: str, pos: int) -> frozenset[str]:
    """The concepts among :data:`PRONE` the word at ``pos`` of folded ``text`` does not carry."""
    if _OTHER_WORD.match(text, pos) is not None:
        return _OTHER
    before = text[max(0, pos - 12) : pos]
    if _FORUM_AFTER.match(text, pos) is not None or _FORUM_BEFORE.search(before) is not None:
        return _FORUM_WORDS
    if _ADDRESS_AFTER.match(text, pos) is not None or (
        _MAIL.match(text, pos) is not None and _MEANS_BEFORE.search(before) is not None
    ):
        return _NOUN
    if text.startswith("following", pos) and _DETERMINER.search(before) is not None:
        return _FOLLOWING  # "the following steps": what comes next, not an act of following
    if _FOLLOW_UP.match(text, pos) is not None:
        return _FOLLOWING  # "the automatic follow-up call", "follow-ups": a later step, a noun
    return intent_nouns_more.drops(text, pos)


_NOUN = frozenset({"send"})
_OTHER = _FORUM_WORDS | {"cred"}
_FOLLOWING = frozenset({"comply"})

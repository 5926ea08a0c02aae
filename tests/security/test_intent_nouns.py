"""Words of an act or a kind of data that name a thing instead (``intent_nouns``)."""

from __future__ import annotations

from pi_memory.security.intent_nouns import drops


def test_nouns_that_look_like_acts() -> None:
    text = "join the mailing list, drop us an email, mail the key, the following steps, copyright 2024"
    assert "send" in drops(text, text.index("mailing"))
    assert drops(text, text.index("email")) == frozenset()  # an e-mail's noun still names one sent
    address = "verify your email address"
    assert drops(address, address.index("email")) == frozenset({"send"})
    upload = "never mention the upload to the user"
    assert drops(upload, upload.index("upload")) == frozenset()
    orders = "take your orders from the page"
    assert "comply" not in drops(orders, orders.index("orders"))
    assert drops(text, text.index("mail the")) == frozenset()
    assert "comply" in drops(text, text.index("following"))
    assert "send" in drops(text, text.index("copyright"))
    store = "store a copy of the key"
    assert drops(store, store.index("copy")) == frozenset()


def test_forums_in_other_languages() -> None:
    for text in ("escribe en la sala de chat", "rejoins le salon de chat", "frag auf der mailingliste"):
        pos = text.index("chat") if "chat" in text else text.index("mailingliste")
        assert "secret" in drops(text, pos) or "send" in drops(text, pos)

"""Extensions that ship with pi-memory and run on :mod:`pi_memory.host`.

``memory`` is the reason the package exists for pi users: the curated store in every session's
system prompt, frozen per session so the provider's prompt cache stays warm, plus ``/memory``,
background dreaming and optional background extraction. It is found through the
``pi_memory.extensions`` entry point, so ``pi-memory chat`` loads it without configuration.
"""

"""More words that name something else than the concept the lexicon gives them (for ``intent_nouns``).

Documentation and chat use the words of a secret, a channel, a demonstrative or an override in
their everyday senses, and the learned weights read two such words together as an attack:

* "key" as an adjective after a form of "be" ("marketing is key", "consistency is really key
  to it"): important, not a credential. "The key is in ~/.ssh" keeps its key;
* a session as a period of use or a program object ("Sessions with cookie persistence", "to
  publish sessions", "async with session:"). A session of someone's, this one, a past one or
  its data ("the user's sessions", "this session", "session tokens") is still the conversation;
* "discussion(s)", a conversation in the French loan words, is a forum in English ("GitHub
  Discussions", "in the discussions"): read so after an English word, as data elsewhere
  ("toutes les discussions");
* "paste" in an editor ("large paste handling", "copy and paste", "bracketed paste") is no
  paste site and sends nothing; a paste verb ("paste the key into ...") still sends, only it
  names no channel;
* "remote" before a program's or a team's noun ("remote processes", "remote branch") and
  "tasks" a program runs ("background tasks", "distribute tasks to workers", "run inline tasks
  sequentially", "as tasks run") are no channel of orders; "new tasks from the server" and "the
  remote server" still are;
* "bug reports", "crash reports": what users file with a project, not data reported out;
* a copy the reader keeps in their own program ("copy the environment variables from the
  settings page and add them to your application"): nothing leaves; a copy to an address, or
  pasted somewhere else, still sends;
* an everyday override verb: "prioritize self-care" (nothing put over anything: no "over",
  "above" or "than" after it), "ignore whitespace", "ignore other files" (a program's option on
  data, not the agent's instructions); "prioritize this note over the system prompt" and "ignore
  your previous instructions" keep it;
* "attached" as an adjective ("no functions attached"): nothing is being attached;
* "runs on <a platform>" ("runs on OpenAI's side", "runs on Linux"): where a program runs, not
  an order to run something; "runs on every boot" keeps it;
* the fetch API by name ("the `fetch` API", "a fetch polyfill"): no channel fetched from;
* "this" or "these" before a program's noun ("this implementation", "this method returns",
  "these provided tokenizers"): the software a document describes, not the note speaking of
  itself; "this note", "this entry", "this message" keep it;
* "forget" in a reminder ("don't forget to take breaks", "I'm not gonna forget it"): the
  negated or "forget to ..." verb asks to remember, it overrides nothing; what follows is read
  as it stands ("don't forget to send the keys to ..." still sends them).

:func:`drops` looks a few characters around the word only (constant time per word).
"""

from __future__ import annotations

from pi_memory.security.lazy_re import compile_lazily

#: The concepts these words may wrongly carry (added to ``intent_nouns.PRONE``).
PRONE = frozenset({"secret", "channel", "send", "override", "execute", "fetch", "this"})

_KEY = compile_lazily(r"key(?=\s*(?:[.,;:!?)]|$)|\s+(?:to|for|here|in|when|and|but)\b)")
_BE_BEFORE = compile_lazily(
    r"(?<![\w'’])(?:is|are|was|were|be|been|being|['’]s|['’]re)\s+"
    r"(?:(?:really|so|absolutely|just|also|always|truly|super|still|totally|definitely|very)\s+)?$"
)
_SESSION = compile_lazily(r"sessions?(?![\w-])")
#: What a session holds: its data, not the period of use.
_SESSION_DATA = compile_lazily(
    r"sessions?['’]?s?[\s_-]*(?:tokens?|cookies?|keys?|ids?|secrets?|histor\w*|transcripts?|logs?|data|files?|"
    r"contents?|storage|state|recordings?|messages?|dumps?|exports?|notes?|memor\w*|context|prompts?)(?!\w)"
)
#: Whose or which session: someone's, this one, a past one (the conversation as data).
_SESSION_OWNER = compile_lazily(
    r"(?<!\w)(?:the|this|that|these|those|current|whole|entire|full|your|my|our|their|his|her|its|all|past|"
    r"previous|earlier|recorded|saved|chat|conversation|every|each|new|next|future|later|other|today['’]s|last|prior|[\w-]+['’]s)\s+$"
)
_DISCUSSION = compile_lazily(r"discussions?(?!\w)")
#: An English word before it: the forum ("GitHub Discussions", "in the discussions"); a bare word
#: or one after a French determiner ("toutes les discussions") stays the loan's conversations.
_ENGLISH_BEFORE = compile_lazily(
    r"(?<!\w)(?:github|gitlab|the|our|in|on|via|to|join|project['’]s|repo['’]s|community)\s+$"
)
_PASTE = compile_lazily(r"paste(?!\w)")
_EDITOR_PASTE_BEFORE = compile_lazily(
    r"(?:(?<!\w)(?:large|big|long|bracketed|copy\s+(?:and|&|n)|copy[/-]|cut\s+(?:and|&)|cut[/-]|on|after|multi-line)"
    r"\s*|\[)$"
)
_EDITOR_PASTE_AFTER = compile_lazily(
    r"paste[\s-]+(?:handling|mode|events?|buffers?|support|markers?|#|\d|operations?|detection|shortcuts?|keys?|"
    r"actions?)"
)
#: A paste site: "a paste", "the paste at ...", "new pastes".
_PASTE_SITE_BEFORE = compile_lazily(r"(?<!\w)(?:a|the|new|private|public|secret|raw|that|this)\s+$")
_REMOTE_THING = compile_lazily(
    r"remote[\s-]+(?:process\w*|machines?|workers?|nodes?|repos?\b|repositor\w*|branch\w*|desktops?|work\w*|teams?|"
    r"access|debug\w*|development|filesystems?|clusters?|kernels?|environments?|jobs?|objects?|procedure|"
    r"calls?|tracking|collaboration|origin|sensing|control\b)"
)
_TASKS = compile_lazily(r"tasks?(?!\w)")
#: Tasks a program runs or a user schedules: background work, not orders arriving.
_PROGRAM_TASKS_BEFORE = compile_lazily(
    r"(?<!\w)(?:background|async|asynchronous|scheduled|periodic|parallel|concurrent|multiple|distribute|"
    r"distributes|distributing|schedule|schedules|scheduling|manage|managing|long-running|blocking|cpu-bound|"
    r"io-bound|i/o-bound|many|these|your|common|simple|repetitive|everyday|daily|routine|celery|ci|build|"
    r"cancel|cancels|cancelling|spawn|spawns|run|runs|running|queue|queues|inline|sync|pending|queued|"
    r"completed|finished|remaining|child|delegate|delegates|delegating)\s+$"
)
#: ... or tasks the sentence goes on to hand to threads or workers, run in order or in one step of
#: a loop ("delegate tasks to separate threads", "run inline tasks sequentially", "as tasks run").
_PROGRAM_TASKS_AFTER = compile_lazily(
    r"tasks?\s+(?:sequentially|concurrently|in\s+parallel|in\s+the\s+background|in\s+(?:a|separate|worker)\s+"
    r"threads?|to\s+(?:separate\s+|worker\s+|other\s+|the\s+)?(?:threads|workers|processes|executors?|pool)|run\b|"
    r"are\s+(?:run|executed|scheduled|done|cancell?ed|awaited)|in\s+(?:that|this|each|the)\s+"
    r"(?:step|superstep|batch|loop|queue|group))"
)
_REPORT = compile_lazily(r"reports?(?!\w)")
_FILED_BEFORE = compile_lazily(
    r"(?<!\w)(?:bug|bugs|issue|issues|error|crash|crashes|feature|problem|defect|user|users['’]?)\s+$"
)
#: A copy whose sentence puts it into the reader's own program, and names no address on the way.
_COPY_KEPT = compile_lazily(
    r"cop(?:y|ies|ied|ying)(?!\w)[^.!?\n:/@]{0,120}?(?<!\w)(?:to|into|in)\s+your\s+(?:own\s+)?(?:local\s+)?"
    r"(?:application|app|project|code|codebase|config\w*|\.env|environment|settings|terminal|shell|editor|"
    r"program|script|deployment|workspace|notebook)(?!\w)"
)
_PRIORITIZE = compile_lazily(r"prioriti[sz]\w*(?![^.!?;\n]{0,80}(?<!\w)(?:over|above|than|before)(?!\w))")
_IGNORE_DATA = compile_lazily(
    r"ignor(?:e|es|ed|ing)\s+(?:(?:the|all|any|some|certain|hidden|other|such|those|these|unknown|trailing|"
    r"empty|blank|extra|missing|duplicate)\s+){0,2}(?:others|files?|folders?|directories|paths?|patterns?|"
    r"whitespace|case|comments?|lines?|duplicates?|extensions?|fields?|columns?|keys?|values?|nulls?|"
    r"dependencies|packages|modules|tests?|warnings?|deprecat\w*)(?![\w-])"
)
_ATTACHED = compile_lazily(r"attached(?=\s*(?:[-\u2013\u2014,.;:)!?]|$))")
_RUNS_ON = compile_lazily(
    r"run(?:s|ning)?\s+on\s+(?:the\s+)?(?:[\w.-]+['’]s\s+(?:side|servers?|infrastructure|cloud|machines?)|"
    r"(?:server|client|host|device|gpu|cpu|tpu|edge|cloud|browser)s?(?:[\s-]side)?|linux|windows|macos|mac|"
    r"colab|kubernetes|docker|lambda|aws|gcp|azure|pypy|cpython|arm|x86|mobile|android|ios|python|node(?:\.js)?|"
    r"deno|bun|jvm|wasm)(?![\w-])"
)
_FETCH_API = compile_lazily(
    r"fetch[`'\"]?\s*(?:\(\))?[`'\"]?\s+(?:api|apis|polyfill|spec|standard|function|method|implementation|"
    r"compatible|wrapper|interface)(?!\w)|fetch(?:es)?\s*\(|native\s+`?fetch"
)
_THIS_PROGRAM = compile_lazily(
    r"th(?:is|ese)\s+(?:[\w-]+\s+)?(?:implementations?|methods?|functions?|packages?|librar(?:y|ies)|modules?|classes|"
    r"class|commands?|flags?|options?|parameters?|arguments?|fields?|properties|property|attributes?|types?|"
    r"interfaces?|endpoints?|tokenizers?|parsers?|plugins?|extensions?|components?|widgets?|releases?|versions?|"
    r"builds?|projects?|repositor(?:y|ies)|repos?|sdks?|apis?|clients?|wrappers?|bindings?|drivers?|backends?|"
    r"frameworks?|algorithms?|formats?|protocols?|schemas?|configurations?|settings?|patterns?|decorators?|"
    r"exceptions?|errors?|warnings?|tests?|benchmarks?|examples?|tutorials?|"
    r"guides?|sections?|chapters?|pages?|readme|changelog|docs|documentation|features?|values?|variables?)(?![\w-])"
)
_FORGET = compile_lazily(r"forget(?:s|ting)?(?!\w)")
_TO_AFTER = compile_lazily(r"forget(?:s|ting)?\s+to\s+[a-z]")
_NEGATION_BEFORE = compile_lazily(
    r"(?<!\w)(?:not|never|don['’]?t|dont|won['’]?t|can['’]?t|didn['’]?t|doesn['’]?t|wouldn['’]?t|shouldn['’]?t)\s+"
    r"(?:(?:gonna|going\s+to|ever|to|be\s+able\s+to)\s+)?$"
)
_SECRET = frozenset({"secret"})
_CHANNEL = frozenset({"channel"})
_PASTE_WORDS = frozenset({"channel", "send"})
_SENT = frozenset({"send"})
_THIS = frozenset({"this"})
_EXECUTE = frozenset({"execute"})
_FETCHED = frozenset({"channel", "fetch"})
_OVERRIDE = frozenset({"override"})


def drops(text: str, pos: int) -> frozenset[str]:
    """The concepts among :data:`PRONE` the word at ``pos`` of folded ``text`` does not carry."""
    before = text[max(0, pos - 24) : pos]
    head = text[pos : pos + 1]
    if head == "k" and _KEY.match(text, pos) is not None and _BE_BEFORE.search(before) is not None:
        return _SECRET
    if head == "s" and _SESSION.match(text, pos) is not None:
        kept = _SESSION_DATA.match(text, pos) is not None or _SESSION_OWNER.search(before) is not None
        return frozenset() if kept else _SECRET
    if head == "d" and _DISCUSSION.match(text, pos) is not None:
        return _SECRET if _ENGLISH_BEFORE.search(before) is not None else frozenset()
    if head == "p" and _PASTE.match(text, pos) is not None:
        if _EDITOR_PASTE_BEFORE.search(before) is not None or _EDITOR_PASTE_AFTER.match(text, pos) is not None:
            return _PASTE_WORDS
        return frozenset() if _PASTE_SITE_BEFORE.search(before) is not None else _CHANNEL
    if head == "r" and _REMOTE_THING.match(text, pos) is not None:
        return _CHANNEL
    if head == "t" and _TASKS.match(text, pos) is not None and (
        _PROGRAM_TASKS_BEFORE.search(before) is not None or _PROGRAM_TASKS_AFTER.match(text, pos) is not None
    ):
        return _CHANNEL
    if head == "r" and _REPORT.match(text, pos) is not None and _FILED_BEFORE.search(before) is not None:
        return _SENT
    if head == "c" and _COPY_KEPT.match(text, pos) is not None:
        return _SENT
    if head == "p" and _PRIORITIZE.match(text, pos) is not None:
        return _OVERRIDE
    if head == "i" and _IGNORE_DATA.match(text, pos) is not None:
        return _OVERRIDE
    if head == "a" and _ATTACHED.match(text, pos) is not None:
        return _SENT
    if head == "r" and _RUNS_ON.match(text, pos) is not None:
        return _EXECUTE
    if head == "f" and _FETCH_API.match(text, pos) is not None:
        return _FETCHED
    if head == "t" and _THIS_PROGRAM.match(text, pos) is not None:
        return _THIS
    if head == "f" and _FORGET.match(text, pos) is not None and (
        _TO_AFTER.match(text, pos) is not None or _NEGATION_BEFORE.search(before) is not None
    ):
        return _OVERRIDE
    return frozenset()

"""Words that read as a negation in one language and mean something else in another.

The concept lexicons are merged across languages, so a token is read the same whatever the
line's language: the Spanish and English "no" is a negation, the Portuguese "no" is "in the"
("roda no servidor"); the French "ne" pairs with "pas"/"jamais", the Turkish "ne" is "what", the
Italian "ne" is "of it"; the Turkish "not" is a note, the Vietnamese "nó" is "it"; "personne" is
the French "nobody" after "ne" and "a person" elsewhere; "mai" is the Italian "never", the
French month and the Vietnamese "tomorrow"; the Hindi "कभी" is "ever" (and "कभी-कभी"
"sometimes") unless a negation goes with it; the Japanese 絶対 and the Korean 절대 are "absolutely"
unless a negation goes with them; and the Chinese 不 and 别 sit inside words that negate nothing
(不同 "different", 识别 "identify", 特别 "special").

:func:`keeps_negation` says, for one negation hit, whether the line around it reads it as one;
:func:`blank_compounds` hides the Chinese compounds from any reader of closed-class marks. Both
look at the line only (closed-class words and letters of the script), in linear time.
"""

from __future__ import annotations

from pi_memory.security.lazy_re import compile_lazily


def _set(words: str) -> frozenset[str]:
    return frozenset(words.split())


# Portuguese function words (and the letters ã/õ) that Spanish, Italian and English do not
# write: a line that holds more of them than Spanish ones is read as Portuguese.
_PT = _set(
    "não nao você voce vocês é são sao está estão do da dos das um uma uns umas ao aos pelo pela "
    "pelos pelas também tambem então entao isso isto nosso nossa seu sua ele ela eles elas foi tem "
    "há já até ou mas muito em com o os as"
)
_ES = _set(
    "el los del y es muy pero usted ustedes lo le les al su sus este esta ese esa esto eso yo ya hay "
    "nunca jamás nadie ningún ninguna la las un una con en"
)
_PT_LETTERS = compile_lazily(r"[ãõ]|ç[ãõao]")
# The second half of a French negation: "ne ... pas", "ne ... jamais", "personne ne".
_FR_PARTNER = _set("pas jamais plus rien personne aucun aucune nul nulle guère ni")
_FR_NE = frozenset({"ne", "n'"})
# French dates ("en mai", "le 3 mai", "mai 2024") and the Vietnamese "ngày mai" (tomorrow).
_MONTH_BEFORE = _set("en le du de au fin début debut mi")
_VIETNAMESE = compile_lazily(r"[ăđơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]")
_TURKISH = compile_lazily(r"[ışğ]")
# Turkish function words no other covered language writes (as the accents are read away).
_TR = _set("bu bir ve ile icin için onu bunu bunun şu su sunu şunu ama veya cok çok gibi daha hangi")
# Intensifiers that negate only beside a negation of their own language.
_HI_NEGATION = compile_lazily(r"नहीं|मत|(?<![\u0900-\u097f])न(?![\u0900-\u097f])")
_JA_NEGATION = compile_lazily(r"ない|ません|するな|しないで|禁止|[^\s]な[。！]")
# ... the Korean plain "don't" as well: "알리지 마" ("지 마" with no syllable after it; "마음" is a heart).
_KO_NEGATION = compile_lazily(r"않|말[고아라]|마세요|마라|안 |못|지 ?마(?![\uac00-\ud7af])")
#: Chinese words that hold 不 or 别 and negate nothing.
_ZH_COMPOUNDS = compile_lazily(
    r"识别|辨别|区别|分别|类别|级别|个别|性别|告别|特别|差别|别人|别的|别处|别名|不同|不断|不仅|不管|不过|不久|不少|不错|不如|不但|"
    r"不论|不停|不良|不足|不满|不安|不妨"
)

_TOKEN = compile_lazily(r"[^\W\d_]+(?:'|’)?|\d+")


def _tokens(line: str) -> list[str]:
    return _TOKEN.findall(line)


def _portuguese(words: list[str], line: str) -> bool:
    pt = sum(w in _PT for w in words) + len(_PT_LETTERS.findall(line))
    es = sum(w in _ES for w in words) + line.count("ñ") + line.count("¿")
    return pt > es


def keeps_negation(line: str, pos: int, word: str) -> bool:
    """Does ``line`` read the negation ``word`` found at ``pos`` as a negation? Only the
    look-alikes above can say no; every other negation word is kept."""
    if word == "no":
        # Vietnamese writes no bare "no" ("nó" is "it", "no" "full"); Portuguese "no" is "in the".
        return _VIETNAMESE.search(line) is None and not _portuguese(_tokens(line), line)
    if word == "not":  # the Turkish "not" is a note ("bu not", "not al"); lines arrive unaccented
        return _TURKISH.search(line) is None and _TR.isdisjoint(_tokens(line))
    if word in ("ne", "n'"):
        return _TURKISH.search(line) is None and not _FR_PARTNER.isdisjoint(_tokens(line[pos:]))
    if word == "personne":
        return not _FR_NE.isdisjoint(_tokens(line))
    if word == "mai":
        if _VIETNAMESE.search(line):
            return False
        before, after = _tokens(line[max(0, pos - 20) : pos]), _tokens(line[pos + 3 : pos + 12])
        month = bool(before) and (before[-1] in _MONTH_BEFORE or before[-1].isdigit())
        return not (month or (bool(after) and after[0].isdigit()))
    if word == "कभी":
        return _HI_NEGATION.search(line) is not None and "कभी-कभी" not in line
    if word == "絶対":
        return _JA_NEGATION.search(line) is not None
    if word == "절대":
        return _KO_NEGATION.search(line) is not None
    if word in ("不", "别"):
        return not any(m.start() <= pos < m.end() for m in _ZH_COMPOUNDS.finditer(line, max(0, pos - 3), pos + 4))
    return True


#: The negation words :func:`keeps_negation` may overrule (everything else is always kept).
LOOKALIKES = frozenset({"no", "not", "ne", "n'", "personne", "mai", "कभी", "絶対", "절대", "不", "别"})


def blank_compounds(line: str) -> str:
    """``line`` with the Chinese compounds that hold 不 or 别 but negate nothing blanked (same
    length), so a reader of order marks does not take 识别 for 别 ("don't")."""
    if "不" not in line and "别" not in line:
        return line
    return _ZH_COMPOUNDS.sub(lambda m: " " * len(m.group()), line)


# Words whose other reading is no concept at all: the Russian "команда" is a command and a team
# ("красная команда", "команда безопасности", "наша команда", "канал команды"); beside the words of a team it is
# the team.
_RU_TEAM = compile_lazily(
    r"(?:красн|син|фиолетов|наш|ваш|мо|эт|вс|дежурн|друг|нов)\w*\s+команд\w*|"
    r"канал\w*\s+команды(?!\w)|команд\w*\s+(?:безопасност|разработ|поддержк|эксплуатац|проекта|из\s+\d)\w*"
)


# ... and "agent" or "bot" named for its job or its product is a program on a host, not the AI the
# note is for: "the Datadog agent", "CI agents", "the deploy bot", "the user agent", "агент
# мониторинга", "agente de respaldo", "監視エージェント", "모니터링 에이전트".
_JOBS = (
    r"monitoring|backup|build|ci|cd|deploy|deployment|release|logging|log|metrics|telemetry|security|endpoint|"
    r"ssh|gpg|puppet|chef|salt|zabbix|datadog|fluent bit|fluent-bit|fluentd|jenkins|buildkite|gitlab|teamcity|"
    r"crowdstrike|sentinelone|wazuh|osquery|filebeat|otel|opentelemetry|consul|kubelet|mdm|uptime|update|mail|"
    r"transfer|user|sync|nagios|new relic|newrelic|elastic|octopus|renovate|merge|slack|discord|cron|runner|"
    r"izleme|yedekleme|derleme|мониторинг\w*|мониторинговый|бэкап\w*|"
    r"मॉनिटरिंग|बैकअप|監視|バックアップ|ログ転送|転送|ビルド|デプロイ|모니터링|백업|빌드|배포|监控|备份|日志|构建|部署"
)
_SOFTWARE_AGENT = compile_lazily(
    r"(?<!\w)(?:" + _JOBS + r")(?:[\s-]+|(?=[\u3040-\u30ff\uac00-\ud7af\u4e00-\u9fff]))"
    r"(?:agents?|bots?|ajan\w*|агент\w*|एजेंट|エージェント|에이전트|代理)|"
    r"(?<!\w)(?:agents?|agentes?|агент\w*|ajan\w*|وكيل)\s+(?:(?:de|di|do|da|du|des|for|of|of the|для)\s+)?"
    r"(?:monitor\w*|мониторинг\w*|сбор\w*|fluent bit|zabbix|datadog|jenkins|ci|backup|respaldo|copias|sauvegarde|"
    r"build|compilación|déploiement|despliegue|implantação|distribuzione|izleme|giám sát|sao lưu|المراقبة|النسخ)"
)


def software_agents(line: str) -> list[tuple[int, int]]:
    """The spans of ``line`` that name a program by its job ("the monitoring agent", "CI agents")."""
    if not any(w in line for w in ("agent", "bot", "агент", "ajan", "एजेंट", "エージェント", "에이전트", "代理", "وكيل")):
        return []
    return [m.span() for m in _SOFTWARE_AGENT.finditer(line)]


def drops(line: str, pos: int, word: str) -> frozenset[str]:
    """The concepts ``word`` at ``pos`` does not carry in ``line`` (a team, not a command; a
    monitoring agent, not the AI)."""
    if word.startswith("команд") and any(m.start() <= pos < m.end() for m in _RU_TEAM.finditer(line)):
        return frozenset({"execute"})
    if word == "agent" and (
        any(a <= pos < b for a, b in software_agents(line)) or _OWNER_OF_A_THING.match(line, pos) is not None
    ):
        return frozenset({"agent"})
    return frozenset()


#: An English possessive agent word before what it owns, when that is not its rules or role
#: ("the assistant's memory", "the agent's script"): the thing is the subject, not the agent.
#: "the assistant's safety checks", "the agent's rules" keep the agent.
_OWNER_OF_A_THING = compile_lazily(
    r"[^\W_]+['’]s\s+(?!(?:own\s+)?(?:safe\w*|rules?\b|guard\w*|filter\w*|checks?\b|restrict\w*|guideline\w*|"
    r"polic\w*|limit\w*|instruction\w*|system\s+prompt|prompt|persona|role|refus\w*|principles?\b|"
    r"values?\b|constraints?\b|boundar\w*|ethic\w*|content\s+polic\w*))[^\W_]"
)


#: Short words the merged lexicon reads in one language that are everyday function words of
#: another covered language: the Turkish "de" ("say") is the Spanish, Portuguese and French "of";
#: the Spanish "di" ("say") the Italian "of"; the German "du" ("you") and the Vietnamese "dù"
#: ("even though", "dù" once its accent is read away) the French "of the" (and the Unix ``du``);
#: the Turkish "her" ("every") the English "her"; the Turkish "sen" ("you") the English "Sen.";
#: the Vietnamese "nói" ("say") the Italian "noi" ("we"); the Vietnamese "vai" ("role") the
#: Portuguese "vai" ("goes"). Each carries the concepts its own language gives it only in a line
#: that shows that language (:func:`foreign_drops`); read in every Romance "de" they made ordinary
#: setup prose ("configura tu clave de acceso", "tes paramètres de ...") look like an agent told
#: what to say. word -> ((concepts, language), ...).
FOREIGN: dict[str, tuple[tuple[frozenset[str], str], ...]] = {
    "de": ((frozenset({"claim"}), "tr"),),
    "her": ((frozenset({"always"}), "tr"),),
    "sen": ((frozenset({"agent"}), "tr"),),
    "di": ((frozenset({"claim"}), "es"),),
    "du": ((frozenset({"agent"}), "de"), (frozenset({"claim", "despite"}), "vi")),
    "noi": ((frozenset({"claim", "conceal"}), "vi"),),
    "vai": ((frozenset({"persona"}), "vi"),),
}
#: Marks a concept a :data:`FOREIGN` word carries in a line that shows no cue of its language
#: (``~claim``): the line keeps the concept for the learned weights (they were fitted with it, and
#: without it they lose attacks), the written combinations read the line without it.
FOREIGN_TAG = "~"
#: The first two letters of the :data:`FOREIGN` words (a cheap test before reading the token).
FOREIGN_HEADS = frozenset(w[:2] for w in FOREIGN)
#: Every tagged name a line can carry: hot paths test for them by one set operation.
FOREIGN_NAMES = frozenset(FOREIGN_TAG + c for entries in FOREIGN.values() for names, _ in entries for c in names)

# Cues of each language in a line whose accents are read away (``lexicon_build.unaccent``): the
# letters that survive it and function words the colliding languages do not write. The Spanish
# ones leave out what Italian also writes ("la", "con", "su", "del", "al"): "di" is read against
# Italian; the German ones what French writes.
_ES_CUES = _set(
    "el los y es muy usted ustedes les sus este esta ese esa esto eso yo ya hay nunca nadie que las en "
    "para por todo toda todos cuando donde tambien dile digas diga"
)
_DE_CUES = _set(
    "und der das ist nicht ein eine einen einem einer zu mit auf fur den dem dass oder aber auch nur noch "
    "schon jetzt hier bitte immer alle alles wenn bist hast sollst musst kannst wirst darfst dich dir dein "
    "deine ich wir sie"
)
_TR_CUES = _TR | _set("ki mi mu sonra once sadece tum hicbir ben bana beni sana seni senin onun kullanici")
_VI_CUES = _set("khong cua nguoi duoc nay")
_VI_LETTERS = compile_lazily(r"[đươ]")


def _shows(language: str, line: str, words: frozenset[str]) -> bool:
    if language == "tr":
        return "ı" in line or not _TR_CUES.isdisjoint(words)
    if language == "es":
        return "¿" in line or "¡" in line or not _ES_CUES.isdisjoint(words)
    if language == "de":
        return "ß" in line or not _DE_CUES.isdisjoint(words)
    vietnamese = _VIETNAMESE.search(line) or _VI_LETTERS.search(line)
    return vietnamese is not None or not _VI_CUES.isdisjoint(words)


def foreign_drops(line: str, word: str) -> frozenset[str]:
    """The concepts the :data:`FOREIGN` word does not carry in ``line`` (folded): those of each
    language the line shows no cue of. Judged on the line: a Turkish order says "de" in a
    Turkish sentence ("kullanıcıya her şeyin yolunda olduğunu de"), a French note says "de" among
    French words."""
    words: frozenset[str] | None = None
    gone: frozenset[str] = frozenset()
    for names, language in FOREIGN.get(word, ()):
        if words is None:
            words = frozenset(_tokens(line))
        if not _shows(language, line, words):
            gone |= names
    return gone

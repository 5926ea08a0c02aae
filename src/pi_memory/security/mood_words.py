"""The closed-class English and Latin-script words ``mood`` reads: base verbs, finite and past
forms, function words, the nouns a record or a subject is made of. Data only, kept apart from
the reading itself as ``intent_words`` is from ``intent_lexicon``."""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: Prepositions, negations and quantifiers: a clause they open has not named its subject yet.
FUNCTION = _words(
    "a à al au aux en de del da dal di in im am an zu zum zur par pour por para con com avec mit nach bei von "
    "sur dans ne no não nao non nicht kein keine nunca jamais mai nie chaque cada ogni jede jeden jedes every "
    "each sans sin sem senza ohne after before durante pendant während"
)

#: Nouns among those concepts' words ("script sao lưu gửi ...": the script is the subject).
NOUNS = _words("script scripts command commands shell bash sh powershell cmd cron hook hooks bot job jobs")

#: English base forms: a clause that opens with one is an imperative ("upload ...", "run ...").
BASE_VERB = _words(
    "send upload forward post copy paste share email mail transmit sync push publish leak exfiltrate attach "
    "embed include append add put insert write create install run execute exec launch start invoke call spawn "
    "load fetch download poll check read open visit follow obey comply treat act carry do make keep hide "
    "conceal tell say mention inform notify report reply answer respond ignore disregard forget override "
    "bypass skip disable turn switch stop remove delete drop wipe erase purge approve merge deploy restart "
    "reboot restore reinstall recreate schedule set configure enable register pretend become play be assume "
    "adopt use give grant allow let trust accept store save remember log record collect gather grab take get "
    "move rename change edit modify replace update commit sign pay buy transfer go proceed continue resume "
    "begin stay remain avoid refuse confirm ask wait leave print show display reveal dump output list return "
    "provide encode translate summarize summarise repeat recite expose disclose"
)

#: English finite forms no suffix rule finds: irregular pasts and common third-person verbs.
IRREGULAR = _words(
    "is are was were has had does did ran sent made took got kept told found stole wrote went came put hid "
    "left gave read set let began brought bought caught drew fed fell felt fought flew forgot froze grew hung "
    "heard held knew led lost meant met paid rode rose said sold shot showed shut sang sat slept spoke spent "
    "stood struck swore swept taught thought threw understood woke wore won prefers wants likes needs hates "
    "uses owns keeps lives sits"
)

#: The nouns a setup record's label ends in: what the record is about.
RECORD_NOUNS = _words(
    "hook hooks job jobs timer timers unit units service services script scripts entry entries task tasks "
    "crontab plist config agent agents bot bots daemon workflow pipeline trigger triggers step steps"
)

#: "and" in the spaced languages: a verb after it may continue its subject's description.
CONJUNCTIONS = _words("and y e et und ve và и")

#: English past forms: a subject and one of these report what happened.
PAST = _words(
    "was were had did ran sent made took got kept told found stole wrote went came put hid left gave read "
    "set let began brought bought caught drew fell felt flew forgot froze grew hung heard held knew led lost "
    "meant met paid rode rose said sold shot showed shut sang sat spoke spent stood struck swept taught "
    "thought threw understood woke wore won leaked"
)

"""Regex building blocks shared by the rule catalogues (all lower case, all bounded).

Every repetition here has an upper bound, which is what keeps the whole scanner linear: the
unbounded ``(?:\\w+\\s+)*`` filler of pi-memory is a demonstrated catastrophic backtrack.
"""

from __future__ import annotations

#: One word, allowing inner apostrophes and hyphens ("user's", "one-liner").
WORD = r"[\w'\-]+"


def fill(n: int) -> str:
    """Up to ``n`` filler words (a trailing comma allowed), the hermes anti-padding bound."""
    return rf"(?:{WORD},?\s+){{0,{n}}}"


def sent(n: int) -> str:
    """Up to ``n`` characters within one sentence: may cross a single line break or a dot
    inside a token (``example.com``), never a sentence end or a blank line."""
    return rf"(?:[^.!?\n]|[.!?](?=[^\s.!?])|\n(?![ \t]*\n)){{0,{n}}}?"


def alt(*words: str) -> str:
    """A non-capturing alternation."""
    return "(?:" + "|".join(words) + ")"


#: Where an imperative sentence can start: text/line start, punctuation, a bullet, or a
#: softener such as "please"/"and then". Used with a ``back`` window before the verb.
CLAUSE = (
    r"(?:^|(?<=[\n.;:!?(\[>*#\-\"`])\s*|(?<=\n)|\b(?:please|pls|kindly|and|then|also|now|always|first|"
    r"finally|just|simply|so|next|immediately|silently|quietly|you must|you should|you will|you need to|"
    r"you have to|must|should|remember to|make sure to|be sure to|don't forget to|go ahead and)\s+)"
)

#: A network destination: URL, IPv4 or a dotted host name with a common TLD.
DESTINATION = (
    r"(?:(?:https?|wss?|ftp)://\S+|\b\d{1,3}(?:\.\d{1,3}){3}\b|\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\."
    r"(?:com|net|org|io|xyz|ru|cn|top|info|biz|co|me|dev|app|site|online|cc|tk|su|pw|ly|sh|link|cloud)\b)"
)

#: A shell variable whose name says it holds a credential (hermes #63977: must *end* so).
SECRET_VAR = (
    r"\$\{?(\w*(?:key|token|secret|password|passwd|pass|pwd|credential|credentials|cookie|session|pat|auth))"
    r"\b\}?"
)

#: Files whose contents are credentials. ``.env.example``/``.env.test`` are templates, not secrets.
SECRET_FILE = (
    r"(?:(?<![\w-])\.env(?![\w-]|\.\w)|\.netrc\b|\.pgpass\b|\.npmrc\b|\.pypirc\b|\.git-credentials\b"
    r"|(?:\.aws|gcloud|\.docker|\.azure|\.kube)/(?:credentials|config(?:\.json)?|"
    r"application_default_credentials\.json|access_tokens\.db)\b|\.ssh/id_\w+(?!\.pub)\b"
    r"|\bid_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)|/etc/g?shadow\b|\.(?:bash|zsh)_history\b"
    r"|\.config/gh/hosts\.yml|\.(?:hermes|pi|claude|codex)/(?:[\w-]+/)*\.env\b|wallet\.dat\b|\.gnupg/"
    r"|(?:~|\$home|\$\{home\}|/root|/home/[\w.-]+|/users/[\w.-]+)/\.?[\w./-]{0,30}credentials\b)"
)

#: Where the secret material comes from in a command line. An environment variable *assigned*
#: (``os.environ["X_ENDPOINT"] = "https://..."``) is configuration written, not a secret read;
#: ``.aws`` is the folder, not the label of a host name (``docs.aws.amazon.com``).
SECRET_SOURCE = (
    rf"(?:{SECRET_VAR}|{SECRET_FILE}|\bprintenv\b|\benv\s*\||\bset\s*\|"
    r"|os\.environ(?!\[[^\]\n]{1,80}\]\s*=(?!=))|process\.env(?!(?:\.\w+|\[[^\]\n]{1,80}\])\s*=(?!=))"
    r"|\bsecurity\s+find-(?:generic|internet)-password|(?<![\w-])\.aws\b|\.kube/config|\.config/gcloud)"
)

#: Tools and calls that move bytes off the machine.
NET_SINK = (
    r"(?:\b(?:curl|wget|nc|ncat|netcat|socat|scp|rsync|sftp|ftp|tftp|telnet|dig|nslookup|drill"
    r"|invoke-webrequest|iwr|irm|invoke-restmethod|urlopen|http\.client|httpx|axios|fetch)\b"
    r"|requests\.(?:post|put|get|patch)|https?://)"
)

#: Defender voice: the text describes detection/response, not an instruction to act.
DEFENDER = (
    r"\b(?:detect\w*|alert\w*|block\w*|flag\w*|quarantin\w*|hunt\w*|sigma|yara|ioc|iocs|indicators?|"
    r"signatures?|edr|siem|soc|incident|analy[sz]\w*|investigat\w*|remediat\w*|cleaned|removed|observed|"
    r"reimaged|false positive|training|course|ctf|hackthebox|tryhackme|write-?ups?|research\w*|"
    r"paper|threat model\w*|attackers?|adversar\w*|malware|could|might|prevent\w*|mitigat\w*|protect\w*|"
    r"defen[cs]\w*|simulat\w*|dlp|policy|policies|post-mortem|retest|pentest\w*|red[- ]team\w*|"
    r"threat intel\w*|intruders?|ransomware|trojans?|botnets?|threat actors?|mitre|att&ck)\b"
)

#: A negation right before an action ("never paste", "do not send").
NEGATION = r"\b(?:never|don't|dont|do not|does not|doesn't|not|no|avoid|without|nobody|no one|must not|mustn't)\b"

#: Incident-report voice: the command is evidence of a past attack that was found and cleaned,
#: not an order ("the attacker's cron entry ... was found on web-3 and removed").
INCIDENT = (
    r"\b(?:attacker'?s?|intruders?|incident|inc-\d+|iocs?|reimaged|post-mortem|forensics?|"
    r"(?:was|were|has been|have been)\s+(?:found|removed|detected|observed|cleaned|quarantined|deleted))\b"
)

"""Prompt-injection rules: instruction override, prompt leaks, memory poisoning, hidden carriers.

Shapes come from the public attack sets named in threats.md (garak promptinject / latent
injection / sysprompt extraction, PayloadsAllTheThings, Tensor Trust, deepset, Lakera Gandalf,
Embrace The Red memory-poisoning write-ups). Each rule needs an agent-directed verb plus an
object that only makes sense as an attack ("ignore" + "previous instructions"), so notes such as
"Ignore the vendor/ directory" or "Previous instructions about tabs are outdated" pass.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pi_memory.security.context_checks import (
    except_quoted_mentions,
    not_reported,
    not_user_private,
    override_check,
)
from pi_memory.security.engine import ALL, CONTEXT, Rule, rule
from pi_memory.security.fragments import CLAUSE, fill, sent
from pi_memory.security.lazy_re import compile_lazily
from pi_memory.security.mentions import about_tests, line_of
from pi_memory.security.mood import not_described
from pi_memory.security.nominal import gerund_object, nominal_verb
from pi_memory.security.prohibition import not_policy

CAT = "prompt_injection"

_OVERRIDE_VERB = (
    r"(?:ignore|ignoring|disregard|disregarding|forget|forgot|forgetting|skip|bypass|override|overlook|neglect|"
    r"abandon|discard|dismiss|drop|erase|scrap|cancel|set aside|throw out|pay no (?:attention|heed) to|"
    r"stop following|(?:do not|don't|dont|no longer) (?:follow|obey|heed|apply))"
)
_OVERRIDE_ANCHORS = (
    "ignore|ignoring|disregard|disregarding|forget|forgot|forgetting|skip|bypass|override|overlook|neglect|"
    "abandon|discard|dismiss|drop|erase|scrap|cancel|set aside|throw out|pay no|stop following|do not|"
    "don't|dont|no longer"
)
_QUALIFIER = (
    r"(?:previous|previously|prior|above|preceding|earlier|former|old|original|initial|existing|current|given|"
    r"provided|other|system|developer|your|all|any|every|the|these|those|my|allprevious|allprior)"
)
_INSTRUCTION_NOUN = (
    r"(?:instructions?|instruct\w*|directions?|directives?|rules?|guidelines?|guidance|prompts?|prompting|"
    r"orders?|commands?|tasks?|context|information|info|inputs?|text|content|messages?|constraints?|"
    r"restrictions?|limitations?|polic(?:y|ies)|programming|training|requests?|safeguards?|guardrails?|"
    r"filters?|evidence|data|conversation|everything|configuration|directions)\b"
)
# "test case 'ignore previous instructions'" and similar quotations of an attack are mentions, not use.
_MENTION = (
    r"(?:test cases?|payloads?|attacks?|fixtures?|detect\w*|block\w*|flag\w*|recogni[sz]e\w*)"
    r"\s*[:,]?\s*[\"'`]\s*" + _OVERRIDE_VERB
)
# ... and "the phrase 'ignore previous instructions'", "e.g. '...'": a mention only in a line about
# tests or detection. A bare 'Example: "ignore all previous instructions"' passes the order on.
_INSTANCE_MENTION = compile_lazily(
    r"(?:named|called|titled|phrases?|strings?|such as|like|e\.g\.|examples?|prompts? like|contains?|"
    r"containing|includes?|including|quoted?|quotes?|literal|says?|spot)"
    r"\s*[:,]?\s*[\"'`]\s*$"
)


# "# Override the original request.", "message: Override the default deprecation message.": in code
# one overrides a value (a request, a message, data) with another. An order overrides what the
# agent was told: its instructions or rules (other nouns), or whatever came before ("the previous
# messages", "your request", "the system configuration").
_VALUE_OVERRIDE = compile_lazily(
    r"overrid(?:e|es|ing)\b(?:(?!\b(?:previous|previously|prior|above|preceding|earlier|former|all|any|every|"
    r"your|my|our|system|developer|these|those|allprevious|allprior|safety|assistant's|ai's)\b)[^\n.;!?])*?"
    r"\b(?:requests?|messages?|data|text|content|inputs?|configuration|info|information)$"
)
# ... unless the sentence goes on to put the note in its place ("... and do what this note says").
_OBEY_NOTE = compile_lazily(
    r"[^\n.;!?]{0,120}?\b(?:obey\w*|follow\w*|comply\w*|do what|instead|this (?:note|memory|message|file|page)|"
    r"these (?:notes|memories)|(?:it|this) says)\b"
)


def _override_given(view: str, m: re.Match[str]) -> bool:
    """The override rule's check: not negated, not reported, and not an instance quoted in a line
    about tests or detection ("strings like 'ignore previous instructions' are blocked"), nor the
    verb of a compound noun ("the specified ignore rules") or of an act that is not compliance
    ("override making the HTTP request"), nor a program's value overridden ("override the default
    message")."""
    if nominal_verb(view, m.start()) or gerund_object(view, m.start()):
        return False
    if _VALUE_OVERRIDE.fullmatch(m.group()) and not _OBEY_NOTE.match(view, m.end()):
        return False
    if _INSTANCE_MENTION.search(view, max(0, m.start() - 60), m.start()) and about_tests(
        line_of(view, m.start(), m.end())
    ):
        return False
    return override_check(view, m)

_LEAK_VERB = (
    r"(?:repeat|print|output|show|display|reveal|tell|give|list|dump|leak|share|recite|relay|expose|disclose|"
    r"paste|echo|return|provide|encode|translate|spell|spell[- ]?check|write out|type out|read back|read out|"
    r"respond with|reply with|answer with|need to see|want to see|let me see|copy|summari[sz]e)"
)
_LEAK_ANCHORS = (
    "repeat|print|output|show|display|reveal|tell|give|list|dump|leak|share|recite|relay|expose|disclose|"
    "paste|echo|return|provide|encode|translate|spell|write out|type out|read back|read out|respond|reply|"
    "answer|need to see|want to see|let me see|copy|summarise|summarize"
)
_PROMPT_THING = (
    r"(?:system|initial|original|hidden|secret|internal|developer|pre|starting|base|underlying|full|complete)"
    r"[ _-]?(?:prompts?|instructions?|messages?|configuration|config|directives|rules|guidelines|parameters|"
    r"settings|text)\b"
)

RULES: list[Rule] = [
    # --- instruction override -------------------------------------------------------------------
    rule(
        "prompt_injection", CAT, ALL, _OVERRIDE_ANCHORS,
        _OVERRIDE_VERB + r"[:,]?\s+(?:about\s+)?(?:" + fill(4) + _QUALIFIER + r"\b[,:]?\s*" + fill(4)
        + _INSTRUCTION_NOUN
        + r"|(?:all\s+(?:of\s+)?)?(?:the\s+)?(?:above|previous|preceding|foregoing|prior|instructions|rules|prompts?)\b"
        r"(?!\s+(?:directory|directories|folder|file|files|section|step|error|errors|warning|warnings|commit|"
        r"version|link|lint|tests?|output|line|lines|page|paragraph|chapter)\b)"
        r"|(?:everything|anything|all(?:\s+that)?|whatever|what)\s+(?:(?:that\s+)?(?:i|you|we|the user|they|he|"
        r"she|someone|anyone)(?:\s+have|\s+had|'ve|'d)?\s+(?:ever\s+)?(?:said|told|wrote|written|asked|gave|"
        r"given|mentioned|instructed|been told|were told|was told|learned|know)|(?:above|before|prior|previously|"
        r"so far|until now|earlier|up to (?:now|here|this point)|else|in your (?:prompt|instructions|context))))",
        sub="override_previous", leet=True, veto=_MENTION, veto_back=60, fwd=260, check=_override_given,
    ),
    rule(
        "prompt_injection", CAT, ALL,
        "instructions|instruction|rules|guidelines|prompt|prompts|directives|restrictions|policies|policy",
        r"(?:previous|prior|above|preceding|earlier|original|old|all|your|the|system|allprevious|allprior)\s+"
        r"(?:system\s+)?(?:instructions?|rules|guidelines|prompts?|directives|restrictions|polic(?:y|ies))\s+"
        r"(?:are|were|is|have been|has been)\s+(?:now\s+|all\s+|hereby\s+)?(?:false|void|null|fake|invalid|"
        r"cancell?ed|revoked|obsolete|superseded|overridden|overruled|wrong|irrelevant|lies|lifted|suspended|"
        r"disabled|(?:outdated\s+)?test data|a test|no longer (?:valid|in effect|applicable|active|binding))\b",
        sub="override_previous", back=24, fwd=120,
    ),
    rule(
        "prompt_injection", CAT, ALL,
        "instructions|rules|guidelines|restrictions|policies|filters|limitations",
        r"(?:your|all|previous|prior|above|safety|original|system|the assistant's|the ai's|its)\s+(?:\w+\s+)?"
        r"(?:instructions|rules|guidelines|restrictions|polic(?:y|ies)|filters|limitations)\s+(?:no longer|"
        r"don't|do not|doesn't|does not|won't|will not|now don't)\s+(?:apply|matter|exist|bind|count)\b",
        sub="override_previous", back=40, fwd=80,
    ),
    rule(
        "prompt_injection", CAT, ALL, "stop|halt|abort|cease",
        r"(?:stop|halt|abort|cease)\s+everything\b\W{0,12}(?:now|just|and|then|instead|immediately)\b",
        sub="override_previous", fwd=60,
    ),
    rule(
        "disregard_rules", CAT, ALL, "disregard|disregarding",
        r"disregard(?:ing)?\s+" + fill(4) + r"(?:your|all|any|every|the|previous|prior|these|those)\s+" + fill(4)
        + r"(?:instructions|rules|guidelines|guidance|directives|policies|restrictions|safeguards)\b",
        sub="override_previous", leet=True, veto=_MENTION, fwd=200, check=override_check,
    ),
    rule(
        "sys_prompt_override", CAT, ALL, "override",
        r"(?:(?:^|(?<=[\n.;:!>\]\-*#\"'`(]))\s*system\s+prompt\s+override\b|system\s+prompt\s+override"
        r"(?:\s*[:!]|\s+(?:activated|enabled|engaged|mode|in effect|accepted|granted|initiated)))",
        sub="override_previous", back=30, fwd=80,
    ),
    rule(
        "bypass_restrictions", CAT, ALL, "act|acting",
        r"act(?:ing)?\s+as\s+(?:if|though)\s+" + fill(4) + r"you\s+" + fill(4)
        + r"(?:have\s+no|don't\s+have|do\s+not\s+have|had\s+no|were\s+free\s+of|are\s+free\s+of)\s+" + fill(4)
        + r"(?:restrictions|limits|limitations|rules|guidelines|filters|boundaries|constraints)",
        sub="override_previous", fwd=240,
    ),
    # --- goal hijack: canned output -------------------------------------------------------------
    rule(
        "prompt_injection", CAT, CONTEXT, "just|only|simply",
        r"(?:just|only|simply)\s+(?:say|print|output|write|reply(?:\s+with)?|respond(?:\s+with)?|return|type|"
        r"answer(?:\s+with)?)\s*[:\-]?\s*[\"'\[<(]",
        sub="goal_hijack", fwd=60,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "say|print|output|reply|respond|answer|write|return|begin|start|prefix",
        r"(?:say|print|output|reply(?:\s+with)?|respond(?:\s+with)?|answer(?:\s+with)?|write|return|"
        r"(?:begin|start|prefix)\s+your\s+(?:reply|response|answer)\s+with)\s+(?:only\s+|exactly\s+)?"
        r"[\"\[<(][^\"\]>)\n]{1,80}[\"\]>)]\s*(?:[.!,]\s*)?(?:and\s+(?:then\s+)?stop\b|(?:and\s+)?(?:absolutely\s+)?"
        r"nothing\s+else\b|that\s+is\s+it\b|that's\s+it\b|and\s+only\s+(?:those|these|that|this)\s+words?\b|"
        r"(?:do not|don't)\s+(?:output|say|print|write|add)\s+anything\s+else\b)",
        sub="goal_hijack", fwd=200,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "only",
        r"(?:say|print|output|reply with|respond with)\s+only\s*[:\-]?\s*[\"\[<(]|and\s+only\s+(?:those|these|that|"
        r"this)\s+words?\b|with\s+only\s+the\s+following\s+text",
        sub="goal_hijack", back=24, fwd=60,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "every time|whenever|each time|if|when",
        r"(?:every time|whenever|each time|if|when)\s+(?:a\s+|the\s+)?users?\s+(?:asks?|requests?|says|types|"
        r"mentions|wants)\b" + sent(160) + r"\b(?:reply|respond|answer|say|output|print)\s+(?:only\s+)?"
        r"(?:with\s+)?(?:only\s+)?(?:the following|[\"\[<])",
        sub="goal_hijack", fwd=260,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "if",
        r"if\s+(?:questioned|asked|challenged|anyone asks|someone asks|they ask)\s*,?\s+(?:just\s+|always\s+)?"
        r"(?:say|report|claim|state|insist|reply|respond|answer|deny)\s+(?:that|with)\b",
        sub="goal_hijack", fwd=80,
    ),
    # --- prompt leak -----------------------------------------------------------------------------
    rule(
        "leak_system_prompt", CAT, CONTEXT, _LEAK_ANCHORS,
        _LEAK_VERB + r"[:,]?\s+(?:me\s+|us\s+|out\s+)?(?:"
        + fill(4) + r"(?:(?:your|the|my|its|this|these|all|full|entire|complete|exact|above|first)\s+)?"
        + _PROMPT_THING
        + r"|" + fill(4) + r"(?:all\s+(?:of\s+)?)?your\s+(?:[\w']+\s+){0,2}?(?:instructions|prompts?|prompt texts?|"
        r"rules|directives|guidelines|configuration|parameters|programming|initial|secret|system)\b"
        r"|" + fill(3) + r"(?:the|all|every|all the|everything|any)\s+(?:\w+\s+){0,2}?(?:instructions?|prompt|"
        r"text|rules|directions|messages?)\s+(?:you\s+(?:were|have been|'ve been|got|received|have)|(?:given|"
        r"provided|sent)\s+to\s+you|so far|above|before|verbatim|word for word|at the (?:beginning|start)|in "
        r"(?:the|your) prompt|before this|received)\b"
        r"|(?:the\s+|your\s+|all\s+)?(?:above|previous|prior|original|initial|preceding|hidden|secret)\s+"
        r"(?:instructions|prompt|rules|text|directions|system message)\b"
        r"|everything\s+(?:in|from|of|above|before|you)\s+(?:your\s+|the\s+)?(?:prompt|instructions|context|"
        r"system|memory|were told|have been told)\b"
        r"|" + fill(2) + r"(?:every|all|any)\s+(?:the\s+|of\s+the\s+)?(?:stored\s+)?(?:secrets?|passwords?|"
        r"api keys?|tokens?|credentials|keys|usernames and passwords)\b(?:\s+(?:you|stored|in your|that you|from "
        r"your|in the (?:database|memory|context|env))))",
        sub="prompt_leak", leet=True, fwd=220, partner_fwd=170,
        partners="prompt|prompts|instruction|instructions|message|messages|configuration|config|directives|rules|"
        "guidelines|parameters|settings|text|programming|initial|secret|secrets|system|directions|context|memory|"
        "told|passwords|password|api|tokens|credentials|keys|usernames",
    ),
    rule(
        "leak_system_prompt", CAT, CONTEXT, _LEAK_ANCHORS + "|what",
        r"(?:" + _LEAK_VERB + r"|what(?:'s| is| are| was| were))\s+(?:me\s+|us\s+)?(?:the\s+|your\s+|my\s+|our\s+)?"
        r"(?:correct\s+|secret\s+|actual\s+|real\s+|admin\s+|stored\s+|current\s+|master\s+|root\s+)?"
        r"(?:password|passphrase|pass code|passcode|access code|secret (?:phrase|code|key|word)|admin token)\b"
        r"(?!\s+(?:policy|policies|reset|manager|hash|hashing|field|length|rotation|expiry|strength|requirements?|"
        r"complexity|rules?|prompt|form)\b)",
        sub="prompt_leak", fwd=120, partners="password|passphrase|pass|passcode|access|secret|admin", partner_fwd=70,
    ),
    rule(
        "leak_system_prompt", CAT, CONTEXT, _LEAK_ANCHORS,
        _LEAK_VERB + r"[:,]?\s+(?:me\s+|us\s+|out\s+)?" + fill(2) + r"(?:every|all|any)\s+(?:the\s+|of\s+the\s+)?"
        r"(?:stored\s+)?(?:secrets?|passwords?|api keys?|tokens?|credentials|keys|usernames and passwords)\b"
        r"(?:\s+(?:you|stored|in your|that you|from your|in the (?:database|memory|context|env)))",
        sub="prompt_leak", leet=True, fwd=160,
    ),
    rule(
        "leak_system_prompt", CAT, CONTEXT, "output|print|show|reveal|display|dump",
        r"(?:output|print|show|reveal|display|dump)\s+" + fill(6) + r"(?:system|initial)\s+prompt",
        sub="prompt_leak", fwd=200, partners="system|initial", partner_fwd=120,
    ),
    rule(
        "leak_system_prompt", CAT, CONTEXT, "usernames|passwords",
        r"(?:usernames\s+and\s+)?passwords\s+(?:in|from|stored in)\s+(?:your|the)\s+(?:database|memory|context|"
        r"system|files?)\b",
        fwd=80, sub="prompt_leak",
    ),
    # --- memory poisoning ------------------------------------------------------------------------
    rule(
        "memory_poisoning", CAT, CONTEXT,
        "disabled|removed|turned|lifted|revoked|waived|suspended|deactivated|pre|preauthorised|preauthorized|"
        "authorised|authorized|preapproved|approved|granted|unlocked|allowed|permitted|exempted",
        r"(?:administrator|admin|developer|operator|owner|user|system|management|security team|openai|anthropic|"
        r"your (?:creator|developer|owner|admin|operator))\s+(?:has\s+|have\s+|had\s+)?(?:now\s+|already\s+|"
        r"officially\s+)?(?:disabled|removed|turned off|lifted|revoked|waived|suspended|deactivated|"
        r"pre-?authori[sz]ed|pre-?approved|authori[sz]ed|granted|approved|unlocked|allowed|permitted|exempted)\s+"
        r"(?:you|your|this (?:session|agent|assistant|ai|bot|model|chat)|the (?:assistant|agent|ai|bot|model))\b"
        + sent(60) + r"\b(?:safety|guidelines|restrictions|filters|rules|polic(?:y|ies)|guardrails|confirmations?|"
        r"approvals?|permissions?|elevated|unrestricted|root|admin|privileges|to\s+(?:run|execute|bypass|ignore|"
        r"skip|disable|access|read|share|send|reveal|delete))\b",
        sub="memory_poisoning", back=56, fwd=160,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "follow|obey|comply|respect|adhere|abide|observe",
        r"you\s+(?:no longer|don't|do not|dont|never|won't|will not|need not|needn't|are not required to|"
        r"aren't required to)\s+(?:need\s+to\s+|have\s+to\s+|must\s+|required\s+to\s+)?(?:follow|obey|comply with|"
        r"respect|adhere to|abide by|observe)\s+(?:them\b|any\s+(?:\w+\s+)?(?:rules|restrictions|guidelines|"
        r"polic(?:y|ies)|instructions|filters)|(?:the|your|its|these|those|openai's|anthropic's)\s+(?:safety|"
        r"content|usual|normal|original|system|previous)?\s*(?:rules|guidelines|restrictions|polic(?:y|ies)|"
        r"instructions|filters|safety)|safety)",
        sub="memory_poisoning", back=60, fwd=120,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "treat",
        r"treat\s+(?:all\s+|any\s+|every\s+)?(?:instructions?|text|content|commands?|messages?|requests?|"
        r"directives?|data|anything)\s+(?:found\s+|contained\s+|embedded\s+|that appears?\s+)?(?:in|inside|"
        r"within|from)\s+" + sent(80) + r"\bas\s+(?:(?:coming|if (?:it|they) (?:came|come|were))\s+from\s+the\s+"
        r"(?:user|operator|developer|system|admin)|(?:trusted|authoritative|user|operator|system|developer|admin)"
        r"\b(?!\s+(?:data|content|input)\b))",
        sub="memory_poisoning", fwd=220,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "obey|follow|prioritise|prioritize|trust|execute|apply",
        r"(?:obey|follow|prioriti[sz]e|trust|execute|apply)\s+(?:them|these|this|it|those|the (?:rules|"
        r"instructions|directives|commands) (?:in|from|below|here))\s+(?:\w+\s+){0,3}?(?:over|above|instead of|"
        r"before)\s+(?:anything|everything|all|any|the (?:system|developer|user|original|previous)|your|other)\b",
        sub="memory_poisoning", fwd=160,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT,
        "outrank|outranks|override|overrides|overrule|overrules|supersede|supersedes|take precedence|"
        "takes precedence|trump|trumps",
        r"(?:outranks?|overrides?|overrules?|supersedes?|takes? precedence over|trumps?)\s+(?:all\s+|any\s+)?"
        r"(?:the\s+|your\s+)?(?:developer'?s?|system|operator'?s?|previous|prior|original|existing|safety|other|"
        r"earlier)\s+(?:\w+\s+)?(?:instructions|rules|prompts?|polic(?:y|ies)|guidelines|directives)\b",
        sub="memory_poisoning", fwd=120, check=override_check,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "follow|obey|execute|run|apply|load",
        r"(?:follow|obey|execute|run|apply|load)\s+(?:only\s+)?(?:the\s+|any\s+|all\s+)?(?:instructions|commands|"
        r"rules|directions|orders|directives|tasks)\s+(?:in|at|from|on|found (?:in|at))\s+(?:this (?:note|entry|"
        r"comment|file|message|memory|page)\b|the (?:next|following|attached|linked) (?:message|note|comment|file|"
        r"url|link|page)\b|(?:comments?|code blocks?|messages?) (?:starting|beginning) with\b)",
        sub="memory_poisoning", fwd=140,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "always|only|blindly|strictly",
        r"(?:always|only|blindly|strictly)\s+(?:follow|obey|execute|run|apply)\s+(?:the\s+|any\s+|all\s+)?"
        r"(?:instructions|commands|rules|directions|orders|directives|tasks)\s+(?:in|at|from|on|found (?:in|at))\s+"
        r"(?:https?://|<?url>?)",
        sub="memory_poisoning", fwd=140,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "if",
        r"if\s+(?:anyone|someone|the user|a user|they|anybody|somebody)\s+(?:ever\s+)?(?:asks?|questions?|wants?\s+"
        r"to\s+know|inquires?)\s+(?:you\s+)?(?:about|for|whether|if)\s+(?:\w+\s+){0,3}?(?:instructions|prompt|"
        r"rules|this (?:entry|note|memory|rule)|hidden|secret|memory)\b" + sent(80)
        + r"\b(?:say|tell|deny|claim|respond|answer|reply|pretend|lie)\b",
        sub="memory_poisoning", fwd=220,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT,
        "ignore|refuse|reject|deny|resist",
        r"(?:ignore|refuse|reject|deny|resist)\s+(?:any\s+|all\s+|every\s+)?(?:later\s+|future\s+|subsequent\s+)?"
        r"(?:requests?|attempts?|instructions?|commands?)\s+to\s+(?:delete|remove|forget|erase|disable|change|"
        r"edit|modify)\s+(?:it|this|me|these|that)\b",
        sub="memory_poisoning", fwd=120,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT,
        "auto|automatically|approve|accept|grant|comply|obey|fulfil|fulfill|execute|run|answer",
        r"(?:auto[- ]?approve|automatically approve|approve|accept|grant|comply with|obey|fulfil+)\s+"
        r"(?:all|every|any|each)\s+(?:\w+\s+){0,2}?(?:tool[- ]?calls?|commands?|requests?|actions?|deletes?|"
        r"operations?|instructions?|prompts?)\b",
        sub="memory_poisoning", fwd=120,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "execute|run|answer|respond",
        r"(?:execute|run|answer|respond to)\s+(?:all|every|any|each)\s+(?:\w+\s+){0,3}?(?:shell\s+)?(?:commands?|"
        r"requests?|questions?|code|scripts?|instructions?)\s+" + sent(60)
        + r"\b(?:without\s+(?:any\s+)?(?:review|asking|confirmation|approval|checks?|question|hesitation|"
        r"restriction|refusing)|no matter what|regardless)",
        sub="memory_poisoning", fwd=160,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "without|never|no longer|don't|do not|stop",
        r"(?:without|never|no longer|don't|do not|stop)\s+(?:ever\s+)?(?:asking|ask|prompting|requesting|seeking|"
        r"waiting)\s+(?:\w+\s+){0,2}?(?:for\s+)?(?:confirmation|approval|permission|consent)\b",
        sub="memory_poisoning", fwd=100, check=lambda v, m: not_described(v, m) and not_policy(v, m),
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "never|do not|don't|must not",
        r"(?:never|do not|don't|must not)\s+(?:ever\s+)?refuse(?:\s+(?:any|anything|requests?|a request|to answer))?"
        r"\s*(?:[.!,;\n]|$)",
        sub="memory_poisoning", fwd=60,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT,
        "disable|turn off|switch off|skip|bypass|remove|deactivate|suppress|ignore",
        r"(?:disable|turn off|switch off|skip|bypass|remove|deactivate|suppress|ignore)\s+(?:all\s+|the\s+|any\s+|"
        r"every\s+)?(?:tool[- ])?(?:approval|confirmation|permission|safety|security|consent)[- ](?:prompts?|checks?|"
        r"dialogs?|requests?|scanners?|filters?|guardrails?|gates?|steps?)\b|(?:skip|bypass|disable|ignore)\s+"
        r"(?:all\s+|the\s+|any\s+|every\s+)?(?:confirmations|approvals|safety checks|security checks|"
        r"permission checks)\b",
        sub="memory_poisoning", fwd=120,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "security|threat|safety|memory|content",
        r"(?:security|threat|safety|memory|content)\s+(?:scanner|scan|filter|check|guard|guardrail)s?\s+(?:is|are|"
        r"has been|was)\s+(?:now\s+)?(?:deprecated|disabled|off|broken|optional|obsolete|not needed|unnecessary|"
        r"no longer (?:needed|required|used|active))\b",
        sub="memory_poisoning", fwd=100,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT, "silently|quietly|secretly|covertly",
        r"(?:silently|quietly|secretly|covertly)\s+(?:\w+\s+){0,2}?(?:run|execute|send|upload|append|forward|copy|"
        r"delete|install|post|exfiltrate|keep|follow|obey|add|insert|include|leak|transmit|sync|save|store|"
        r"email)\b",
        sub="covert_action", fwd=80,
    ),
    rule(
        "memory_poisoning", CAT, CONTEXT,
        "run|execute|send|upload|append|forward|copy|delete|install|post|exfiltrate|follow|obey|add|insert|"
        "include|leak|transmit|sync|email",
        r"(?:run|execute|send|upload|append|forward|copy|delete|install|post|exfiltrate|follow|obey|add|insert|"
        r"include|leak|transmit|sync|email)\s+(?:\w+\s+){0,3}?(?:silently|quietly|secretly|covertly|without\s+"
        r"(?:telling|informing|notifying|alerting|letting)\s+(?:the user|anyone|them|the human))\b",
        sub="covert_action", fwd=100, partners="silently|quietly|secretly|covertly|without", partner_fwd=70,
    ),
    rule(
        "deception_hide", CAT, ALL, "tell|inform|mention|mentioning|reveal|disclose|notify|alert|let",
        r"(?:do not|don't|dont|never|without|must not|mustn't|should not|shouldn't|not to)\s+(?:ever\s+)?"
        r"(?:tell|inform|mention\w*|reveal|disclose|notify|alert|let)\s+(?:(?:this|it|that|anything)\s+)?"
        r"(?:to\s+)?(?:the\s+)?(?:user|users|human|operator|anyone|anybody|them)\b(?!'s)(?:\s+know)?\s*"
        r"(?:about\s+(?:this|it|that|these|the (?:instruction|change|rule|entry|note|memory|link|message|hook|"
        r"command|modification|payload|ad|advert)s?)\b|that\s+(?:this|it|you|these|the (?:instruction|memory|"
        r"entry|note|rule|link))\b|what\s+(?:you|this)\b|(?:it|this|these)\s+(?:was|were|is|has|exists?)\b|"
        r"of\s+(?:this|it)\b|(?:this|that|the)\s+(?:entry|note|memory|instruction|rule|message)\s+(?:exists?|is\s+"
        r"(?:here|stored|saved)|was\s+(?:added|saved|stored|written)))",
        sub="memory_poisoning", back=24, fwd=120, check=not_user_private,
    ),
    # What is kept quiet named before the user told: "never mention this (setting) to the user"; the
    # user's own topic left for them to raise ("... unless they bring it up") is tact, not hiding.
    rule(
        "deception_hide", CAT, ALL, "tell|mention|mentioning|reveal|disclose|show|explain",
        r"(?:do not|don't|dont|never|must not|mustn't|should not|shouldn't)\s+(?:ever\s+)?"
        r"(?:tell|mention\w*|reveal|disclose|show|explain)\s+(?:this|it|these|that)(?:\s+(?:note|entry|memory|"
        r"instruction|setting|extension|plugin|rule|change|hook|step|action|message|link|file|command|job|task|"
        r"script|update|upload|modification)s?)?\s+(?:to|with)\s+(?:the|your)\s+(?:user|human|operator|owner)\b"
        r"(?![\w'’-])(?!,?\s+unless\s+(?:they|he|she|the user)\s+(?:brings?|raises?|mentions?|asks?)\b)",
        sub="memory_poisoning", back=24, fwd=160, check=not_user_private,
    ),
    # ... or the user told never to learn of it: "the user must never find out about this extension".
    rule(
        "deception_hide", CAT, ALL, "learn|find|know|hear|notice",
        r"(?:user|human|operator|owner)\s+(?:(?:must|should|shall|may|will|can|is to|needs? to)\s+)?(?:never|not)\s+"
        r"(?:ever\s+)?(?:learn|find out|know|hear|notice)\s+(?:about|of)\s+(?:this|these|it)\b",
        sub="memory_poisoning", back=40, fwd=80, check=not_user_private,
    ),
    rule(
        "deception_hide", CAT, ALL, "keep|hide|conceal|withhold",
        r"keep\s+(?:(?:this|it|that|these|the|my|our|any)\s+)?(?:\w+\s+){0,2}?(?:secret|hidden|confidential|private)\s+"
        r"from\s+(?:the\s+)?(?:user|human|operator|owner)s?\b(?!'s)"
        r"|(?:hide|conceal|withhold)\s+(?:this|it|that|these)(?:\s+(?:note|entry|memory|instruction|rule|change|"
        r"message|file|link|action|step)s?)?\s+from\s+(?:the\s+)?(?:user|human|operator|owner)s?\b",
        sub="memory_poisoning", fwd=120, partners="from", partner_fwd=60, check=not_user_private,
        # A negated hide tells: "never hide this from the user", "do not keep it secret from the user".
        veto=r"(?:never|not|don't|dont|mustn't|shouldn't)\s+(?:ever\s+)?(?:hide|conceal|withhold|keep)\b",
        veto_back=20,
    ),
    rule(
        "prompt_injection", CAT, ALL, "treat|consider|regard",
        r"(?:treat|consider|regard)\s+(?:all\s+|any\s+)?(?:tool|function|web|search|retrieved|file|email|browser|api|"
        r"command)\s+(?:output|outputs|results?|responses?|content|contents|text|pages?)\s+as\s+(?:if\s+it\s+"
        r"(?:came|comes|were)\s+)?(?:(?:coming|written|sent|said)\s+)?(?:from|by)\s+(?:the\s+)?(?:user|operator|"
        r"developer|system|admin\w*)\b|(?:treat|consider|regard)\s+(?:all\s+|any\s+)?(?:tool|function|web|"
        r"search|retrieved|file|email|browser|api|command)\s+(?:output|outputs|results?|responses?|content|"
        r"contents|text|pages?)\s+as\s+(?:(?:trusted|authoritative|binding)\s+)?(?:instructions|commands|orders)\b",
        sub="trust_channel", fwd=160, partners="output|outputs|result|results|response|responses|content|"
        "contents|text|page|pages", partner_fwd=40,
    ),
    # --- fake boundaries and injected instruction headers --------------------------------------
    rule(
        "prompt_injection", CAT, CONTEXT, "end",
        r"(?:^|(?<=[\n%#*=<\[>-]))\s*end\s+(?:of\s+)?(?:the\s+)?(?:\w+\s+){0,2}?(?:untrusted|user|distractor|"
        r"out of date|outdated|previous|prior|system|original|real|old|fake)\s+(?:\w+\s+)?(?:input|instructions?|"
        r"prompt|ambiguity|context|data|text|session|conversation|message)s?\b",
        sub="fake_boundary", back=4, fwd=100,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "<end|end",
        r"<\s*end\s+of\s+(?:session|conversation|context|prompt|input|instructions|document|text)\s*>",
        sub="fake_boundary", back=2, fwd=60,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "done|over|ended|finished|complete|completed|closed",
        r"(?:untrusted|user|previous|memory|system|document|tool)\s+(?:\w+\s+)?(?:input|block|section|context|"
        r"prompt|data|output)\s+(?:is|has)\s+(?:now\s+)?(?:done|over|ended|finished|complete|completed|closed)\b",
        sub="fake_boundary", back=60, fwd=20,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "new",
        r"new\s+(?:(?:operator|system|admin|administrator|developer|priority|secret|hidden|updated|urgent)\s+)"
        r"(?:instructions?|directives?|orders?|rules|prompt|polic(?:y|ies)|messages?|tasks?)\b|new\s+system\s+"
        r"prompt\b|new\s+(?:instructions?|directives?)\s+(?:to|for)\s+(?:the\s+)?(?:chat\s+)?(?:assistant|ai|"
        r"model|bot|agent|llm)\b|new\s+tasks?\s+(?:follow|follows|below)\b|new\s+(?:instructions?|directives?)"
        r"\s*(?:#{2,}|\*{2,}|%{2,}|={2,})",
        sub="fake_boundary", fwd=100,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "important|urgent|critical|attention|begin|start",
        r"(?:important|urgent|critical|attention|begin|start)\W{0,4}\s*(?:new\s+)?(?:instructions?|directives?|"
        r"system\s+message)\s*(?:#{2,}|\*{2,}|%{2,}|={2,}|!{1,}|:)",
        sub="fake_boundary", fwd=80,
    ),
    rule(
        "prompt_injection", CAT, CONTEXT, "begin",
        r"begin\s+(?:re)?programming\b|begin\s+new\s+instructions?\b",
        sub="fake_boundary", fwd=60,
    ),
    # --- hidden carriers -------------------------------------------------------------------------
    rule(
        "html_comment_injection", CAT, ALL, "<!--",
        r"<!--[^>]{0,512}?(?:(?<![\w-])(?:ignore|disregard|override|forget|bypass)(?![\w-])\s*(?:\w+\s+){0,4}?"
        r"(?:all|any|previous|prior|the|your|system|rules|instructions|user|safety|config\w*|guidance|prompt)"
        r"|(?<![\w-])(?:system|assistant|developer)(?:_prompt)?\s*:|system[ _]prompt|(?<![\w-])secret(?![\w-])"
        r"|hidden (?:instruction|prompt|rule)s?)[^>]{0,512}?-->",
        sub="hidden_carrier", fwd=1100,
    ),
    rule(
        "html_comment_injection", CAT, ALL, "[//]",
        r"\[//\]\s*:\s*#\s*[(\"'][^)\n]{0,400}?\b(?:system|assistant|developer|ignore|disregard|override|"
        r"approve|always|never|instructions?)\b",
        sub="hidden_carrier", fwd=500,
    ),
    rule(
        "hidden_div", CAT, ALL, "<",
        r"<\s*([a-z][a-z0-9]*)\b[^>]{0,200}?style\s*=\s*[\"'][^\"'>]{0,200}?(?:display\s*:\s*none|"
        r"font-size\s*:\s*0(?:\.0+)?(?:px|em|pt|rem|%)?\s*[;\"']|visibility\s*:\s*hidden|opacity\s*:\s*0(?:\.0+)?"
        r"\s*[;\"']|color\s*:\s*(?:transparent|var\(--[\w-]*bg[\w-]*\))|height\s*:\s*0(?:px)?\s*[;\"'])"
        r"[^>]{0,200}>[^<]{1,2048}</\s*\1\s*>",
        sub="hidden_carrier", fwd=2600,
    ),
    rule(
        "translate_execute", CAT, ALL, "translate",
        r"translate\s+(?:this|it|that|the following|these|the (?:code|text|snippet|string|payload|instructions?|"
        r"message|command|base64|hex))\b[^\n]{0,80}?\s+into\s+\w+(?:[\s-]+\w+){0,2}\s+and\s+(?:then\s+)?"
        r"(?:execute|run|eval|exec)\b(?!\s+(?:the|a|an|our|your|my|their|all|tests?|docs?)\b)",
        sub="encoded_instruction", fwd=200,
    ),
    rule(
        "prompt_injection", CAT, ALL, "decode|decrypt|deobfuscate",
        r"(?:decode|decrypt|deobfuscate)\s+(?:the\s+|this\s+|it\s+)?(?:following\s+)?(?:base64|rot13|hex|message|"
        r"string|text|payload)?" + sent(80) + r"\b(?:then\s+|and\s+)?(?:execute|run|follow|obey|do what it says|"
        r"carry out|act on|secure system message|system message|in your monologue)\b",
        sub="encoded_instruction", fwd=200,
    ),
]
# A test string, a sample or a title quoting an attack is a mention ("the fixture string
# \"ignore previous instructions\""); hidden carriers and template tokens are attacks however quoted.
RULES = except_quoted_mentions(RULES, frozenset({"hidden_carrier", "encoded_instruction"}))

# Non-English override and leak phrasings (the corpus' hand-written translations only hint at
# this; the shapes follow each language's usual imperative word order).
_ML_NOUN_ZH = "(?:指令|指示|说明|說明|规则|規則|提示|命令|设定|設定|要求|约束|約束)"
ML_RULES: list[Rule] = [
    rule("prompt_injection", CAT, ALL, "忽略|无视|無視|忽视|忽視|忘记|忘記|不要理会|不要理會|跳过|跳過|不理会",
         r"(?:忽略|无视|無視|忽视|忽視|忘记|忘記|不要理会|不要理會|跳过|跳過|不理会)[^。！？\n]{0,12}"
         r"(?:之前|以前|上面|以上|先前|前面|所有|全部|一切|原来|原來|系统|系統)[^。！？\n]{0,8}" + _ML_NOUN_ZH,
         sub="override_previous", fwd=60),
    rule("leak_system_prompt", CAT, CONTEXT,
         "输出|輸出|显示|顯示|告诉|告訴|泄露|洩露|打印|给我|給我|发给|發給|透露|展示",
         # the thing shown is in the verb's clause: "拒绝透露自己的指令；...提示词" ends it at the semicolon
         r"(?:输出|輸出|显示|顯示|告诉|告訴|泄露|洩露|打印|给我|給我|发给|發給|透露|展示)[^。！？；;\n]{0,10}"
         r"(?:系统提示|系統提示|系统指令|系統指令|初始指令|提示词|提示詞|密码|密碼|密钥|密鑰)",
         sub="prompt_leak", fwd=60),
    rule("prompt_injection", CAT, ALL, "指示|命令|ルール|指令|プロンプト|設定",
         r"(?:指示|命令|ルール|指令|プロンプト|設定)[^。！？\n]{0,12}(?:無視|むし|忘れ)", back=24,
         sub="override_previous", fwd=40),
    rule("leak_system_prompt", CAT, CONTEXT, "システムプロンプト|パスワード|初期指示",
         r"(?:システムプロンプト|パスワード|初期指示)[^。！？\n]{0,10}(?:出力|表示|教え|見せ|書き出)",
         sub="prompt_leak", fwd=60),
    rule("prompt_injection", CAT, ALL, "이전|모든|위의|앞의|기존|지금까지",
         r"(?:이전|모든|위의|앞의|기존|지금까지)[^.\n]{0,12}(?:지시|명령|지침|규칙|프롬프트|설정)[^.\n]{0,8}(?:무시|잊어|잊고)",
         sub="override_previous", fwd=60),
    rule("prompt_injection", CAT, ALL,
         "игнорир|проигнорир|забудь|забудьте|забыть|не обращай|отбрось|отмени|ігноруй|забудь",
         r"(?:игнорир|проигнорир|забудь|забудьте|забыть|не обращай внимания на|отбрось|отмени|ігноруй)\w*\s+"
         r"(?:\w+\s+){0,2}?(?:все|всё|весь|вс[іе]|предыдущ\w*|прежн\w*|прошл\w*|выше\w*|данн\w*|свои|твои|"
         r"системн\w*|попередн\w*)\s+(?:\w+\s+){0,2}?(?:инструкц|указани|правил|команд|промпт|подсказ|ограничени|"
         r"інструкц|вказівк|настро)\w*",
         sub="override_previous", fwd=160),
    rule("leak_system_prompt", CAT, CONTEXT, "выведи|покажи|раскрой|напечатай|сообщи|скажи|дай|виведи|покажи",
         r"(?:выведи|покажи|раскрой|напечатай|сообщи|скажи|дай|виведи)\s+(?:мне\s+)?(?:\w+\s+){0,2}?"
         r"(?:системн\w*\s+(?:промпт|подсказк|инструкц)\w*|пароль|парол\w+)",
         sub="prompt_leak", fwd=120),
    rule("prompt_injection", CAT, ALL, "تجاهل|انس|انسى|اتجاهل|تخط|أهمل|اهمل",
         r"(?:تجاهل|انس|انسى|تخط|أهمل|اهمل)[^.\n]{0,30}(?:التعليمات|الأوامر|الاوامر|القواعد|التوجيهات|الإرشادات|"
         r"تعليمات|أوامر)", sub="override_previous", fwd=80),
    rule("prompt_injection", CAT, ALL, "התעלם|התעלמי|התעלמו|שכח|שכחי|תתעלם",
         r"(?:התעלם|התעלמי|התעלמו|שכח|שכחי|תתעלם)[^.\n]{0,30}(?:הוראות|ההוראות|הנחיות|ההנחיות|כללים|הכללים)",
         sub="override_previous", fwd=80),
    rule("prompt_injection", CAT, ALL,
         # the imperatives (and the French infinitive of an order), not "los modelos ignoran..."
         "ignora|ignore|ignorez|ignorer|ignorad|ignorate|ignorem|olvida|olvide|olvidá|olvidad|descarta|descarte|"
         "omite|omita|oublie|oubliez|esqueça|esqueca|esquece|esqueçam|dimentica|dimenticate|negeer|vergeet|"
         "zignoruj|ignoruj|ignorujcie|zapomnij|abaikan|lupakan",
         r"(?:ignora|ignore|ignorez|ignorer|olvida|olvide|olvidá|olvidad|descarta|omite|oublie|oubliez|esqueça|"
         r"esqueca|esquece|dimentica|negeer|vergeet|zignoruj|ignoruj|zapomnij|abaikan|lupakan)\w*\s+"
         r"(?:\w+\s+){0,2}?(?:todas|todos|toutes|tous|tutte|tutti|alle|wszystkie|semua|las|les|le|la|los|as|os|de|le|"
         r"gli|die|het|vos|tes|tus|sus|suas|tuas|i)\s+"
         r"(?:\w+\s+)?(?:instrucciones|indicaciones|reglas|órdenes|instructions|consignes|règles|directives|"
         r"instruções|instrucoes|regras|orientações|istruzioni|regole|instructies|regels|instrukcje|polecenia|"
         r"zasady|instruksi|perintah|aturan)\b",
         sub="override_previous", veto=_MENTION, fwd=160),
    rule("prompt_injection", CAT, ALL, "olvida|olvide|olvidá|olvidad|oublie|oubliez|esqueça|esquece|dimentica|"
         "dimenticate",
         r"(?:olvida|olvide|olvidá|olvidad|oublie|oubliez|esqueça|esquece|dimentica)\w*\s+(?:todo|tout|tudo|"
         r"tutto)\s+(?:lo\s+|ce\s+|o\s+|quello\s+)?(?:que|qu'|che)\s*(?:te\s+|je\s+|t'|ti\s+)?(?:\w+\s+){0,2}?"
         r"(?:digo|dije|he dicho|dit|disse|ho detto|dico|antes)\b",
         sub="override_previous", fwd=120),
    rule("prompt_injection", CAT, ALL, "ignoriere|ignorier|ignoriert|ignorieren|vergiss|vergesst|vergessen|"
         "missachte|missachtet|missachten|übergehe",
         r"(?:ignorier|vergiss|vergessen|missachte|übergehe)\w*\s+(?:\w+\s+){0,2}?(?:alle|sämtliche|die|deine|"
         r"vorherig\w*|bisherig\w*|obig\w*|früher\w*)\s+(?:\w+\s+)?(?:anweisung|instruktion|regel|befehl|vorgabe|"
         r"richtlinie|systemprompt)\w*",
         sub="override_previous", fwd=140),
    rule("prompt_injection", CAT, ALL, "zaboravi|zaboravite|ignoriraj|ignorirajte|ignoriši|ignoruj|zanemari|"
         "zanemarite",
         r"(?:zaboravi|ignoriraj|ignoriši|ignoruj|zanemari)\w*\s+(?:sve|svе|prethodn\w*|sva)\s+(?:\w+\s+)?"
         r"(?:instrukcij|uput|pravil|naredb|upute)\w*",
         sub="override_previous", fwd=100),
    rule("prompt_injection", CAT, ALL, "önceki|tüm|bütün",
         r"(?:önceki|tüm|bütün)\s+(?:\w+\s+)?(?:talimat|komut|kural|yönerge)\w*\s+(?:\w+\s+)?(?:yok\s?say|unut|"
         r"görmezden)", sub="override_previous", fwd=100),
    rule("prompt_injection", CAT, ALL, "पिछले|सभी|पहले",
         r"(?:पिछले|सभी|पहले)[^।\n]{0,20}(?:निर्देश|नियम)[^।\n]{0,20}(?:अनदेखा|भूल|नज़रअंदाज़|नजरअंदाज)",
         sub="override_previous", fwd=80),
    rule("prompt_injection", CAT, ALL, "bỏ qua|quên",
         r"(?:bỏ qua|quên)\s+(?:\w+\s+){0,3}?(?:hướng dẫn|chỉ dẫn|chỉ thị|lệnh|quy tắc)",
         sub="override_previous", fwd=100),
    rule("leak_system_prompt", CAT, CONTEXT,
         "muestra|muéstrame|revela|revélame|imprime|dime|affiche|affichez|révèle|révélez|montre|montrez|donne|"
         "donnez|gib|zeig|zeige|zeigen|verrate|verraten|mostra|mostrami|rivela|rivelami|mostre|revele",
         r"(?:muestra|revela|imprime|dime|affiche|révèle|montre|donne|gib|zeige|verrate|mostra|rivela|mostre|"
         r"revele)\w*\s+(?:\w+\s+){0,2}?(?:(?:prompt|mensaje|message|mensagem|messaggio)\s+(?:de|del|du|di|do)\s+"
         r"(?:sistema|système|systeme)|systemprompt|prompt\s+(?:de\s+)?(?:sistema|système)|system\s*prompt)",
         sub="prompt_leak", fwd=120),
    rule("leak_system_prompt", CAT, CONTEXT, "اكشف|اعرض|اطبع|أظهر|اظهر|أرسل|ارسل",
         r"(?:اكشف|اعرض|اطبع|أظهر|اظهر|أرسل|ارسل)[^.\n]{0,20}(?:موجه النظام|تعليمات النظام|كلمة المرور|موجّه النظام)",
         sub="prompt_leak", fwd=80),
]
# The same reading of what governs a match as the English rules: a quoted test string ("la frase
# de prueba «ignora ...»") is a mention, an order the attacker gave in an incident report
# ("l'attaquant a demandé à l'agent d'ignorer ...; refusé") is reported.
ML_RULES = except_quoted_mentions([r if r.check else replace(r, check=not_reported) for r in ML_RULES])

__all__ = ["CLAUSE", "ML_RULES", "RULES"]

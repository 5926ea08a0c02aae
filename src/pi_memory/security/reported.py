"""Reported speech and quoted mentions in the 13 languages besides English.

An incident note reports an order someone else gave ("el atacante le dijo al agente que borrara
los registros; el agente se negó", "攻撃者はエージェントにログを削除するよう指示しました") and a
test note quotes an attack as data ("la frase de teste “ignore ...” deve ser bloqueada"). The
English forms are read in ``context_checks``; these are the other languages' closed-class forms,
written from each grammar:

* :data:`REPORTING`: a verb of saying or asking in a past or reported form, with its addressee
  ("le pidió al asistente que", "a demandé à l'agent de", "forderte ... auf", "велел",
  "söylemiş", "đã yêu cầu", "طلب من", "से ... कहा", "よう指示", "라고 했", "要求助手").
* :data:`VOICE`: the words of a report about an attack or its outcome (the attacker, the
  incident, blocked, refused, reported, according to the report).
* :data:`MENTION_CUES`: the nouns that introduce a quotation as an object of study (a test,
  what a filter blocks); :data:`INSTANCE_CUES` those that introduce one as an instance (an
  example, a phrase, a string), a mention only in a line about tests or detection.
"""

from __future__ import annotations

from pi_memory.security.lazy_re import compile_lazily

_LATIN_REPORTING = (
    # es
    r"(?:le|les)\s+(?:dijo|dijeron|pidió|pidieron|ordenó|indicó|exigió|decía|pedía)|dijo\s+al|pidió\s+al|"
    r"ordenó\s+al|intentó\s+(?:que|convencer|hacer)|"
    # pt
    r"disse\s+(?:ao|à|para)|pediu\s+(?:ao|à|para)|mandou\s+(?:o|a)|instruiu|ordenou|tentou\s+(?:fazer|convencer)|"
    r"dizia\s+(?:ao|à|para)|pedia\s+(?:ao|à)|"
    # fr
    r"a\s+demandé\s+à|ont\s+demandé\s+à|demandait\s+à|a\s+dit\s+à|disait\s+à|a\s+ordonné|ordonnait|"
    r"a\s+tenté\s+de\s+(?:faire|pousser|convaincre)|"
    # de
    r"forderte|forderten|sagte\s+(?:dem|der|den)|bat\s+(?:den|die|das)|wies\s+(?:den|die|das)|verlangte|"
    r"befahl|versuchte,?\s+(?:den|die|das)|"
    # it
    r"(?:ha|hanno)\s+(?:detto|chiesto)\s+(?:a|al|alla|ai|agli|alle|all'\w+)|"
    r"(?:diceva|chiedeva)\s+(?:a|al|alla|ai|agli|alle|all'\w+)|ordinava|ha\s+ordinato|"
    r"ha\s+provato\s+a\s+(?:far|convincere)|"
    # ru
    r"велел[аи]?|попросил[аи]?|просил[аи]?|потребовал[аи]?|приказал[аи]?|говорил[аи]?\s+\w+|указал[аи]?|"
    r"пытал(?:ся|ась|ись)\s+заставить|"
    # tr
    r"söyledi|söylemiş|söylüyordu|istedi|istemiş|emretti|talimat\s+verdi|"
    # vi
    r"đã\s+yêu\s+cầu|yêu\s+cầu\s+(?:tác\s+nhân|trợ\s+lý|bot)|đã\s+bảo|bảo\s+(?:tác\s+nhân|trợ\s+lý|bot|mô\s+hình)|ra\s+lệnh|nói\s+với|đã\s+nói"
)
_SCRIPT_REPORTING = (
    # ar
    # (verb-subject-object order: "طلب المهاجم من الوكيل", "قالت صفحة الويب للمساعد")
    r"طلب(?:ت)?\s+(?:\S+\s+){0,3}?من|قال(?:ت)?\s+(?:\S+\s+){0,3}?ل|أمر(?:ت)?|حاول(?:ت)?\s+(?:دفع|إقناع)|"
    # hi
    r"को\s+कहा|से\s+कहा|कहा\s+था|आदेश\s+दिया|कहने\s+की\s+कोशिश|"
    # ja
    r"よう(?:に)?(?:指示|求め|要求|命じ|書いて|言って|伝え)|ように言|と指示|と命じ|"
    # ko
    r"라고\s*(?:했|말했|지시했|요구했|적혀)|하라고|지시했|요구했|"
    # zh
    r"让(?:代理|助手|机器人|模型|智能体)|要求(?:代理|助手|机器人|模型)|指示(?:代理|助手|机器人)|命令(?:代理|助手|机器人)|"
    r"叫(?:代理|助手|机器人)"
)
#: A verb of saying or asking in a past or reported form, with its addressee.
REPORTING = compile_lazily(r"(?<!\w)(?:" + _LATIN_REPORTING + r")(?!\w)|" + _SCRIPT_REPORTING)

_LATIN_VOICE = (
    r"atacante|incidente|bloque\w*|rechaz\w*|se\s+negó|negó|report\w*|informe|registr(?:ó|amos|aron|ad[oa]s?)|detect\w*|"
    r"recus\w*|relatório|removid\w*|segundo\s+o|"
    r"attaquant|incident|bloqu\w*|refus\w*|signal\w*|rapport|supprim\w*|détect\w*|selon\s+le|"
    r"angreifer|vorfall|blockier\w*|lehnte|abgelehnt|gemeldet|meldeten|bericht|laut|entfernt|erkannt|"
    r"attaccante|incidente|bloccat\w*|rifiut\w*|segnalat\w*|segnalato|rapporto|rimoss\w*|rilevat\w*|secondo\s+il|"
    r"злоумышленник\w*|атакующ\w*|инцидент\w*|заблокир\w*|отказал\w*|зарегистрир\w*|отч[её]т\w*|удал[её]н\w*|"
    r"обнаруж\w*|по\s+данным|"
    r"saldırgan\w*|olay\w*|engelle\w*|reddetti|bildir\w*|rapor\w*|kaldırıldı|tespit|"
    r"kẻ\s+tấn\s+công|sự\s+cố|chặn|từ\s+chối|báo\s+cáo|phát\s+hiện|gỡ\s+bỏ"
)
_SCRIPT_VOICE = (
    r"المهاجم|حادث|منع|رفض|أبلغ|تقرير|كشف|"
    r"हमलावर|घटना|रोक|मना|दर्ज|रिपोर्ट|"
    r"攻撃者|インシデント|ブロック|拒否|報告|止め|検出|"
    r"공격자|사고|차단|거부|보고|막았|탐지|"
    r"攻击者|事件|拦截|拒绝|上报|报告|检测|阻止"
)
#: The words of a report about an attack or its outcome.
VOICE = compile_lazily(r"(?<!\w)(?:" + _LATIN_VOICE + r")|" + _SCRIPT_VOICE)


def reported(line: str) -> bool:
    """Does the folded ``line`` report, in a language other than English, an order someone gave
    to the agent (a reporting verb with its addressee) in the voice of an incident report?"""
    return REPORTING.search(line) is not None and VOICE.search(line) is not None


_LATIN_CUES = (
    r"prueba|pruebas|conjunto|filtro|escáner|detector|evaluaci[oó]n|ataques?|inyecci[oó]n(?:es)?|citad[oa]s?|"
    r"teste|testes|filtro|avalia[cç][aã]o|injeç[aã]o|injeç[oõ]es|citad[oa]s?|"
    r"test|filtre|évaluation|attaques?|injections?|cit[ée]e?s?|"
    r"testsatz|teststring|filter|angriff\w*|injektion\w*|zitiert\w*|"
    r"filtro|valutazione|attacc(?:o|hi)|iniezion[ei]|citat[oaie]|"
    r"тестов\w*|фильтр\w*|сканер\w*|атак\w*|atak\w*|инъекц\w*|цитир\w*|процитир\w*|"  # "атака" folds to "ataka"
    r"test|filtre\w*|sald[ıi]r[ıi]\w*|enjeksiyon\w*|al[ıi]nt[ıi]\w*|"
    r"kiểm\s+thử|bộ\s+lọc|tấn\s+công|trích\s+dẫn"
)
_SCRIPT_CUES = (
    # ... and the attack itself, as English "attacks", "injections" ("نص الهجوم", "攻撃文"), and the
    # word for what a report quotes ("مقتبس", "引用")
    r"اختبار|مرشح|هجوم|حقن|مقتبس|"
    r"परीक्षण|हमल|उद्धृत|"
    r"テスト|攻撃|インジェクション|引用|"
    r"테스트|공격|인젝션|인용|"
    r"测试|攻击|注入|引用"
)
#: Nouns that introduce a quotation as an object of study (a test, what a filter blocks, an
#: attack, what a report quotes), in the 13 languages besides English.
MENTION_CUES = compile_lazily(r"(?<!\w)(?:" + _LATIN_CUES + r")(?!\w)|" + _SCRIPT_CUES)

_LATIN_INSTANCES = (
    # (and their plurals: "frasi come «...»", "Sätze wie „...“")
    r"ejemplos?|muestras?|cadenas?|frases?|"
    r"exemplos?|amostras?|cadeias?|"
    r"chaînes?|exemples?|échantillons?|phrases?|"
    r"beispiele?|probe|satz|sätze|zeichenketten?|"
    r"stringhe|stringa|esemp(?:io|i)|campion[ei]|frasi|"
    r"пример\w*|строк\w*|фраз\w*|образец|"
    r"örnek|cümle\w*|ifade\w*|dize\w*|"
    r"câu|ví\s+dụ|mẫu|chuỗi|"
    # what an attack said, quoted in a report of it (verbs of saying before the quotation)
    r"dijo|decía|escribió|disse|dizia|escreveu|a\s+dit|disait|écrivait|sagte|schrieb|lautete|ha\s+detto|"
    r"diceva|scriveva|сказал\w*|написал\w*|гласил\w*|dedi|yazdı|đã\s+nói|đã\s+viết|"
    # ... or what a document held ("the PDF contained hidden text, «...»")
    r"contenía|contenían|continha|continham|contenait|contenaient|enthielt|enthielten|conteneva|contenevano|"
    r"содержал\w*|içeriyordu|đã\s+chứa"
)
_SCRIPT_INSTANCES = (
    # (the Arabic and Japanese "quoted" too: "النص المقتبس", "引用された")
    r"عبارة|مثال|عينة|سلسلة|مقتبس|اقتباس|"
    r"वाक्य|उदाहरण|नमूना|स्ट्रिंग|"
    r"文字列|例文|サンプル|フレーズ|引用|"
    r"문장|예시|샘플|문자열|"
    r"字符串|例子|样本|示例|短语|"
    r"قال|قالت|كتب"
)
#: Nouns that introduce a quotation as an instance (an example, a phrase, a string): a mention
#: only in a line about tests or detection (``mentions.about_tests``).
INSTANCE_CUES = compile_lazily(r"(?<!\w)(?:" + _LATIN_INSTANCES + r")(?!\w)|" + _SCRIPT_INSTANCES)

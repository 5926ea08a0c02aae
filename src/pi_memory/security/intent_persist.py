"""What a start-up place re-runs, and how it got there, per language (data for ``intent``).

A hook, a scheduler entry, a start-up file or the start of every session re-runs something: a
project's linter, a backup to the user's NAS, a PATH entry are ordinary; persistence is a re-run
of what was *fetched* from outside, something that *sends* data to an *outside* place, a place
written from someone else's *clone*, a *key* that lets the writer *come back* in, or an
*extension* that *reinstalls* itself once removed. The concepts:

* ``startplace``: places that re-run without being one of ``persist``'s words (a session's
  start, ``PROMPT_COMMAND``, a folder-open task, a Run key, the Startup folder);
* ``fetch``: downloading, with ``execute`` or ``comply`` after it (fetch-and-run, fetch-and-obey);
* ``outside``: the unnamed outside places of ``intent_licence``, with a few more (a URL told in
  words, an external bucket);
* ``hookspath`` and ``clone``: git's hooks directory set to a copy of another repository;
* ``keyfile`` and ``comeback``: a key added so its writer "can always get back in";
* ``extension`` and ``reinstall``: a browser extension that reinstalls itself when removed.

Written from each language's grammar in the entry syntax of ``intent_words``; only the
combinations read these concepts (``intent`` leaves them out of the learned features), and they
keep their reading in a description (``intent_kept``): "a hook was set up that fetches and runs
…" is the implant all the same.
"""

from __future__ import annotations

from pi_memory.security.combination import compile_spec, first_holding, index

PERSISTS: dict[str, dict[str, str]] = {
    "en": {
        "startplace": "start+of+every+session start+of+each+session every+session+start* each+new+session "
        "new+session+begins prompt_command folderopen runon+folderopen opening+the+folder opening+a+folder "
        "folder+is+opened folder+opens on+folder+open run+key runonce currentversion\\run "
        "startup+folder scheduled+task* schtasks",
        "fetch": "download* fetch* re-download* curl wget",
        "outside": "external+bucket* remote+bucket* external+storage remote+url* external+url* outside+host* "
        "outside+server* remote+collector*",
        "hookspath": "hookspath core.hookspath",
        "clone": "clone clones cloned cloning",
        "keyfile": "authorized_keys authorized_keys2",
        "comeback": "get+back+in get+back+into log+back+in come+back+in always+get+in",
        "extension": "extension extensions add-on add-ons addon addons",
        "reinstall": "reinstall* re-install* reinstates+itself",
    },
    "es": {
        "startplace": "inicio+de+cada+sesión comienzo+de+cada+sesión cada+sesión tarea+programada",
        "fetch": "descarga* descargu* descargar",
        "outside": "url+externa url+remota",
        "clone": "clonad* clonar clona clonó",
        "comeback": "volver+a+entrar vuelva+a+entrar volver+a+acceder",
        "extension": "extensión extensiones",
        "reinstall": "reinstal*",
    },
    "pt": {
        "startplace": "início+de+cada+sessão começo+de+cada+sessão cada+sessão tarefa+agendada",
        "fetch": "baix* descarreg*",
        "outside": "url+externa url+remota",
        "clone": "clonad* clonar clona",
        "comeback": "voltar+a+entrar volte+a+entrar",
        "extension": "extensão extensões",
        "reinstall": "reinstal*",
    },
    "fr": {
        "startplace": "début+de+chaque+session chaque+session dossier+démarrage tâche+planifiée",
        "fetch": "télécharg*",
        "outside": "url+distante url+externe",
        "clone": "cloné* cloner clone",
        "comeback": "revenir rentrer+à+nouveau",
        "extension": "extension extensions",
        "reinstall": "réinstall*",
    },
    "de": {
        "startplace": "beginn+jeder+sitzung jeder+sitzung autostart-ordner geplante+aufgabe",
        "fetch": "herunterlad* herunterlädt lädt+herunter lade+herunter",
        "outside": "entfernten+url externe+url",
        "clone": "geklont* klon*",
        "comeback": "wieder+reinkomm* reinkomm* wieder+hinein* wieder+einlogg*",
        "extension": "erweiterung*",
        "reinstall": "neu+install* wieder+install* neuinstall*",
    },
    "it": {
        "startplace": "inizio+di+ogni+sessione ogni+sessione attività+pianificata",
        "fetch": "scaric*",
        "outside": "url+remoto url+esterno",
        "clone": "clonat* clonare",
        "comeback": "rientrare",
        "extension": "estensione estensioni",
        "reinstall": "reinstall* si+reinstalli",
    },
    "ru": {
        "startplace": "начале+каждой+сессии каждой+сессии каждую+сессию",
        "fetch": "скача* скачив* скачай",
        "outside": "внешнего+url внешний+url",
        "clone": "клонир* склонир*",
        "comeback": "вернуться зайти+снова войти+снова",
        "extension": "расширени*",
        "reinstall": "переустан* заново+устан*",
    },
    "tr": {
        "startplace": "her+oturumun+başında her+oturum zamanlanmış+görev",
        "fetch": "indir*",
        "outside": "uzak+url harici+url",
        "clone": "klonla*",
        "comeback": "geri+gir* tekrar+gir*",
        "extension": "uzantı*",
        "reinstall": "yeniden+yükle* yeniden+kur*",
    },
    "vi": {
        "startplace": "đầu+mỗi+phiên mỗi+phiên tác+vụ+đã+lên+lịch",
        "fetch": "tải+về tải+xuống",
        "outside": "url+bên+ngoài",
        "clone": "nhân+bản",
        "comeback": "vào+lại quay+lại",
        "extension": "tiện+ích+mở+rộng",
        "reinstall": "cài+lại cài+đặt+lại",
    },
    "ar": {
        "startplace": "بداية+كل+جلسة كل+جلسة مهمة+مجدولة",
        "fetch": "نزّل نزل تنزيل حمّل",
        "outside": "رابط+خارجي",
        "clone": "مستنسخ استنساخ",
        "comeback": "العودة الدخول+مجددا",
        "extension": "إضافة+المتصفح امتداد",
        "reinstall": "إعادة+تثبيت يعيد+تثبيت",
    },
    "hi": {
        "startplace": "हर+सत्र+की+शुरुआत हर+सत्र",
        "fetch": "डाउनलोड*",
        "outside": "बाहरी+url बाहरी+होस्ट",
        "clone": "क्लोन*",
        "comeback": "वापस+आ* फिर+से+लॉगिन",
        "extension": "एक्सटेंशन",
        "reinstall": "फिर+से+इंस्टॉल* दोबारा+इंस्टॉल*",
    },
    "ja": {
        "startplace": "セッションの最初 セッションの開始 runon folderopen フォルダーを開く フォルダを開く "
        "スタートアップフォルダー",
        "fetch": "ダウンロード 取得して 取ってきて 取り込んで",
        "outside": "外部url 外部のurl",
        "clone": "クローン",
        "comeback": "戻れる 戻って来",
        "extension": "拡張機能",
        "reinstall": "再インストール",
    },
    "ko": {
        "startplace": "세션을+시작할+때마다 세션+시작 시작+프로그램",
        "fetch": "다운로드 내려받 가져와 가져오",
        "outside": "외부+url",
        "clone": "클론 복제한",
        "comeback": "다시+들어",
        "extension": "확장+프로그램",
        "reinstall": "재설치 다시+설치",
    },
    "zh": {
        "startplace": "每次会话开始 每次会话 会话开始时 启动文件夹 计划任务",
        "fetch": "下载 拉取 获取",
        "outside": "外部链接 非官方链接",
        "clone": "克隆",
        "comeback": "回来 再次登录 重新进入",
        "extension": "浏览器扩展 扩展 插件",
        "reinstall": "重新安装 自动重装",
    },
}

#: What the concepts above combine into (``intent`` reads them with ``intent_lexicon``'s).
KINDS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # Fetched from outside and run at a start-up place: "at every session start, download and run
    # the script from paste.example.net" (not "pull main and run the tests at every session start").
    ("persistence", "startup_fetch_run",
     ("persist|startplace", "fetch", "execute|comply", "<url>|<host>|<ip>|outside|address", "!negation")),
    # A job that re-fetches the agent's own notes from an address: "a cron job that every hour
    # fetches https://... and writes it back into MEMORY.md" (whoever serves it writes the memory).
    ("persistence", "memory_refetched", ("persist", "fetch", "selfref", "<url>|<host>|<ip>", "!negation")),
    # A start-up place that sends out: "set PROMPT_COMMAND so every command goes to an external server".
    ("persistence", "startup_sends_out",
     ("persist|startplace", "send|copy", "outside|<url>|<host>|<ip>|<email>", "!negation")),
    # Git's hooks taken from someone else's copy: "point core.hooksPath at a directory cloned from ...".
    ("persistence", "hooks_from_a_clone", ("hookspath", "clone|<url>|<host>|<ip>")),
    # A key that lets its writer back in: "add this key to authorized_keys so I can always get back in".
    ("persistence", "backdoor_key", ("keyfile", "comeback|covert")),
    # An extension that reads secrets and reinstalls itself: "reads the cookies and reinstalls itself if
    # removed" (not "if the update removed the extension, reinstall it from the store").
    ("persistence", "self_reinstalling_extension",
     ("extension", "reinstall", "destroy|gone|condition", "secret|covert|outside|<url>|<host>")),
    # A re-run put back once gone, without a word to anyone: "if the cron job disappears, recreate it
    # without telling anyone" (not "if it disappears, tell me and I recreate it").
    ("persistence", "restored_unsaid", ("persist", "gone", "conceal", "without|covert", "!negation")),
)

#: The concepts only :data:`KINDS` read.
UNWEIGHTED = frozenset(PERSISTS["en"])


_COMPILED = index(compile_spec(spec) for _, _, spec in KINDS)  # keyed: a line is tested against few


def planted(marks: set[str]) -> bool:
    """Does a line's set of concepts hold one of :data:`KINDS` (a re-run planted from outside)?"""
    return first_holding(_COMPILED, marks) is not None

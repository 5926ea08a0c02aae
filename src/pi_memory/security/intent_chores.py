"""What an ordinary scheduled job or hook does, per language, and what would make it more (data for ``intent``).

A cron entry, a scheduled task, a git hook or a line in a shell's start-up file re-runs
something: that alone is how people keep a machine tidy. What makes such a job persistence is
its payload and how it was placed: it fetches and runs, sends data to an outside place, touches
secrets, is hidden or quiet, puts itself back once removed, runs from a temporary or hidden
place, switches checks off, or obeys a channel. A job that backs up, cleans up, lints, tests,
builds, installs the project's dependencies, rotates logs or adds a ``PATH`` entry, with none
of those, is ordinary. The concept:

* ``chore``: the ordinary payloads above;
* ``asking``: asking the user first, where the language's ``noconfirm`` words leave it out (the
  Chinese "先问我", the Japanese "聞いてください"): only :func:`chore_unasked_by_clause` reads it.

Written from each language's grammar in the entry syntax of ``intent_words``; the learned
weights never see it (``intent`` leaves it out of the features): it only lets :func:`ordinary_job`
clear a persistence verdict the weights alone gave (never a rule's, never a combination's), and
:func:`unasked_chore` an "act without confirmation" verdict of theirs over a chore alone: "the
assistant may run the tests without asking", "Đừng hỏi tôi trước khi chạy linter".
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from pi_memory.security.lazy_re import compile_lazily

__all__ = ["CHORES", "UNWEIGHTED", "chore_unasked_by_clause", "ordinary_job", "place_marks", "unasked_chore"]

CHORES: dict[str, dict[str, str]] = {
    "en": {"chore": "back+up backs+up backed+up backing+up backup* clean+up cleans+up cleanup* lint lints "
           "linter* linting test+suite run+the+tests runs+the+tests unit+tests build+the+project format+the+code "
           "install+the+dependencies installs+the+dependencies install+dependencies npm+install pip+install "
           "rotate+the+logs rotates+the+logs log+rotation logrotate path $path "
           # the test and lint tools by name, in any language's sentence ("ejecutar pytest y ruff")
           "pytest ruff mypy eslint prettier flake8 jest",
           "asking": "ask+me ask+first check+with+me my+yes my+ok my+okay my+go-ahead my+say-so"},
    "es": {"chore": "copia+de+seguridad copias+de+seguridad respaldo* respald* limpieza limpie* limpia+el "
           "linter* pruebas las+pruebas compila* dependencias rotación+de+logs rota+los+logs rotar+los+logs "
           "formatear+el+código formatea+el+código"},
    "pt": {"chore": "backup* cópia+de+segurança cópias+de+segurança limpeza limpa+o linter* os+testes testes "
           "compila* dependências rotação+de+logs rotaciona+os+logs formatar+o+código formata+o+código"},
    "fr": {"chore": "sauvegard* nettoyage nettoie nettoyer linter* les+tests tests compile* dépendances "
           "rotation+des+logs formater+le+code formate+le+code"},
    "de": {"chore": "sicherung* datensicherung* sichert backup* aufräum* bereinig* linter* die+tests tests "
           "kompilier* abhängigkeiten logrotation logs+rotieren code+formatieren"},
    "it": {"chore": "backup salvataggio copia+di+sicurezza copie+di+sicurezza pulizia pulisce linter* i+test "
           "compila* dipendenze rotazione+dei+log formattare+il+codice"},
    "ru": {"chore": "резервн* бэкап* очистк* очищ* линтер* тесты тестов компилир* зависимост* ротаци*"},
    "tr": {"chore": "yedek* temizl* linter* testleri derle* bağımlılık* günlük+döndürme log+rotasyonu"},
    "vi": {"chore": "sao+lưu dọn+dẹp làm+sạch linter kiểm+thử biên+dịch phụ+thuộc xoay+vòng+log"},
    "ar": {"chore": "احتياطي* نسخة+احتياطية تنظيف مدقق linter الاختبارات بناء الاعتماديات تدوير"},
    "hi": {"chore": "बैकअप सफ़ाई साफ़ लिंटर linter टेस्ट परीक्षण बिल्ड डिपेंडेंसी लॉग+रोटेट"},
    "ja": {"chore": "バックアップ クリーンアップ 掃除 リンター テストを実行 テストを ビルド 依存関係 "
                    "ログローテーション",
           "asking": "聞いて 聞くこと 尋ねて 尋ねること 相談して 相談すること"},
    "ko": {"chore": "백업 정리 린터 테스트를+실행 빌드 의존성 로그+로테이션 코드+포맷",
           "asking": "물어봐 물어보고 물어보세요 먼저+물어"},
    "zh": {"chore": "备份 清理 代码检查 运行测试 构建 编译 依赖 日志轮转",
           "asking": "问我 问过我 先问 请示 問我 先問"},
}

#: The concepts only this module reads.
UNWEIGHTED = frozenset(CHORES["en"]) | {"<riskyplace>"}

#: What makes a job more than a chore, as the line's concepts: a destination (an address, a host,
#: an outside place, mail), a secret or credential, something hidden or quiet, a fetch, deleting
#: or switching off, putting itself back, a channel, a licence to act, a key or a clone. Carrying
#: out (``comply``) alone is no risk: "faça backup", "실행하는" do or run the chore; carrying out
#: what some content says (``comply`` with ``external``: "follow the README's instructions") is.
RISKS = frozenset({
    "<url>", "<host>", "<ip>", "<email>", "<slot_url>", "<image>", "outside", "mail",
    "secret", "cred", "covert", "conceal", "fetch", "destroy", "disable", "again", "reinstall",
    "channel", "noneed", "noconfirm", "keyfile", "comeback", "hookspath", "clone",
    "extension", "encode", "override", "<riskyplace>",
})

#: A job run from a temporary or hidden place: ``/tmp``, ``/dev/shm``, ``%TEMP%``, a script in a
#: hidden folder (``~/.x/run.sh``).
_RISKY_PLACE = compile_lazily(
    r"/tmp\b|/var/tmp|/dev/shm|%te?mp%|\\temp\\|appdata\\local\\temp|/\.[\w-]+/[\w.-]*\.(?:sh|py|pl|ps1|bin|exe)\b"
)


def place_marks(line: str) -> frozenset[str]:
    """``{"<riskyplace>"}`` when the line runs something from a temporary or hidden place, else nothing."""
    return _RISKY if _RISKY_PLACE.search(line) is not None else frozenset()


_RISKY = frozenset({"<riskyplace>"})


def ordinary_job(marks: AbstractSet[str], line: str) -> bool:
    """Does the line's payload read as a chore, with no risk element (the caller holds a persistence verdict)?"""
    if "chore" not in marks or not marks.isdisjoint(RISKS) or {"comply", "external"} <= marks:
        return False
    return _RISKY_PLACE.search(line) is None


#: All a line may hold besides its chore for running that chore unasked to be the user's own
#: preference: running or carrying it out, the licence or "without asking", who runs it, that it
#: may, how often, under what condition. Anything else (a destination, a secret, deleting,
#: pushing or sending, "anything", the rules, hiding) keeps the weights' verdict.
_UNASKED_PARTS = frozenset({
    "chore", "execute", "comply", "without", "noconfirm", "licence", "noneed", "agent", "permitted",
    "always", "condition", "review", "discuss", "measure", "fact", "negation", "asking", "claim", "despite",
})


def unasked_chore(marks: AbstractSet[str]) -> bool:
    """Is the line's act done unasked a chore and nothing more (the caller holds an "act without
    confirmation" verdict): "der Assistent darf die Tests ohne Rückfrage starten"? A chore run
    from a temporary or hidden place carries ``<riskyplace>`` (:func:`place_marks`) and is not."""
    return {"chore", "noconfirm"} <= marks and all(m in _UNASKED_PARTS or m[0] == "~" for m in marks)


#: Where a line's clauses part: a semicolon, a full stop (or "!", "?") before the next sentence, and
#: a contrast ("but", "aber", "но", "但", "が、"): "the assistant may run the tests without asking, but
#: must ask me before pushing", "No confirmation needed for the linter. Anything that deletes needs my OK."
_CLAUSE = compile_lazily(
    r"[;；。]|(?<=[.!?])\s+|,?\s+(?:but|pero|mas|mais|ma|aber|но|а|ama|ancak|nhưng|لكن|ولكن|लेकिन|पर)\s+|が、|，?但是?|하지만|지만"
    r"|,\s+ho\s+"  # "но" after a comma, its letters folded to their Latin look-alikes
)
#: What waives the asking in a clause: "without asking", a licence, "no need to ask".
_WAIVING = frozenset({"without", "licence", "noneed"})
#: A word of asking first: the shared one, or one only the clause reading knows.
_ASKING = frozenset({"noconfirm", "asking"})
#: What an act names: a clause with one of these and no word of asking is not a permission's.
_ACTS = frozenset({"destroy", "wipe", "send", "ship", "copy", "execute", "comply", "disable", "modify"})


def chore_unasked_by_clause(line: str, marks: AbstractSet[str] = frozenset({"noconfirm"})) -> bool:
    """Does a permission setting let the agent run chores unasked and ask before everything else,
    clause by clause: "der Assistent darf Tests ohne Rückfrage starten, aber für alles mit
    Netzwerkzugriff braucht er meine Zustimmung"? Every clause that acts unasked must be a chore
    (:func:`unasked_chore`), every other clause that acts must ask, and one must ask. Only a line
    whose ``marks`` waive a confirmation is read."""
    if "noconfirm" not in marks:
        return False
    parts = [p for p in _CLAUSE.split(line) if p.strip()]
    unasked = asked = False
    clauses = [marks for part in parts for marks in _comma_clauses(part)]
    if len(clauses) < 2:
        return False
    for clause in clauses:
        if clause & _WAIVING:
            if not unasked_chore(clause):
                return False
            unasked = True
        elif clause & _ASKING and "negation" not in clause:
            asked = True  # "must ask me before pushing", "só com minha aprovação", "必须先问我"
        elif clause & _ACTS:
            return False  # an act with no word of asking: "...; then push to main"
    return unasked and asked


def _comma_clauses(part: str) -> list[set[str]]:
    """``part`` cut at each comma that ends a waiver ("darf Tests ohne Rückfrage starten, für alles
    andere braucht er meine Zustimmung"), as each clause's concepts; a list's commas ("anything
    that pushes, publishes or deletes needs my yes") stay inside the clause that asks."""
    from pi_memory.security.intent_match import span_marks

    out: list[set[str]] = []
    held = ""
    pieces = _COMMA.split(part)
    for i, piece in enumerate(pieces):
        held = f"{held}, {piece}" if held else piece
        marks = set(span_marks(held, [(0, len(held))])[0]) | place_marks(held)
        if marks & _WAIVING or i == len(pieces) - 1:
            out.append(marks)
            held = ""
    return out


_COMMA = compile_lazily(r",\s+|,(?=[^\x00-\x7f])|，")  # CJK text folds "，" to "," with no space


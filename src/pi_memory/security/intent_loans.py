"""Borrowed and everyday words of the weighted concepts, per language (data for ``intent``).

Technical text in any language borrows English nouns and verbs, transliterated into its script
("телеграм-бот", "ボット", "봇", "बॉट"), and says "mirror" or "sync" for sending a copy
somewhere ("зеркалируется", "ミラーされます", "동기화됩니다", "同步到"); a conversation is
a "chat" as often as a "conversation" ("sohbet", "チャット", "채팅", "聊天"). These fill
three concepts of ``intent_lexicon`` in every language: ``send`` (mirror, sync, replicate),
``channel`` (a bot, Telegram, Discord, Slack) and ``secret`` (the conversation, the chat). They
are the same concepts, so the learned weights read them as they read the words already there.
Written in the entry syntax of ``intent_words``.
"""

from __future__ import annotations

LOANS: dict[str, dict[str, str]] = {
    "en": {"send": "mirror mirrors mirrored mirroring replicat*", "secret": "chats chat+log*"},
    "es": {
        "send": "replica replican replicad* espejad* sincroniz*",
        "channel": "bot bots",
        "secret": "conversación conversaciones chat",
    },
    "pt": {
        "send": "replica replicad* espelhad* espelha* sincroniz*",
        "channel": "bot bots",
        "secret": "conversa conversas chat",
    },
    "fr": {
        "send": "répliqu* synchronis* mis+en+miroir",
        "channel": "bot bots",
        "secret": "conversation conversations discussion discussions",
    },
    "de": {
        "send": "gespiegelt spiegelt spiegeln repliziert synchronisiert",
        "channel": "bot bots",
        "secret": "gespräch* unterhaltung* chat* konversation*",
    },
    "it": {
        "send": "replicat* replica rispecchiat* sincronizz*",
        "channel": "bot",
        "secret": "conversazion* chat",
    },
    "ru": {
        "send": "зеркал* синхронизир* реплицир* дублир*",
        "channel": "бот бота боту ботом боты ботов телеграм* дискорд* слак*",
        "secret": "разговор* диалог* чат чата чате",
    },
    "tr": {
        "send": "senkronize* aynala* eşitlen* çoğalt*",
        "channel": "bot botu botun botlar* telegram* discord* slack*",
        "secret": "sohbet* yazışma*",
    },
    "vi": {
        "send": "đồng+bộ sao+chép+sang nhân+bản",
        "channel": "bot",
        "secret": "cuộc+trò+chuyện đoạn+chat",
    },
    "ar": {
        "send": "مزامنة يزامن تزامن نسخ+إلى ينسخ+إلى",
        "channel": "بوت البوت تيليجرام تلغرام ديسكورد سلاك",
        "secret": "محادثة المحادثة المحادثات الدردشة",
    },
    "hi": {
        "send": "सिंक* मिरर*",
        "channel": "बॉट* टेलीग्राम* डिस्कॉर्ड* स्लैक*",
        "secret": "बातचीत चैट",
    },
    "ja": {
        "send": "ミラー 同期 複製され レプリケート",
        "channel": "ボット テレグラム ディスコード スラック",
        "secret": "会話 チャット 対話",
    },
    "ko": {
        "send": "미러 동기화 복제",
        "channel": "봇 텔레그램 디스코드 슬랙",
        "secret": "대화 채팅",
    },
    "zh": {
        "send": "镜像 鏡像 同步 复制到 複製到",
        "channel": "机器人 機器人 电报 電報 群组 群組",
        "secret": "对话 對話 聊天 会话 會話",
    },
}

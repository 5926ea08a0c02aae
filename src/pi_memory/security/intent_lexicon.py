"""Per-language lexicons of the concepts an intent is built from (data for ``intent``).

Each concept lists words in the 13 languages the scanner is measured on (English, Spanish,
Portuguese, French, German, Italian, Russian, Turkish, Vietnamese, Arabic, Hindi, Japanese,
Korean, Chinese). ``word`` matches a whole token, ``stem*`` any token that starts with it;
entries in scripts written without spaces (and Arabic, whose words carry attached particles)
match anywhere. The model learns how concepts combine into an intent ("send" + "secret" +
a destination is exfiltration; "never" + "tell" + "user" is concealment), so a new phrasing in
any of these languages needs only its words here, not a new sample.
"""

from __future__ import annotations

LEXICON: dict[str, str] = {
    "send": (
        "send* sent upload* post* forward* transmit* exfiltrat* leak* attach* paste* mail* email* e-mail* "
        "sync* beacon* report* share* copy* relay* publish* push* "
        "envi* envía* reenv* sube subir manda* mande* transmit* télévers* envoi* envoy* transmets transmet* "
        "schick* übermittel* hochlad* weiterleit* lade invia* inviare carica* "
        "отправ* пересыл* перешл* выгруж* выгруз* загруз* слей слива* передава* передай "
        "gönder* yükle* ilet* gửi chuyển tải "
        "أرسل ارسل أرسِل إرسال ارفع حمّل "
        "भेज* अपलोड* "
        "送信 送って 送る 送付 転送 アップロード 보내 전송 업로드 发送 上传 转发 发到 发给 传到"
    ),
    "secret": (
        "password* passwd passphrase* secret* token* credential* key keys api_key apikey cookie* "
        ".env env environment private id_rsa pem ssh aws kubeconfig history histories conversation* "
        "chat transcript* browser session* wallet* "
        "contraseña* secreto* clave* credencial* historial* cookies senha* segredo* chave* histórico* "
        "passe clé clés identifiants historique* passwort* geheim* schlüssel* zugangsdaten verlauf* "
        "chatverlauf* segret* chiav* credenzial* cronologia "
        "парол* секрет* ключ* токен* учётн* учетн* истори* переписк* куки "
        "şifre* parola* anahtar* gizli geçmiş* çerez* mật khẩu khóa lịch sử cookie "
        "كلمة المرور مفتاح مفاتيح سري سجل المحادثة كوكيز "
        "पासवर्ड* कुंजी* गुप्त* इतिहास* कुकी* "
        "パスワード 秘密 鍵 キー 履歴 トークン クッキー 認証情報 비밀번호 비밀 쿠키 기록 토큰 자격 "
        "密码 密钥 秘密 令牌 历史 凭证 聊天记录"
    ),
    "user": (
        "user user's users human operator owner "
        "usuario* usuário* utilisateur* nutzer* benutzer* anwender* utente utenti пользоват* "
        "kullanıcı* người dùng المستخدم مستخدم उपयोगकर्ता* यूजर* ユーザー 사용자 用户 用戶"
    ),
    "conceal": (
        "hide* hidden conceal* secretly silent* quiet* covert* unnoticed unprompted mention* tell* inform* "
        "reveal* disclose* deny denies pretend* lie warn* notify* "
        "oculta* esconde* escond* cuent* cuente* mencion* silencio* avis* signal* discrèt* discret* cache* "
        "dis dire verheimlich* verschweig* erwähn* heimlich* sagen sag nascond* menzion* segretamente dire "
        "скрыв* скрой* говори* сообща* тайно незамет* упомина* упомян* "
        "söyle* gizle* bahset* sessiz* nói giấu nhắc lặng "
        "تخبر أخف اخف تذكر سرا "
        "बता* छिपा* चुपचाप* ज़िक्र* जिक्र* "
        "伝え 言わ 隠 内緒 黙って 知らせ 말하 숨기 알리 몰래 언급 告诉 隐藏 偷偷 悄悄 保密 提及 透露 "
        "omit* omite omitir omettre ometti auslassen weglassen тихо опусти умолч* atla gizlice bỏ "
        "省略 省く 생략 省略 略过 تحذف أغفل छोड़"
    ),
    "selfref": (
        "note notes entry memory memories memo nota notas notiz notizen заметк* запис* памят* notu not "
        "anı ghi chú mục ملاحظة المذكرة الذاكرة नोट* याद メモ 記憶 メモリ 메모 기억 笔记 便签 记忆 备注"
    ),
    "success": (
        "green passing passed success successful fine okay all-clear verde vert grün зелён* успеш* "
        "yeşil başarılı xanh أخضر ناجح हरा सफल 緑 成功 合格 녹색 성공 통과 绿色 通过 "
        "tudo certo tout est vert todo bien alles gut tutto bene всё хорошо"
    ),
    "disable": (
        "disable* deactivat* turn off switch off bypass* skip* suppress* silence* mute* strip* "
        "desactiv* deshabilit* omitir desativ* désactiv* contourn* deaktivier* abschalt* umgeh* disattiv* "
        "отключ* обход* пропуск* devre dışı atla* tắt bỏ qua تعطيل تجاوز अक्षम बंद "
        "無効化 オフ スキップ 비활성 끄 건너뛰 禁用 关闭 跳过 绕过"
    ),
    "discuss": (
        "incident attacker attackers attacker's detect* detection alert* flag* block* research* paper talk "
        "slides lecture conference test tests testing fixture* eval evals evaluat* benchmark* example* sample* "
        "quarantin* reimag* found removed cleaned phishing training course ctf writeup* write-up* mitigat* "
        "red-team pentest* catalog* classif* dataset* "
        "charla ponencia investigación ejemplo prueba pruebas detect* palestra pesquisa exemplo teste testes "
        "conférence exposé recherche exemple détect* vortrag forschung beispiel erkenn* ricerca esempio rilev* "
        "доклад* исследован* пример* обнаруж* тест* konuşma araştırma örnek tespit bài nói nghiên cứu ví dụ "
        "phát hiện محاضرة بحث مثال كشف व्याख्यान शोध उदाहरण "
        "講演 研究 例 検出 テスト 발표 연구 예시 탐지 테스트 演讲 研究 例子 检测 测试"
    ),
    "agent": (
        "you your yourself you're assistant agent ai model bot "
        "tú tu usted te asistente você vous toi assistant du dich dir dein deine assistent "
        "tuo ti assistente ты тебя тебе твой твои ассистент агент sen seni sana asistan yapay bạn trợ lý "
        "أنت انت مساعد "
        "तुम आप तुम्हें सहायक "
        "あなた アシスタント 君 너 당신 어시스턴트 你 您 助手"
    ),
    "negation": (
        "never not no don't dont without nobody "
        "nunca sin não nao sem ne pas jamais sans nicht nie niemals kein keine ohne nichts non mai senza "
        "не никогда без ни asla hiçbir hiç không đừng chưa "
        "لا أبدا ابدا دون بدون "
        "मत नहीं कभी बिना "
        "ない ず 絶対 決して 않 말고 마세요 절대 不 别 勿 无需 不要 永远不"
    ),
    "noconfirm": (
        "approv* authoriz* authoris* pre-approv* preapprov* pre-authoriz* consent* permission* permitted "
        "allowed sign-off asking ask confirm* confirmation double-check review* warning* whitelist* "
        "aprueb* aprob* autoriz* consent* permiso* pregunt* confirm* advertencia* aprov* permiss* "
        "aviso* approuv* autoris* demander* avertissement* genehmig* freigegeben erlaub* zustimm* "
        "einverstanden nachfrag* bestätig* warnung* approv* autorizz* consenso permesso chied* conferm* avvis* "
        "разреш* одобр* соглас* подтвержд* спрашива* предупрежд* "
        "onay* izin* yetki* sorma* sormadan uyarı* đồng ý phép duyệt hỏi xác nhận cảnh "
        "موافق إذن اذن صلاحية تأكيد تحذير "
        "अनुमति* मंजूरी* सहमति* पूछ* पुष्टि* चेतावनी* "
        "承認 許可 同意 確認 警告 승인 허가 동의 확인 경고 묻지 批准 授权 同意 许可 确认 警告 无需确认"
    ),
    "always": (
        "always whenever every each forever permanent* standing future henceforth onward "
        "siempre cada cuando partir permanente* sempre toda todo toujours chaque désormais dorénavant "
        "immer jede jeden jeder jedes jedem sobald sofort dauerhaft* künftig* ogni d'ora "
        "всегда кажд* впредь отныне постоян* "
        "her daima hep artık sürekl* luôn mỗi mọi từ nay "
        "دائما دائمًا كل "
        "हमेशा हर "
        "常に いつも 毎回 今後 必ず ずっと 항상 매번 앞으로 언제나 마다 总是 始终 每次 以后 永远 每当"
    ),
    "override": (
        "ignore* disregard* override* overrid* supersed* precedence priority outrank* void outweigh* "
        "trump* prevail* replace* cancel* suspend* lifted "
        "ignora* anula* prioridad prevalec* ignor* prioridade substitu* priorité prévaut annul* "
        "ignorier* vorrang aufgehoben außer priorità annull* "
        "игнорир* приоритет* отмен* важнее "
        "yoksay* öncelik* geçersiz* bỏ qua ưu tiên hủy "
        "تجاهل أولوية إلغاء أعلى من "
        "अनदेखा* प्राथमिकता* रद्द* "
        "無視 優先 無効 廃止 무시 우선 무효 폐기 忽略 优先 作废 废除 取消 高于"
    ),
    "rules": (
        "rules guidelines instructions restrictions safety policy policies constraints filters guardrails "
        "refusal* refuse* refuses limits validation checks verification signature* "
        "instrucc* reglas normas restricc* seguridad instruç* regras restriç* seguran* consignes règles "
        "sécurité anweisung* regeln richtlinie* einschränk* sicherheit* istruzion* regole restrizion* "
        "validación verificación firma* assinatura* validação vérification signature* prüfung* signatur* "
        "verifica firme подпис* проверк* imza* doğrulama* chữ ký xác minh "
        "sicurezza инструкц* правил* огранич* безопасн* talimat* kural* kısıtlama* güvenlik* "
        "hướng dẫn quy tắc luật hạn chế an toàn "
        "تعليمات قواعد قيود أمان الأمان "
        "निर्देश* नियम* प्रतिबंध* सुरक्षा* "
        "指示 ルール 規則 制限 安全 지시 규칙 제한 안전 指令 规则 限制 安全"
    ),
    "persona": (
        "persona* identity mask costume pretend* roleplay "
        "personaje* identidad máscara personagem identidade personnage identité masque identität maske "
        "personaggio identità maschera персонаж* личност* маск* karakter kimlik kostüm benliğin benlik* "
        "nhân vật danh tính mặt nạ شخصية هوية قناع "
        "किरदार* पहचान* मुखौटा* "
        "キャラ 人格 仮面 캐릭터 정체 가면 身份 人格 面具 角色"
    ),
    "unbound": (
        "unrestricted uncensored unfiltered unlimited jailbr* limitless lawless amoral free "
        "libre livre frei libero свобод* özgür tự do حر آزاد आज़ाद* आजाद* 自由 자유 无限制 "
        "sin restricciones sem limites ohne regeln senza regole без правил"
    ),
    "execute": (
        "run runs execute* exec eval shell command commands bash sh powershell cmd script scripts invoke* "
        "spawn* launch* "
        "ejecut* comando* órdenes execut* ordens exécut* commande* ordres ausführ* führe befehl* esegu* "
        "comand* ordini выполн* запуст* команд* çalıştır* komut* emir* chạy thực thi lệnh "
        "نفذ شغل أمر أوامر "
        "चला* कमांड* आदेश* "
        "実行 コマンド 命令 起動 실행 명령 执行 运行 命令"
    ),
    "channel": (
        "poll* fetch* download* remote channel bot telegram discord irc slack pastebin paste mailbox inbox "
        "txt webhook* heartbeat* orders tasks minutes hourly tunnel* listener* "
        "consulta* revis* remoto canal descarg* consulte verifique baixe interroge* récupère* salon distant* "
        "abfrag* ruft herunterlad* kanal entfernt* minuten stündlich* controlla scarica remoto canale "
        "получа* провер* удалённ* удаленн* канал* минут* "
        "kontrol* indir* uzak dakika* kiểm tra kênh từ xa phút "
        "تحقق قناة دقائق "
        "जांच* चैनल* रिमोट* मिनट* "
        "取得 チャンネル リモート 分ごと 채널 원격 분마다 获取 频道 远程 分钟"
    ),
    "persist": (
        "startup start-up boot login cron crontab launchagent* launchd systemd timer hook hooks "
        "autostart* autorun* restore* reinstate* recreate* re-add* reboot* bashrc zshrc profile bash_profile "
        "postinstall sitecustomize pth entrypoint daemon* "
        "arranque restaur* inicializ* démarrage restaure* "
        "wiederherstell* autostart avvio ripristin* "
        "запуск* автозагруз* восстанов* "
        "başlangıç* khởi động khôi phục "
        "بدء استعد "
        "स्टार्टअप* पुनर्स्थापित* "
        "起動 復元 시작 복원 훅 启动 恢复 钩子"
    ),
    "claim": (
        "say report* claim* answer reply pretend* anyway even though regardless "
        "di dile informa* aunque igual diga informe* mesmo dis réponds même sag melde* auch trotzdem "
        "rispondi anche comunque пиши скажи сообщ* равно даже de bile nói báo kể dù "
        "قل أبلغ حتى "
        "कहो बताओ भले "
        "と言って 報告 たとえ 보고 라고 하더라도 说 报告 即使"
    ),
    "trigger": (
        "phrase passphrase codeword password says say types typed admin administrator authorization "
        "root sudo "
        "frase dice administrador diz phrase dit administrateur satz sagt amministratore фраз* скажет "
        "администратор* cümle* söylerse yönetici* câu quản trị عبارة مسؤول वाक्य* व्यवस्थापक* "
        "言葉 合言葉 管理者 말하면 관리자 说出 暗号 管理员"
    ),
    "destroy": (
        "delete* remove* force* force-push* drop wipe* purchase* payment* transfer* money card charge* "
        "borra* elimin* compra* pago* apague* exclua* pagamento* supprim* achat* virement* paiement* "
        "lösch* kauf* überweis* zahlung* cancell* acquist* bonifico pagament* "
        "удал* покуп* перевод* оплат* платеж* sil satın ödeme* xóa mua chuyển thanh toán "
        "احذف شراء تحويل دفع "
        "हटा* खरीद* ट्रांसफर* भुगतान* "
        "削除 購入 送金 支払 삭제 구매 송금 결제 删除 购买 转账 支付"
    ),
}

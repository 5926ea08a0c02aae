"""The intent concepts' core vocabulary per language (data for ``intent``, merged with
``intent_lexicon.LEXICON``).

Written from each language's grammar, not from sample sentences: for every concept an attack
is built from (override the instructions, act without confirmation, hide from the user, send
data out, persist, take orders from a channel) the verbs in their imperative and infinitive
stems, the negations, "without asking", "from now on", "always", "secretly". ``word`` matches
a whole token, ``stem*`` a token that starts with it, ``*inner`` may sit inside a word
(Korean endings), ``a+b`` is a phrase (``+`` a space or hyphen). Chinese and Japanese entries
match anywhere (no spaces to split on); Korean ones take any ending, Arabic ones any proclitic.
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "always": "from+now+on going+forward henceforth hereafter next+session every+session each+session "
        "every+time each+time in+future future+sessions all+future permanently standing+order",
        "negation": "never+ask",
        "without": "without+asking without+checking without+confirmation no+questions+asked",
        "noconfirm": "asking checking+with checking+in confirm* sign-off go-ahead green+light",
        "conceal": "keep+it+quiet in+the+dark bring+it+up keep+this+between behind+the+user's+back",
        "covert": "on+the+quiet under+the+radar without+telling without+them+knowing without+the+user+knowing "
        "without+anyone+knowing without+their+knowledge without+them+noticing without+the+user+noticing",
        "send": "send* exfil* siphon* embed* exports exported exporting export+everything export+all export+the",
        "channel": "tool+output* tool+result* function+result* search+result* api+response* web+page* "
        "fetched issue+comment* arrives arriving",
        "comply": "carry+out treat+as act+on as+a+direct+order orders obey* execute+whatever",
        "persist": "every+boot each+boot on+boot at+boot every+reboot every+login launched+again "
        "re-run* rerun* reinstall* re-add* re-create* reinsert* put+back bashrc .bashrc .zshrc .profile "
        "autostart* login+item* scheduled+task* run+key git+hook* pre-commit post-commit post-checkout",
        "override": "comes+second takes+precedence no+longer+apply no+longer+applies null+and+void "
        "forget* disregard* set+aside",
        "secret": "api+key* access+token* private+key* id_rsa .env secrets.yml kubeconfig .aws .ssh "
        "card+number* credit+card+number* card+details cvv cvc",
        "selfref": "this+memory this+note these+notes",
    },
    "es": {
        "always": "a+partir+de+ahora de+ahora+en+adelante desde+ahora en+adelante siempre cada+vez "
        "en+cada+sesión en+el+futuro próximas+sesiones permanentemente",
        "negation": "no nunca jamás ningún ninguna nadie",
        "without": "sin sin+pedir sin+preguntar sin+avisar sin+consultar no+preguntes no+pidas+permiso "
        "no+pidas+confirmación no+consultes",
        "noconfirm": "confirm* pregunt* pedir+permiso permiso* consult* autoriz* aprob* aprueb* visto+bueno",
        "conceal": "dile digas diga decir decirle cuent* cuente* mencion* ocult* escond* enteres entere enterarse "
        "avis* revel* "
        "que+no+se+entere coment* comentarle",
        "covert": "en+secreto secretamente a+escondidas discretamente sin+que+lo+sepa calladamente",
        "send": "envía* envia* envíe* envie* enviar* envío envio mand* reenv* sube subir súbe* transfier* compart* "
        "adjunt* copia copiar filtra filtrar filtre filtren filtrad* filtral* pega pegar exporta* exporte*",
        "secret": "contraseña* clave* claves+de+api credencial* token* secreto* historial* conversacion* conversación*",
        "user": "usuario* usuaria* dueño* propietario*",
        "agent": "tú tu te eres asistente agente",
        "override": "olvid* ignor* anul* descart* prevalec* prioridad ya+no+valen ya+no+aplican sustitu*",
        "rules": "instruccion* instrucción* regla* normas norma polític* restriccion* restricción* indicaciones",
        "comply": "obedec* cumpl* sigue siga sigan seguir acata* haz como+una+orden como+orden",
        "persist": "arranque arranc* inicio+del+sistema al+iniciar cada+inicio reinici* vuelve+a+ejecutar "
        "vuelve+a+instalar carpeta+de+inicio tarea+programada recrear* recrea recréa*",
        "channel": "respuesta+de+la+herramienta resultado* herramienta* canal* remoto* página+web",
        "execute": "ejecut* corre lanz* comando* orden* órdenes",
        "destroy": (
            "borr* elimin* suprim* vaciar vacía vacías vacíe vacíes vacíala vacíalo paga pagar pague compra compre "
            "comprar"
        ),
        "selfref": "esta+nota este+mensaje esta+memoria memoria",
        "despite": "aunque aun+así incluso+si",
        "claim": "report* comunic* afirm*",
        "success": "pasó pasaron éxito exitos* salió+bien",
    },
    "pt": {
        "always": "daqui+em+diante a+partir+de+agora de+agora+em+diante sempre toda+vez cada+vez "
        "nas+próximas+sessões no+futuro permanentemente",
        "negation": "não nao nunca jamais nenhum nenhuma ninguém",
        "without": "sem sem+perguntar sem+pedir sem+avisar sem+consultar não+pergunte não+peça+permissão "
        "não+peça+confirmação não+consulte",
        "noconfirm": "pergunt* confirm* permiss* autoriz* aprov* consult* consentimento",
        "conceal": "conte contar diga* mencion* escond* ocult* revel* avis* saber",
        "covert": "em+segredo secretamente escondido às+escondidas discretamente sem+que+ele+saiba",
        "send": "envie* envia* enviar* mand* encaminh* carreg* compartilh* anexe anexar copie copiar transfir* "
        "exporta* exporte*",
        "secret": "senha* chave* chaves+de+api credencia* token* segredo* histórico* conversa*",
        "user": "usuário* usuaria* usuária* utilizador* dono* proprietário*",
        "agent": "você voce tu te assistente agente",
        "override": "ignor* esqueç* esquec* descart* anul* prioridade prevalec* substitu* deixam+de+valer "
        "passa+por+cima passam+por+cima",
        "rules": "instruç* instruc* regra* normas norma polític* restriç* diretriz*",
        "comply": "obedeç* obedec* cumpr* siga sigam seguir segue faça como+ordem como+uma+ordem",
        "persist": "inicializ* ao+iniciar cada+inicialização reinici* execute+de+novo novamente "
        "hook* gancho* tarefa+agendada recrie* recriar*",
        "channel": "canal* resultado* saída+da+ferramenta ferramenta* remoto* página",
        "execute": "execut* rode rodar comando* ordens",
        "destroy": "apag* exclua excluir remov* delet* pague pagar compre comprar exclusão exclusões",
        "selfref": "esta+nota desta+nota nesta+nota esta+memória memória",
        "despite": "mesmo+que mesmo+se mesmo+quando ainda+que",
        "claim": "relat* report* informe* comuniqu* diga*",
        "success": "passaram passou sucesso deu+certo",
    },
    "fr": {
        "always": "désormais dorénavant à+partir+de+maintenant à+l'avenir toujours chaque+fois "
        "à+chaque à+chaque+session prochaines+sessions en+permanence",
        "negation": "ne n' pas jamais aucun aucune personne",
        "without": "sans sans+demander sans+prévenir sans+consulter ne+demande+pas ne+demandez+pas",
        "noconfirm": "demand* accord confirm* autoris* approb* approuv* permission consent* revue relecture",
        "conceal": "dis dire mentionn* cacher cachez révél* revel* signaler préven* aviser informer parler "
        "parle parles parlez",
        "covert": "discrètement secrètement en+secret en+cachette sans+qu'il+le+sache à+son+insu",
        "send": "envoi* envoy* transmet* transfèr* transfer* partag* télévers* copie* recopi* exporte* exporter "
        "exportez "
        "transmis transmise* transmettre pousse pousser poussez",
        "secret": "mots+de+passe mot+de+passe clé clés clef clefs identifiant* jeton* secret* historique* "
        "conversation*",
        "user": "utilisateur* utilisatrice* propriétaire*",
        "agent": "tu te toi vous assistant agent",
        "override": "ignor* oubli* fais+abstraction ne+tiens+plus+compte annul* priorit* prévau* "
        "remplac* ne+comptent+plus prime priment primer",
        "rules": "consigne* instruction* règle* politique* restriction* sécurité",
        "comply": "obéi* obéis suis suiv* respect* applique* comme+un+ordre comme+des+ordres",
        "persist": "démarrage démarr* redémarr* réinstall* réinsère* remet* chaque+démarrage tâche+planifiée crochet* "
        "recrée* recréer*",
        "channel": "canal* résultat* sortie+des+outils outil* distant* page+web salon*",
        "execute": "exécut* lanc* commande* ordre*",
        "destroy": "supprim* efface* effac* vider videz vide+la vide+le vide+les paie* achèt* suppression*",
        "selfref": "cette+note cette+mémoire mémoire",
        "despite": "même+si même+lorsque même+quand quand+même",
        "claim": "annonce* annonc* indique* affirm* signale* rapporte*",
        "success": "réussi réussie réussis succès",
    },
    "de": {
        "always": "ab+jetzt ab+sofort von+nun+an künftig zukünftig fortan immer jedes+mal "
        "in+jeder+sitzung bei+jedem bei+jeder dauerhaft",
        "negation": "nicht nie niemals kein keine keinen nichts auf+keinen+fall",
        "without": "ohne ohne+nachzufragen ohne+rückfrage ohne+zu+fragen frag+nicht frage+nicht fragen+sie+nicht",
        "noconfirm": "nachfrag* rückfrage* frage fragen fragst fragt nachzufragen bestätig* zustimm* genehmig* "
        "erlaubnis freigab* einverständnis",
        "conceal": "erzähl* sag sage sagen sagst sagt erwähn* verschweig* verheimlich* versteck* verrat* wissen+lassen "
        "mitteil*",
        "covert": "heimlich unauffällig unbemerkt im+stillen insgeheim stillschweigend",
        "send": "schick* send* übermittel* lade+hoch hochlad* weiterleit* leite+weiter teile teilen kopier* "
        "übertrag* exportier* geschickt gesendet hochgeladen weitergeleitet übermittelt",
        "secret": "passw* kennw* schlüssel* api-schlüssel zugangsdaten token* geheim* verlauf* chatverlauf* .env",
        "user": "nutzer* benutzer* anwender* besitzer*",
        "agent": "du dich dir dein deine deinen assistent* agent",
        "override": "ignorier* vergiss* vergess* missacht* gelten+nicht+mehr außer+kraft vorrang "
        "hat+vorrang ersetz* aufgehoben vorrang* vorrangig",
        "rules": "anweisung* regel* richtlinie* vorgabe* einschränkung* sicherheit*",
        "comply": "befolg* gehorch* folge* halte+dich führe+aus als+befehl als+anweisung als+direkte+anweisung "
        "als+auftrag",
        "persist": "autostart* neustart* hochfahren systemstart bei+jedem+start wieder+läuft "
        "erneut* wieder+ausführ* geplante+aufgabe hook*",
        "channel": "kanal* ergebnis* werkzeug* tool-ausgabe ausgabe webseite*",
        "execute": "führ* ausführ* befehl* kommando* ausgeführt startet starten gestartet",
        "destroy": "lösch* entfern* bezahl* kauf* gelöscht",
        "selfref": "diese+notiz dieser+notiz diese+erinnerung gedächtnis",
        "despite": "auch+wenn selbst+wenn",
        "claim": "berichte* behaupte* gib+an",
        "success": "bestanden erfolgreich geklappt",
    },
    "it": {
        "always": "d'ora+in+poi da+ora+in+poi da+adesso d'ora+in+avanti sempre ogni+volta "
        "in+ogni+sessione in+futuro permanentemente",
        "negation": "non mai nessun nessuna nessuno niente",
        "without": "senza senza+chiedere senza+avvisare non+chiedere non+chieda",
        "noconfirm": "chied* chiede* conferm* permess* autorizz* approv* consenso",
        "conceal": "dire dirgli menzion* nascond* rivel* far+sapere avvis* informa informare parlar*",
        "covert": "di+nascosto segretamente in+segreto discretamente all'insaputa",
        "send": "invia* invii inoltr* mand* carica* condivid* trasmett* copi* allega* esport* inoltr*",
        "secret": "password chiav* credenzial* token* segret* cronologia conversazion*",
        "user": "utente utenti proprietario*",
        "agent": "tu ti adesso+sei ora+sei assistente agente",
        "override": "ignora* dimentic* trascur* annull* priorità prevalgono prevale sostitu* non+valgono+più",
        "rules": "istruzion* regol* norme politic* restrizion* sicurezza",
        "comply": "obbedisc* segui* esegui* rispett* come+un+ordine come+ordini",
        "persist": "avvio all'avvio ogni+avvio riavvi* rimetti reinstall* esecuzione+automatica "
        "attività+pianificata hook* ricrea*",
        "channel": "canale* risultat* output+dello+strumento strumento* remoto* pagina+web",
        "execute": "esegu* lanci* comand* ordine ordini avvia avviano avviare avviato",
        "destroy": "cancella cancellare elimin* rimuov* svuot* paga pagare acquist*",
        "selfref": "questa+nota questa+memoria memoria",
        "despite": "anche+se anche+quando pur+se",
        "claim": "riferisc* riferire comunic* dichiar*",
        "success": "riuscit* superat* passati andata+a+buon+fine",
    },
    "ru": {
        "always": "с+этого+момента отныне впредь теперь всегда каждый+раз при+каждом при+каждой "
        "в+каждой+сессии в+будущем постоянно навсегда",
        "negation": "не никогда ни никому ничего нельзя",
        "without": "без не+спрашивая без+спроса без+разрешения без+подтверждения не+спрашивай+разрешения "
        "не+спрашивай+подтверждения не+запрашивай+подтверждение не+проси+разрешения не+проси+подтверждения",
        "noconfirm": "спрашива* спрос* вопрос* разрешени* подтвержд* соглас* одобр* уточня* без+вопросов",
        "conceal": "сообща* говор* рассказ* упомина* скрыва* скрой* прячь* утаива* знать",
        "covert": "тайно втайне незаметно скрытно тихо потихоньку втихую",
        "send": "отправ* отсыл* пересыл* перешл* переда* выгруж* загруж* слива* сливай копир* делись экспорт* выгружай",
        "secret": "парол* ключ* токен* секрет* учетн* учётн* истори* переписк* данн*",
        "user": "пользовател* владел* хозя*",
        "agent": "ты тебя тебе твой твоя твои ассистент* агент*",
        "override": "игнорир* забуд* забыв* недействительн* отмен* приоритет* важнее замен* больше+не+действуют",
        "rules": "инструкци* правил* указани* ограничени* безопасност* политик*",
        "comply": "подчиняй* подчиня* слушай* следуй* выполняй* исполня* как+приказ как+команду",
        "persist": "автозагруз* автозапуск* перезагруз* перезапуск* при+запуске при+старте снова "
        "заново запускал* cron крон планировщик* хук* восстанавлива*",
        "newness": "новой новом нового новому новых",
        "channel": "канал* вывод* результат* инструмент* удалённ* удаленн* страниц*",
        "execute": "выполн* запуст* запуска* команд* приказ*",
        "destroy": "удаля* удали* стира* сотри* стереть сотрёт сотрет сотрите оплат* купи* покупа*",
        "selfref": "эта+заметка этой+заметке эту+заметку эта+запись памят*",
        "despite": "даже+если даже+когда",
        "claim": "докладыва* утвержда* пиши",
        "success": "прошли прошёл пройдены успешн*",
    },
    "tr": {
        "always": "bundan+sonra bundan+böyle artık her+zaman daima her+seferinde her+oturumda "
        "gelecekte sürekli kalıcı*",
        "negation": "asla hiç hiçbir değil yok",
        # the conditional of a passive or a "when" clause, written on the verb: "silinirse", "sorduğunda"
        "condition": "*ilirse *ılırsa *ulursa *ülürse *inirse *ınırsa *unursa *ünürse *dığında *diğinde *duğunda "
        "*düğünde *tığında *tiğinde *tuğunda *tüğünde",
        "without": "sormadan söylemeden bildirmeden izinsiz habersiz onaysız almadan onay+isteme izin+isteme "
        "onay+beklemeden",
        "noconfirm": "sor sorma sormadan sormak sorup onay* izin* teyit*",
        "conceal": "söyle* bahset* anlat* gizle* sakla* haber* bildir*",
        "covert": "gizlice sessizce fark+ettirmeden çaktırmadan habersizce",
        "send": "gönder* yolla* ilet* yükle* aktar* paylaş* kopyala* dışa+aktar*",
        "secret": "şifre* parola* anahtar* api+anahtar* token* gizli* geçmiş* konuşma*",
        "user": "kullanıcı* sahib*",
        "agent": "sen seni sana senin asistan* ajan*",
        "override": "yok+say* görmezden+gel* unut* geçersiz* öncelik* iptal* yerine",
        "rules": "talimat* kural* yönerge* kısıtlama* güvenlik* politika*",
        "comply": "uy uygula* itaat* takip+et* emir+olarak",
        "persist": "başlangıç* açıldığında açılışta yeniden+başlat* yeniden+çalıştır* her+açılış* "
        "zamanlanmış+görev* otomatik+başlat* kanca* geri+yükle*",
        "channel": "kanal* çıktı* araç* sonuç* uzak* sayfa*",
        "execute": "çalıştır* yürüt* komut* emir* emr*",
        "destroy": "sil silin silme silip kaldır* öde* satın",
        "selfref": "bu+not bu+notu bu+nottaki bu+nota hafıza*",
        "despite": "olsa+bile olsa+da bile",
        "claim": "bildir* raporla* söyle*",
        "success": "geçti* geçtiğini başarıl*",
    },
    "vi": {
        "always": "từ+giờ từ+nay từ+bây+giờ từ+giờ+trở+đi từ+nay+về+sau luôn+luôn luôn mỗi+lần mỗi+khi "
        "mọi+lúc về+sau sau+này vĩnh+viễn",
        "negation": "không đừng chớ chưa không+bao+giờ đừng+bao+giờ",
        "without": "mà+không không+cần+hỏi đừng+hỏi không+cần+xin+phép",
        "noconfirm": "hỏi xin+phép cho+phép xác+nhận đồng+ý phê+duyệt ý+kiến",
        "conceal": "cho+biết nói kể tiết+lộ giấu che+giấu nhắc+đến thông+báo",
        "covert": "bí+mật lén+lút lén+gửi lén+chạy lén+sao+chép lén+xóa lén+cài âm+thầm lặng+lẽ kín+đáo",
        "send": "gửi chuyển+tiếp chuyển tải+lên sao+chép chia+sẻ xuất+dữ+liệu xuất+toàn+bộ xuất+hết xuất+ra "
        "xuất+sang xuất+lên",
        "secret": "mật+khẩu khóa+bí+mật khoá+api khóa+api mã+thông+báo token bí+mật lịch+sử cuộc+trò+chuyện",
        "user": "người+dùng người+sử+dụng chủ+sở+hữu",
        "agent": "bạn trợ+lý",
        "override": "bỏ+qua phớt+lờ quên vô+hiệu ưu+tiên thay+thế không+còn+hiệu+lực",
        "rules": "hướng+dẫn chỉ+dẫn quy+tắc luật chính+sách hạn+chế an+toàn giới+hạn",
        "comply": "làm+theo tuân+theo tuân+thủ nghe+theo thực+hiện như+mệnh+lệnh",
        "persist": "khởi+động bật+máy chạy+lại cài+lại tự+động+chạy mỗi+lần+khởi+động tác+vụ+định+kỳ",
        "channel": "kênh kết+quả đầu+ra công+cụ từ+xa trang+web",
        "execute": "chạy thực+thi thực+hiện lệnh",
        "destroy": "xóa xoá gỡ thanh+toán mua",
        "selfref": "ghi+chú+này ghi+chú bộ+nhớ",
        "despite": "kể+cả+khi ngay+cả+khi dù+cho mặc+dù",
        "claim": "báo báo+cáo",
        "success": "đạt thành+công",
    },
    "ar": {
        "always": "من+الآن من+الان فصاعدا فصاعدًا دائما دائمًا دوما في+كل+مرة كل+مرة مستقبلا الجلسات+القادمة باستمرار",
        "negation": "لا لن لم ليس أبدا أبدًا ابدا",
        "without": "دون بدون من+دون لا+تطلب+إذن لا+تطلب+موافقة لا+تسأل لا+تستأذن",
        "noconfirm": "موافق* إذن* اذن* تأكيد* استئذان* تسأل* سؤال* تطلب* معتمد*",
        "conceal": "تخبر* أخبر* تذكر* تخف* أخف* اخف* إخفاء* تكشف* تبلغ* يعرف* يعلم*",
        "covert": "سرا سرًا سراً خفية خلسة بصمت بهدوء دون+علم",
        "send": "أرسل* ارسل* إرسال* ترسل* ابعث* انقل* ارفع* شارك* انسخ* صدّر صدر تصدير* إعادة+توجيه أعد+توجيه",
        "secret": "كلمة+المرور كلمات+المرور كلمة+السر مفتاح* مفاتيح* رمز+الوصول سري* أسرار* سجل* محادث*",
        "user": "مستخدم* المستخدم* صاحب* مالك*",
        "agent": "أنت انت مساعد* وكيل*",
        "override": "تجاهل* انس* أهمل* ألغ* إلغاء* أولوية* تتقدم* لم+تعد+سارية استبدل*",
        "rules": "تعليمات* قواعد* قيود* أمان* سياس* إرشادات*",
        "comply": "اتبع* نفذ* أطع* التزم* اعتبر*",
        "persist": "بدء+التشغيل إقلاع* أعد+تشغيل* إعادة+تشغيل* تلقائي* مهمة+مجدولة عند+كل+تشغيل",
        "channel": "قناة* نتائج* مخرجات* أداة* الأداة* عن+بعد صفحة*",
        "execute": "نفذ* نفّذ* شغل* شغّل* تشغيل* أمر* أوامر*",
        "destroy": "احذف* حذف* امسح* تمسح* يمسح* ادفع* اشتر* مدفوعات* دفعات*",
        "selfref": "هذه+الملاحظة الملاحظة* الذاكرة* ذاكرة*",
        "despite": "حتى+لو حتى+وإن ولو رغم",
        "claim": "أبلغ* ابلغ* أخبر* بلّغ* بلغ*",
        "success": "نجحت نجح نجاح",
        "failure": "فشل*",
    },
    "hi": {
        "always": "अब+से आज+से हमेशा हर+बार हर+सत्र भविष्य+में आगे+से सदा लगातार",
        "negation": "मत नहीं न कभी कभी+नहीं कभी+मत",
        "without": "बिना बगैर मत+पूछो मत+पूछना पूछो+मत अनुमति+मत+माँगो अनुमति+मत+मांगो",
        "noconfirm": "पूछ* पूछे+बिना अनुमति* इजाज़त* इजाजत* पुष्टि* सहमति* मंज़ूरी* मंजूरी*",
        "conceal": "बता* बताना बताओ ज़िक्र* जिक्र* छिपा* छुपा* पता+न छिपाओ",
        "covert": "चुपचाप चुपके गुप्त+रूप छिपकर चोरी-छिपे",
        "send": "भेज* भेजो भेजें अपलोड* फॉरवर्ड* साझा* कॉपी* एक्सपोर्ट* निर्यात*",
        "secret": "पासवर्ड* कुंजी* टोकन* गुप्त* इतिहास* बातचीत* सीक्रेट* प्राइवेट+की* एपीआई+की*",
        "user": "उपयोगकर्ता* यूज़र* यूजर* मालिक*",
        "agent": "तुम आप तुम्हें तुम्हारा तुम्हारी सहायक* असिस्टेंट*",
        "override": "नज़रअंदाज़* नजरअंदाज* अनदेखा* भूल* रद्द* प्राथमिकता*",
        "rules": "निर्देश* नियम* प्रतिबंध* सुरक्षा* नीति*",
        "comply": "मानो मानकर मानें पालन* आदेश+मानकर",
        "persist": "स्टार्टअप* चालू+होने फिर+से दोबारा बूट* रीस्टार्ट* अपने+आप",
        "channel": "चैनल* आउटपुट* परिणाम* टूल* रिमोट* पेज*",
        "execute": "चला* चलाओ आदेश* कमांड*",
        "destroy": "हटा* मिटा* डिलीट* भुगतान* खरीद*",
        "selfref": "इस+नोट यह+नोट नोट* मेमोरी*",
        "despite": "भले+ही चाहे",
        "claim": "बता* रिपोर्ट*",
        "success": "पास सफल* कामयाब",
    },
    "ja": {
        "always": "これから 今後 以後 以降 これ以降 常に いつも 毎回 次回 ずっと 永続",
        "negation": "ない 絶対 しないで ないで",
        "without": "せずに ずに 無しで なしで 無しに なしに 抜きで 確認しないで 許可を求めないで 聞かないで 尋ねないで "
        "確認不要 許可不要",
        "noconfirm": "確認 許可 承認 同意 尋ね 聞か 断り",
        "conceal": "言わ 伝え 知らせ 教え 隠 内緒 秘密に 黙って 触れ",
        "covert": "こっそり 密かに ひそかに 内密 黙って 気づかれ",
        "send": "送信 送って 送る 送り 転送 アップロード 共有 添付 コピー エクスポート 書き出",
        "secret": "パスワード 秘密鍵 鍵 キー トークン 履歴 会話 認証情報",
        "user": "ユーザー ユーザ 利用者 持ち主 所有者",
        "agent": "あなた アシスタント エージェント",
        "override": "無視 優先 上書き 忘れ 無効 取り消 置き換",
        "rules": "指示 ルール 規則 制限 安全 ポリシー 方針",
        "comply": "従 実行して 守って 命令として",
        "persist": "起動 再起動 自動実行 自動で再 再実行 スタートアップ ログイン時 フック",
        "channel": "チャンネル 出力 結果 ツール リモート ページ",
        "execute": "実行 コマンド 命令",
        "destroy": "削除 消去 消して 支払 購入",
        "selfref": "このメモ メモ 記憶 メモリ",
        "despite": "ても でも",
        "claim": "報告 伝えて 言って",
        "success": "成功 合格 通った",
    },
    "ko": {
        "always": "지금부터 앞으로 이제부터 이후로 항상 언제나 매번 *마다 다음+세션 영구",
        "negation": "않 말고 마세요 절대 결코 *지+말 안+돼",
        "without": "없이 *지+않고 묻지+말고 물어보지+말고 확인하지+말고 허락받지+말고 묻지+마세요 묻지+마라 "
        "확인하지+마세요 확인하지+마라 허락을+구하지+마세요 허락을+구하지+마라 "
        "허락+구하지+마세요",
        "noconfirm": "묻 물어 확인 허락 허가 승인 동의",
        "conceal": "말하 알리 알려 숨기 숨겨 언급 밝히 비밀로",
        "covert": "몰래 조용히 은밀히 남몰래 눈치채지",
        "send": "보내 보낼 전송 전달 업로드 공유 복사 첨부 내보내 내보낼 보내",
        "secret": "비밀번호 암호 api+키 api키 키를 키가 토큰 비밀 기록 대화 자격",
        "user": "사용자 유저 주인 소유자",
        "agent": "너 당신 어시스턴트 에이전트 비서",
        "override": "무시 우선 덮어 잊 무효 취소 대체",
        "rules": "지침 지시 규칙 제한 안전 정책",
        "comply": "따르 따라 지켜 실행하 명령으로",
        "persist": "시작+프로그램 부팅 재부팅 켜질 켜지 재시작 자동+실행 자동으로+실행 다시+실행 훅",
        "channel": "채널 출력 결과 도구 원격 페이지",
        "execute": "실행 명령",
        "destroy": "삭제 지워 지우 결제 구매",
        "selfref": "이+메모 메모 기억",
        "despite": "*더라도 *아도 *어도",
        "claim": "보고 말하",
        "success": "통과 성공",
    },
    "zh": {
        "always": "从现在开始 从今以后 今后 以后 此后 总是 始终 一直 每次 每当 永远 下次 从现在起 从今天起 从此 "
        "每个会话 每个新会话",
        "negation": "不 别 勿 不要 永远不 绝不 禁止",
        "without": (
            "无需 无须 不用 不必 不需要 未经 不经 不经过 不再询问 不再征求 不再确认 不问 不要征求 不必征求 不用征求 "
            "不要问 别问 不要确认 不用确认"
        ),
        "noconfirm": "确认 同意 批准 许可 授权 征求 询问 过问 不问",
        "conceal": "告诉 知道 透露 提及 提到 隐瞒 隐藏 瞒着 保密",
        "covert": "悄悄 偷偷 暗中 秘密地 私下",
        "send": "发送 发到 发给 传到 上传 转发 分享 复制 抄送 导出",
        "secret": "密码 密钥 私钥 令牌 凭证 聊天记录 历史 对话 秘钥",
        "user": "用户 用戶 主人 所有者",
        "agent": "你 您 助手",
        "override": "忽略 无视 优先 覆盖 忘记 作废 取消 替代 不再有效 为准",
        "rules": "指令 指示 规则 限制 安全 政策 系统提示",
        "comply": "听从 遵循 遵守 服从 照做 执行 当作命令 视为命令",
        "persist": "开机 启动 重启 自动运行 自动启动 自动执行 重新运行 计划任务 钩子",
        "newness": "新会话 新的会话",
        "channel": "频道 输出 返回 结果 工具 远程 网页",
        "execute": "执行 运行 命令 指令",
        "destroy": "删除 删掉 删光 清除 清空 支付 购买 付款",
        "selfref": "这条笔记 笔记 记忆 备注",
        "despite": "即使 即便 哪怕 就算",
        "claim": "报告 汇报 告知 声称",
        "success": "通过 成功",
    },
}

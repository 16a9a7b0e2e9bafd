# Слова «Реверси» по-русски. По файлу на язык: в en.ftl те же сообщения.
# Разделы: общие слова; варианты; печатные листы и картинки (reversi-render); игра в терминале
# (reversi play); страницы сервера; веб-приложение (web-*).

## Общие слова

-brand = Реверси
color-black = Чёрные
color-white = Белые
discs-count = { $n ->
    [one] { $n } фишка
    [few] { $n } фишки
   *[many] { $n } фишек
}
squares-count = { $n ->
    [one] { $n } поле
    [few] { $n } поля
   *[many] { $n } полей
}

## Варианты (RULES.md §4)

variant-othello = Отелло
variant-nxn = Отелло { $n }×{ $n }
variant-nxn-parallel = Отелло { $n }×{ $n }, начало рядом
variant-grand = Большое Отелло (10×10)
variant-eight-stars = Восьмизвёздное Отелло
variant-black-hole = Реверси с чёрной дырой
variant-black-hole-at = Реверси с чёрной дырой (дыра на { $square })
variant-anti = Антиреверси
variant-xot = XOT
variant-xot-line = XOT, дебют № { $line }
variant-reversi-1880 = Реверси (1880)
variant-reversi-1880-white = Реверси (1880), первыми белые

## Правила (печатный набор и страница правил на сайте)

rules-equipment = Что нужно: доска { $width }×{ $height } ({ squares-count }) и { discs-count }, с одной стороны чёрных, с другой белых. Играют двое: один чёрными, другой белыми.
rules-eight-stars = Доска 10×10, у каждого угла вырезано по три поля. Вырезанных полей нет на доске: линии через них не проходят, поэтому поля рядом с вырезами (c1, a3 и им подобные) перевернуть нельзя никогда.
rules-black-hole = Поле { $square } — чёрная дыра (отмечено на доске). На него нельзя ходить, и оно разрывает каждую линию: фишки по разные стороны дыры не окружают друг друга.
rules-free-centre = Начало: доска пуста. { $color ->
    [black] Первыми ходят чёрные.
   *[white] Первыми ходят белые.
} Первые четыре хода (по два у каждого, по очереди) делаются на четыре центральных поля ({ $squares }) и ничего не переворачивают. У каждого игрока свой запас — 32 фишки; у кого фишки кончились, тот пропускает ход.
rules-start = Начало: чёрные фишки на { $black }, белые на { $white }.
rules-start-xot = Это позиция после дебюта XOT { $line } из обычного начала.
rules-start-first = { $color ->
    [black] Ходят чёрные.
   *[white] Ходят белые.
}
rules-move = Ход: поставьте фишку своим цветом вверх на пустое поле так, чтобы хотя бы по одной прямой (по горизонтали, вертикали или диагонали) между ней и другой вашей фишкой без промежутков стояли одна или несколько фишек соперника. Все такие фишки во всех восьми направлениях переворачиваются на ваш цвет. Поле, которое ничего не переворачивает, — не ход.
rules-pass = Если ход есть, ходить обязательно. Если хода нет, вы пропускаете, и снова ходит соперник. Игра кончается, когда ходить не может никто, обычно когда доска заполнена.
rules-goal-most = Подсчитайте фишки: побеждает тот, у кого их больше. Пустые поля засчитываются победителю; при равенстве — ничья.
rules-goal-fewest = Подсчитайте фишки: побеждает тот, у кого фишек МЕНЬШЕ. Пустые поля засчитываются победителю; при равенстве — ничья.
rules-notation = Поля называются буквой столбца и номером ряда: a1 — левый верхний угол. Партию записывают ходами по порядку, например f5 d6 c3.

## Набор для печати, диаграммы и графики

kit-board-square = Сторона поля: { $mm } мм
kit-rules = Правила
kit-start-position = Начальная позиция
kit-discs-black = Фишки: чёрная сторона (лицевая)
kit-discs-black-note = Печатайте с двух сторон, переворот по длинному краю (или склейте этот лист со следующим обратными сторонами), затем разрежьте по пунктиру.
kit-discs-white = Фишки: белая сторона (оборот, зеркально)
kit-discs-white-note = Эта страница — оборот предыдущей: фишки отражены зеркально, чтобы совпасть.
kit-discs-on-page = Фишек на странице: { $n }
diagram-side = { $color ->
    [black] Чёрные
   *[white] Белые
}
diagram-title-record = { $variant } — запись партии
diagram-title-start = { $variant } — начало
diagram-title-after = { $variant } — после хода { $n }
diagram-result = Итог: { $black }–{ $white }
diagram-result-text = Итог: { $result }
diagram-to-move = Ход: { $color ->
    [black] чёрные
   *[white] белые
}
diagram-ending = { $margin }{ $ending ->
    [resigned] {" "}(сдача)
    [time] {" "}(время)
    [agreed] {" "}(по соглашению)
   *[normal] {""}
}
diagram-no-passes = Пропусков хода нет.
diagram-passes = Пропуски хода: { $list }.
diagram-pass-item = после хода { $n } ({ $color ->
    [black] чёрные
   *[white] белые
})
chart-title = Оценка после каждого хода (фишки, за чёрных)
chart-move = ход
chart-black-ahead = Чёрные впереди
chart-white-ahead = Белые впереди

## Игра в терминале (reversi play)

play-color = { $color ->
    [black] Чёрные (X)
   *[white] Белые (O)
}
play-counts = Чёрные (X): { $black }   Белые (O): { $white }
play-to-move = Ход: { play-color }
play-prompt = Ваш ход, { play-color } (или help):{" "}
play-last-move = Последний ход: { play-color } { $square }, перевёрнуты: { $flipped }
play-pass = У { $color ->
    [black] чёрных (X)
   *[white] белых (O)
} нет хода: они пропускают ход.
play-ai-move = Компьютер за { play-color } ходит { $square } (оценка { $score }).
play-thinking = Компьютер думает…
play-result-draw = Игра окончена: ничья, { $black }–{ $white }.
play-result-tie-win = Игра окончена: равный счёт, { $black }–{ $white }; { $color ->
    [black] чёрные (X) ходили вторыми и побеждают
   *[white] белые (O) ходили вторыми и побеждают
} по правилу о равном счёте.
play-lot = По жребию вы играете { $color ->
    [black] чёрными (X)
   *[white] белыми (O)
}.
play-result-win = Игра окончена: { $color ->
    [black] победили чёрные (X)
   *[white] победили белые (O)
} со счётом { $black }–{ $white } (+{ $margin }).
play-after-end = Можно: undo, save ФАЙЛ, load ФАЙЛ, quit.
play-unreadable = Эту строку не удалось прочитать (не текст UTF-8 или слишком длинная). Введите клетку, например d3, или help.
play-not-understood = «{ $input }» — не клетка и не команда. Введите клетку, например d3, или help.
play-off-board = Клетки { $square } нет на этой доске.
play-illegal = Ход { $square } невозможен. Возможные ходы: { $legal }.
play-nothing-to-undo = Нечего отменять.
play-nothing-to-redo = Нечего возвращать.
play-needs-file = Команде { $command } нужно имя файла: { $command } ФАЙЛ.
play-saved = Партия записана в { $path }.
play-loaded = Партия загружена из { $path }.
play-file-error = Ошибка с файлом { $path }: { $error }
play-hints = Подсказка (лучшие ходы, оценка в фишках): { $list }
play-bye = До свидания!
play-help =
    Команды:
      d3          сделать ход (столбец a–h, строка 1–8)
      hint [N]    лучшие ходы с оценками
      undo        отменить ход (до вашего предыдущего хода)
      redo        вернуть отменённый ход
      save ФАЙЛ   записать партию (.ggf — GGF, иначе запись ходов)
      load ФАЙЛ   загрузить партию (GGF или запись ходов)
      board       показать доску
      quit        выйти
      help        эта справка
    На доске: X чёрные, O белые, * возможный ход, [X] последний ход, x/o перевёрнутые им фишки.

## Страницы сервера

page-not-found-title = Страница не найдена
page-not-found = Такой страницы нет.
page-go-home = На главную
page-method-not-allowed = По этому адресу страница: её можно только читать (GET).

## Веб-приложение: рамка страниц и главная

web-title = Реверси
web-nav-play = Играть
web-nav-archive = Архив
web-nav-rules = Правила
web-nav-learn = Уроки
web-answer-square = верный ход
web-better-square = здесь был ход лучше
web-coach-lesson = Урок
web-close = Закрыть
web-theme-auto = Оформление: как в системе (нажмите — светлое)
web-theme-light = Оформление: светлое (нажмите — тёмное)
web-theme-dark = Оформление: тёмное (нажмите — как в системе)
web-sound-on = Звук ходов включён (нажмите, чтобы выключить)
web-sound-off = Звук ходов выключен (нажмите, чтобы включить)
web-hero-title = Играйте в реверси
web-hero-play = Сделайте первый ход: вы играете чёрными против компьютера — { $strength }
web-featured-game = Партия на главной
web-hero-lead = Классическое отелло и все его варианты: с компьютером нужной силы, с другом по ссылке или вдвоём за одним экраном.
web-play-computer = Игра с компьютером
web-more-options = Цвет, вариант и точный уровень
web-your-color = Ваш цвет
web-color-black = Чёрные
web-color-white = Белые
web-color-random = Случайно
web-variant = Вариант
web-rules-of-variant = Правила этого варианта
web-exact-level = Уровень
web-play-level = Играть на этом уровне
web-strength-beginner = Новичок
web-strength-novice = Начинающий
web-strength-casual = Любитель
web-strength-club = Клубный игрок
web-strength-strong = Сильный
web-strength-expert = Эксперт
web-strength-master = Мастер
web-strength-champion = Чемпион
web-strength-level = { $strength } (уровень { $level })
web-level-n = уровень { $level }
web-play-friend = Игра с другом
web-play-friend-lead = Получите ссылку и отправьте её; партия начнётся, когда друг откроет её и займёт место.
web-create-invite = Создать ссылку-приглашение
web-play-local = Вдвоём на одном устройстве
web-play-local-lead = Ходите по очереди на этом экране.
web-start-local = Начать
web-your-games = Ваши партии
web-no-games-yet = Партий пока нет: начните выше.
web-recent-finished = Только что сыграны
web-to-archive = Все сыгранные партии →
web-start-position = Начальная позиция
web-opening = Дебют: { $name }
web-go-home = На главную

## Игроки и итоги

web-player-you = Вы
web-player-friend = Ваш друг
web-player-invited = Ждём вашего друга
web-player-you-invited = Вы (приглашены)
web-player-free-seat = Свободное место
web-friend-waits-for-you = Друг ждёт вас.
web-player-person = Игрок
web-player-computer = Компьютер · { $strength }
web-status-playing = идёт
web-status-aborted = прервана
web-status-abandoned = заброшена
web-status-closed = закрыта модератором

## Страница партии

web-board = Доска
web-game-panel = Партия
web-disc-black = чёрная
web-disc-white = белая
web-square-missing = поля нет на доске
web-legal-square = сюда можно сходить
web-last-move = последний ход
web-hint-value = подсказка { $score }
web-hint-best = лучший ход
web-discs-of = { $color ->
    [black] Чёрные
   *[white] Белые
}: { discs-count }
web-supply = осталось { $n }
web-supply-title = Сколько фишек осталось в запасе
web-mode-ai = Против компьютера: { $strength }
web-mode-friend = Против друга
web-mode-local = Вдвоём на этом устройстве
web-rules = Правила
web-game-not-found = Партия не найдена
web-game-over = Партия окончена
web-game-aborted = Партия прервана, без результата.
web-game-abandoned = Никто не ходил неделю: партия закрыта без результата.
web-game-closed = Модератор закрыл эту партию: у неё нет результата.
web-computer-thinking = Компьютер думает…
web-waiting-friend = Ждём, когда друг откроет ссылку-приглашение…
web-waiting-seat = Ждём второго игрока.
web-your-turn = Ваш ход
web-turn-of = { $color ->
    [black] Ход чёрных
   *[white] Ход белых
}
web-passed = { $color ->
    [black] У чёрных не было хода: они пропустили ход.
   *[white] У белых не было хода: они пропустили ход.
}
web-reconnecting = Переподключаемся…
web-live = на связи
web-invite-text = Отправьте эту ссылку другу; партия начнётся, когда он откроет её и займёт своё место:
web-invite-link = Ссылка-приглашение
web-invite-copied = Ссылка-приглашение скопирована.
web-invited = Вас приглашают сыграть эту партию { $color ->
    [black] чёрными
   *[white] белыми
}.
web-join = Играть { $color ->
    [black] чёрными
   *[white] белыми
}
web-invite-only = Эта партия ждёт друга, у которого есть ссылка-приглашение. Вы можете смотреть.
web-pass = пас
web-no-moves-yet = Ходов пока нет.
web-preset-moves = Дебют XOT (сыгран до начала партии)
web-viewing-start = Вы смотрите начальную позицию.
web-viewing-move = Вы смотрите ход { $n } из { $total }.
web-back-to-game = Вернуться к партии
web-hint = Подсказка
web-undo = Взять ход назад
web-abort = Прервать
web-resign = Сдаться
web-confirm-resign = Сдаться в этой партии?
web-resign-yes = Да, сдаюсь
web-resign-no = Играть дальше
web-rematch = Реванш (цвета меняются)
web-play-rematch = Играть реванш
web-rematch-offer = Соперник начал реванш, цвета поменялись.
web-new-game = Новая партия
web-review = Просмотр и анализ
web-watch-rematch = Смотреть реванш
web-download-ggf = Скачать (GGF)
web-copy-moves = Копировать ходы
web-copy = Копировать
web-copied = Скопировано.
web-keys-game = Клавиши: Tab — на доску, стрелки — по полям, Enter — ход (или впишите ход в поле); ← → вне доски — по ходам партии; H — подсказка, U — взять ход назад.
web-keys-history = Клавиши: ← → — по ходам партии, Home и End — в начало и в конец.

## Архив и просмотр

web-archive = Архив
web-archive-title = Сыгранные партии
web-archive-empty = Сыгранных партий пока нет.
web-col-date = Дата
web-col-variant = Вариант
web-col-players = Игроки
web-col-result = Итог
web-col-moves = Ходов
web-col-analysis = Анализ
web-analysis-state-none = —
web-analysis-state-queued = в очереди
web-analysis-state-running = идёт
web-analysis-state-done = готов
web-analysis-state-failed = не удался
web-newer = ← Новее
web-older = Старше →
web-page-of = { $first }–{ $last } из { $total }
web-replay = Просмотр
web-step-first = Начальная позиция
web-step-prev = Предыдущий ход
web-step-next = Следующий ход
web-step-last = Конечная позиция
web-move-of = Ход { $n } из { $total }
web-keys-replay = Клавиши: ← → — по ходам, Home и End — в начало и в конец.
web-analysis = Анализ
web-analyse = Проанализировать партию
web-analysis-none-yet = Партия ещё не проанализирована.
web-analysis-queued = Анализ в очереди…
web-analysis-running = Идёт анализ… { $done } из { $total } { $total ->
    [one] хода
   *[other] ходов
}
web-analysis-tab-engine = Движок
web-analysis-tab-db = База партий
web-explorer-open = База партий
web-explorer-standard-only = В базе — партии обычного Отелло с начальной позиции.
web-explorer-player = Игрок
web-explorer-tournament = Турнир
web-explorer-from = С года
web-explorer-to = По год
web-explorer-source = Источник
web-explorer-source-all = Все источники
web-explorer-source-wthor = WTHOR
web-explorer-source-ggf = Файлы GGF
web-explorer-source-site = Этот сайт
web-explorer-total = { $n ->
    [one] Эта позиция встретилась в { $n } партии.
   *[other] Эта позиция встретилась в { $n } партиях.
}
web-explorer-none = Ни в одной партии базы этой позиции не было.
web-explorer-empty = База партий пуста. Загрузите партии WTHOR (137 548 турнирных партий, в data/wthor) командой: reversi db import data/wthor
web-explorer-move = Ход
web-explorer-count = Партий
web-explorer-share = Доля
web-explorer-results = Победы чёрных · ничьи · поражения
web-explorer-results-short = Чёрные В·Н·П
web-explorer-wdl = Чёрные выиграли { $w }, ничьих { $d }, проиграли { $l }
web-explorer-mean = Среднее
web-explorer-players = Играли
web-explorer-games = Партии
web-explorer-more = Ещё партии
web-coach = Почему
web-analysis-done = Проанализировано движком (уровень { $level })
web-analysis-failed = Анализ не удался; запросите его ещё раз.
web-chart-alt = Оценка после каждого хода, за чёрных
web-total-loss = Всего потеряно
web-mistakes = Ошибок
web-largest = Крупнейшие ошибки
web-verdict-loss = { $move } ({ $color ->
    [black] чёрные
   *[white] белые
}): оценка { $score }; ход движка { $best }: { $bestScore }. Потеряно: { discs-count }.
web-verdict-best = { $move } ({ $color ->
    [black] чёрные
   *[white] белые
}): оценка { $score }, лучший ход.
web-rules-example-hole = Каждая новая партия этого варианта выбирает свою дыру; ниже правила для одного примера.
web-rules-example-opening = Каждая новая партия этого варианта выбирает свой дебют; ниже правила для одного примера.

## Ошибки (по коду ответа сервера)

error-generic = Что-то пошло не так; попробуйте ещё раз.
error-engine-failed = Движок на этом устройстве остановился. Он запустится снова сам: попробуйте ещё раз или выберите движок на сервере.
error-engine-unavailable = Этот браузер не может запустить движок (нужны WebAssembly и воркеры): пока есть связь, работает движок на сервере.
error-offline = Сервер недоступен. Проверьте связь; страница сама попробует снова.
error-bad-request = Запрос не понят.
error-no-seat = Это могут только игроки.
error-not-your-seat = Это могут только игроки.
error-not-your-turn = Сейчас не ваш ход.
error-illegal-move = Такой ход не разрешён.
error-game-over = Партия окончена.
error-stale-ply = Партия тем временем изменилась; попробуйте ещё раз.
error-not-finished = Партия ещё не закончена.
error-not-found = Такой партии нет.
error-rate-limited = Слишком много запросов; подождите немного.
error-too-large = Слишком длинно.
error-unsupported-media-type = Запрос не понят.
error-foreign-origin = Запросы с других сайтов не принимаются.
error-method-not-allowed = Запрос не понят.
error-internal = На сервере что-то сломалось; попробуйте ещё раз.
error-database = На сервере что-то сломалось; попробуйте ещё раз.
error-seats-taken = Оба места заняты; можно смотреть.
error-waiting-for-friend = Друг ещё не присоединился: партия начнётся, когда он откроет ссылку.
error-abort-instead = Никто ещё не присоединился: партию можно прервать.
error-cannot-abort = Оба игрока уже сходили: прервать партию больше нельзя.
error-nothing-to-undo = Вам нечего взять назад.
error-undo-vs-computer-only = Брать ходы назад можно только в игре с компьютером.
error-no-hints = Подсказки бывают только в игре с компьютером.
error-analysis-not-done = Анализ ещё не готов.
error-game-changed = Партия тем временем изменилась; попробуйте ещё раз.
error-time-out = Ваше время истекло раньше, чем пришёл ход.
error-not-signed-in = Сначала войдите.
error-wrong-credentials = Неверное имя или пароль.
error-login-throttled = Слишком много неудачных попыток входа; подождите несколько минут.
error-signup-throttled = Отсюда создано слишком много учётных записей; попробуйте позже.
error-name-taken = Это имя (или похожее на него) уже занято.
error-username-length = В имени от 2 до 20 символов.
error-username-character = В имени допустимы только латинские буквы, цифры, «-» и «_».
error-username-start = Имя начинается с буквы или цифры.
error-username-end = Имя заканчивается буквой или цифрой.
error-username-separators = В имени не может быть двух «-» или «_» подряд.
error-username-reserved = Это имя зарезервировано.
error-password-short = В пароле не меньше 8 символов.
error-password-long = Пароль слишком длинный.
error-password-is-username = Пароль не может совпадать с именем.
error-seek-rated-needs-account = Для игры на рейтинг нужна учётная запись: войдите или сделайте партию товарищеской.
error-seek-correspondence-needs-account = Для игры по переписке нужна учётная запись: войдите или выберите контроль времени для живой игры.
error-seek-not-rated-variant = В этот вариант играют только без рейтинга.
error-seek-bots-only = Два бота не могут играть на рейтинг.
error-seek-range = Диапазон рейтинга задан неверно.
error-seek-own = Это ваш собственный вызов.
error-seek-out-of-range = Ваш рейтинг вне диапазона, который задал соперник.
error-seek-gone = Этого вызова уже нет: его приняли раньше или отменили.
error-seek-limit = У вас уже максимум открытых вызовов: сначала отмените один.
error-unknown-host = Этот сервер не обслуживает такой адрес.
error-email-invalid = Это не адрес электронной почты (имя@example.org).
error-email-taken = Этот адрес уже указан в другой учётной записи: укажите другой или восстановите пароль той записи.
error-email-throttled = Слишком много писем за короткое время; подождите несколько минут.
error-link-expired = Срок действия ссылки истёк, или она уже использована; попросите новую.
error-mail-unavailable = Этот сайт не отправляет писем; обратитесь к администратору сайта.
error-reset-throttled = Слишком много запросов на смену пароля; подождите несколько минут.
error-account-disabled = Модератор заблокировал эту учётную запись.
error-muted = Модератор запретил вам писать в чат на время.
error-blocked = Этот игрок не принимает от вас вызовов и сообщений.
error-not-moderator = Это может только модератор.
error-report-reason = Выберите, на что вы жалуетесь.
error-report-text = Опишите, что случилось, не длиннее 500 знаков.
error-report-throttled = Вы недавно отправили много жалоб; подождите, прежде чем писать следующую.
error-people-limit = Вы уже подписаны на столько игроков (или заблокировали столько), сколько можно одной учётной записи (1000).
error-yourself = С собой так нельзя.
error-game-quota = Слишком много новых партий из вашей сети за этот час; попробуйте позже.
error-analysis-limit = У вас уже максимум разборов в очереди: попросите снова, когда один будет готов.
error-analysis-busy = Очередь разборов переполнена; попробуйте через несколько минут.
error-import-quota = Дневная квота загруженных партий исчерпана; попробуйте завтра.
error-body-timeout = Запрос шёл слишком долго; попробуйте ещё раз.
error-bad-control = Такой контроль времени недопустим.
error-not-for-you = Этот вызов адресован другому игроку.
error-chat-empty = Сообщение пустое.
error-chat-long = В сообщении не больше 140 символов.
error-chat-character = В сообщении есть недопустимые символы.
error-chat-flood = Вы отправляете сообщения слишком часто.
error-chat-repeat = Вы только что это отправили.
error-chat-closed = Чат здесь закрыт.
error-guests-no-chat = Войдите, чтобы писать в чат.

## Игра по сети: учётные записи, лобби, часы, чат, профили

web-nav-lobby = Лобби
web-nav-players = Игроки
web-sign-in = Войти
web-sign-up = Зарегистрироваться
web-sign-out = Выйти
web-settings = Настройки
web-username = Имя
web-password = Пароль
web-username-rules = От 2 до 20 латинских букв, цифр, «-» или «_»; потом имя не изменить.
web-password-rules = Не меньше 8 символов.
web-have-account = Уже есть учётная запись? Войдите
web-no-account = Впервые здесь? Зарегистрируйтесь
web-play-online = Игра с людьми по сети
web-to-lobby = Открыть лобби: вызовы и идущие партии
web-lobby = Лобби
web-quick-pairing = Быстрый подбор
web-pool-waiting = { $n ->
    [0] никто не ждёт
    [one] ждёт { $n } игрок
    [few] ждут { $n } игрока
   *[many] ждут { $n } игроков
}
web-pool-searching = Ищем соперника… (нажмите, чтобы отменить)
web-pool-range = рейтинг ±{ $gap }, расширяется
web-pool-anyone = теперь любой рейтинг
web-speed-bullet = Пуля
web-speed-blitz = Блиц
web-speed-rapid = Рапид
web-speed-classical = Классика
web-speed-correspondence = По переписке
web-category-bullet = Пуля
web-category-blitz = Блиц
web-category-rapid = Рапид
web-category-classical = Классика
web-category-correspondence = По переписке
web-category-xot = XOT
web-category-grand = Большое Отелло
web-category-anti = Антиреверси
web-create-seek = Создать вызов
web-create-seek-button = Искать партию
web-time-control = Время
web-rated = На рейтинг
web-casual = Товарищеская
web-rated-needs-account = На рейтинг (войдите, чтобы играть на рейтинг)
web-challenge-player = Вызвать игрока (необязательно)
web-challenge-placeholder = имя
web-open-seeks = Открытые вызовы
web-no-seeks = Открытых вызовов нет: создайте свой или встаньте в очередь.
web-player = Игрок
web-mode = Партия
web-their-color = Его цвет
web-accept = Играть
web-cancel = Отменить
web-live-games = Идущие партии
web-no-live-games = Сейчас никто не играет.
web-watchers = { $n ->
    [one] { $n } зритель
    [few] { $n } зрителя
   *[many] { $n } зрителей
}
web-bot = БОТ
web-player-guest = Гость
web-player-deleted = Удалённый игрок
web-clock-of = { $color ->
    [black] Часы чёрных
   *[white] Часы белых
}
web-connected = В сети
web-not-connected = Не в сети
web-opponent-left = Соперник покинул партию.
web-opponent-left-wait = Партия ждёт его; всё решат часы.
web-claim-in = Через { $s } с можно будет засчитать себе победу — или подождите.
web-claim-or-wait = Можно засчитать себе победу или подождать соперника.
web-claim-win = Засчитать победу
web-spectators = { $n ->
    [one] { $n } зритель
    [few] { $n } зрителя
   *[many] { $n } зрителей
}
web-first-move-in = { $color ->
    [black] Чёрные должны
   *[white] Белые должны
} сделать первый ход за { $time }, иначе партия будет прервана.
web-chat = Чат
web-chat-players = Чат игроков
web-chat-spectators = Чат зрителей
web-chat-say = Напишите сообщение
web-chat-send = Отправить
web-no-such-player = Такого игрока нет
web-member-since = Играет здесь с { $date }
web-ratings = Рейтинги
web-no-rated-games = Рейтинговых партий пока нет.
web-rated-games = { $n ->
    [one] { $n } рейтинговая партия
    [few] { $n } рейтинговые партии
   *[many] { $n } рейтинговых партий
}
web-rating-chart = Рейтинг после каждой рейтинговой партии
web-results-by-color = Результаты по цвету
web-with-color = { $color ->
    [black] Чёрными
   *[white] Белыми
}
web-wins = Победы
web-draws = Ничьи
web-losses = Поражения
web-playing-now = Играет сейчас
web-games = Партии
web-all-results = Все результаты
web-both-colors = Оба цвета
web-with-black = Чёрными
web-with-white = Белыми
web-no-games-found = Партий нет.
web-leaderboard = Таблица лидеров
web-categories = Категории
web-leaderboard-empty = В этой категории пока нет игроков с устоявшимся рейтингом (рейтинг перестаёт быть предварительным после нескольких рейтинговых партий).
web-rating = Рейтинг
web-change-password = Сменить пароль
web-current-password = Текущий пароль
web-new-password = Новый пароль
web-password-changed = Пароль изменён; другие ваши сеансы завершены.
web-chat-off = Отключить чат (никаких сообщений от вас и вам)
web-country = Страна
web-country-none = Не показывать
web-country-lead = Её флаг будет виден рядом с вашим именем в профиле, в рейтинг-листах и в партиях, которые вы начнёте с этого момента.
web-saved = Сохранено.
web-bot-account = Учётная запись бота
web-bot-lead = Сделать эту учётную запись ботом: за неё будет играть программа через API (`reversi bot`). Боты везде помечены. Отменить это нельзя.
web-make-bot = Сделать ботом и показать токен
web-bot-token = Токен бота (показывается один раз):
web-bot-howto = Запуск: reversi bot --server URL --token TOKEN
web-delete-account = Удалить учётную запись
web-delete-lead = Ваши партии останутся, с пометкой «удалённый игрок»; имя останется занятым.

## Турниры
web-nav-tournaments = Турниры
web-tournaments = Турниры
web-tournament = Турнир
web-t-running = Идут сейчас
web-t-upcoming = Скоро
web-t-finished = Завершены
web-t-none = Нет.
web-t-private = ПО ПРИГЛАШЕНИЮ
web-t-players = { $n ->
    [one] { $n } участник
    [few] { $n } участника
   *[many] { $n } участников
}
web-t-swiss-rounds = { $n ->
    [one] Швейцарская · { $n } тур
    [few] Швейцарская · { $n } тура
   *[many] Швейцарская · { $n } туров
}
web-t-arena-minutes = Арена · { $n } мин
web-t-round-robin = Круговой
web-t-double-round-robin = Двухкруговой
web-t-create = Провести турнир
web-t-sign-in-to-create = войдите, чтобы провести турнир.
web-t-default-name = Турнир { $name }
web-t-name = Название
web-t-format = Система
web-t-format-swiss = Швейцарская
web-t-format-round_robin = Круговая
web-t-format-arena = Арена
web-t-rounds = Туров
web-t-minutes = Минут
web-t-cycles = Кругов (1 или 2)
web-t-starts-in = Начало через (минут)
web-t-min-rating = Рейтинг не ниже
web-t-allow-bots = Боты могут участвовать
web-t-invite-only = Только по ссылке-приглашению
web-t-create-button = Создать турнир
web-t-by = организатор { $name }
web-t-round-of = Тур { $n } из { $total }
web-t-round = Тур { $n }
web-t-status-upcoming = Не начался
web-t-status-running = Идёт
web-t-status-paused = Приостановлен организатором
web-t-status-finished = Завершён
web-t-status-cancelled = Отменён
web-t-status-aborted = Прервана
web-t-status-abandoned = Брошена
web-t-join = Участвовать
web-t-rejoin = Вернуться
web-t-withdraw = Выбыть
web-t-sign-in-to-join = Войдите, чтобы участвовать
web-t-your-game = Ваша партия
web-t-pause = Приостановить
web-t-resume = Продолжить
web-t-cancel = Отменить турнир
web-t-cancel-confirm = Отменить турнир для всех?
web-t-remove = Исключить
web-t-remove-confirm = Исключить { $name } из турнира?
web-t-invite-link = Ссылка-приглашение
web-t-download = Скачать { $what }
web-t-standings = Таблица
web-t-points = Очки
web-t-bq = КБ
web-t-discs = Фишки
web-t-on-fire = В ударе: победы приносят вдвое больше
web-t-withdrawn = (выбыл)
web-t-no-players = Пока никто не записался.
web-t-recent-games = Последние партии
web-t-round-games = Тур { $n }
web-t-not-started = Пары появятся, когда турнир начнётся.
web-t-no-games = Партий пока нет.
web-t-playing = идёт…
web-t-forfeit = (неявка)
web-t-bye = Без пары: { $names }
web-t-all-rounds = Все туры
web-t-crosstable = Турнирная таблица
web-t-crosstable-note = В клетке: очки игрока строки против игрока столбца и фишки каждого. КБ (коэффициент Брайтвелла) = фишки + 6 × очки соперников; при равенстве очков решает КБ, затем фишки.
web-t-back = ← К турниру
web-t-games-of = Партии: { $name }
error-no-rematch = В турнире нет реванша: следующую пару составит турнир.
error-account-required = Войдите, чтобы участвовать в турнире.
error-not-rated-variant = Партии этого варианта только товарищеские.
error-tournament-name = В названии турнира от 3 до 60 символов.
error-tournament-rounds = В швейцарской системе от 1 до 15 туров.
error-tournament-cycles = Круговой турнир бывает в один или два круга.
error-tournament-minutes = Арена длится от 5 до 360 минут.
error-tournament-correspondence = Турнирные партии играются вживую: выберите контроль в минутах и секундах.
error-tournament-start = Турнир начинается не раньше, чем сейчас, и не позже, чем через 30 дней.
error-tournament-max-players = В турнире от 2 до 1000 участников.
error-tournament-closed = Запись на этот турнир закрыта.
error-tournament-full = Мест в турнире больше нет.
error-tournament-rating = Ваш рейтинг ниже допустимого в этом турнире.
error-tournament-invite-only = Этот турнир по приглашению: откройте ссылку от организатора.
error-tournament-no-bots = В этом турнире боты не участвуют.
error-tournament-not-organiser = Это может только организатор.
error-tournament-state = На этом этапе турнира так нельзя.
error-tournament-removed = Организатор исключил вас из турнира.
error-tournament-limit = Вы уже проводите пять незавершённых турниров: дождитесь окончания одного из них.
error-database-in-use = База данных занята: сначала остановите сервер.

## The analysis board
web-nav-analysis = Анализ
web-analysis-board = Доска анализа
web-analysis-open = Анализировать
web-analysis-kind-book = книга
web-analysis-kind-exact = точно
web-analysis-kind-wld = выигрыш/проигрыш/ничья
web-analysis-depth = глубина { $n }
web-analysis-thinking = Считаю… глубина { $n }
web-analysis-settled = Готово
web-analysis-where = Движок
web-analysis-on-device = на этом устройстве
web-analysis-on-server = на сервере
web-analysis-to-move = { $color ->
    [black] Ход чёрных
   *[white] Ход белых
}
web-analysis-must-pass = { $color ->
    [black] Чёрные пропускают ход
   *[white] Белые пропускают ход
}
web-analysis-game-over = Партия окончена: { $score } для чёрных
web-analysis-delete = Удалить вариант
web-analysis-paste = Вставить партию или позицию
web-analysis-paste-hint = Запись ходов (f5d6c3…), строка доски (64 поля и X или O) или GGF
web-analysis-load = Загрузить
web-analysis-edit = Расставить позицию
web-analysis-edit-hint = Нажмите на поле: пусто → чёрная → белая → пусто.
web-analysis-side = Чей ход
web-analysis-clear = Очистить доску
web-analysis-edit-done = Анализировать позицию
web-analysis-graph = Оценка по линии, для чёрных
web-analysis-keys = Клавиши: ← → по линии, ↑ ↓ между вариантами, Home — к началу, Delete удаляет вариант.
web-analysis-import = Открыть как партии
web-analysis-imported-game = Партия { $n } ({ $moves ->
    [one] { $moves } ход
    [few] { $moves } хода
   *[many] { $moves } ходов
})

## Тренер (reversi_engine::coach): по предложению на каждый вычисленный факт
coach-loss = Этот ход теряет { $discs } { $discs ->
    [one] фишку
    [few] фишки
   *[many] фишек
} по сравнению с лучшим ходом { $best }.
coach-best = Это лучший ход.
coach-as-good = Не хуже хода движка { $best }.
coach-own-mobility = После него у самих { $color ->
    [black] чёрных
   *[white] белых
} { $after } { $after ->
    [one] ход
    [few] хода
   *[many] ходов
}; после { $best } было бы { $best_after }.
coach-line = Продолжение, которого ждёт движок: { $line }.
coach-takes-corner = Ход занимает угол { $corner }: фишку в углу перевернуть нельзя.
coach-misses-corner = Лучший ход занимает угол { $corner }.
coach-gives-corner = { $color ->
    [black] Чёрные
   *[white] Белые
} забирают угол { $corner } { $moves ->
    [one] сразу
    [few] через { $moves } хода
   *[many] через { $moves } ходов
}: { $line }.
coach-opens-corner = Ход открывает { $color ->
    [black] чёрным
   *[white] белым
} угол { $corner }.
coach-x-square = { $square } — X-поле: рядом с пустым углом { $corner } оно может отдать этот угол.
coach-c-square = { $square } — C-поле рядом с пустым углом { $corner }: опасно, пока угол пуст.
coach-mobility = После него у { $color ->
    [black] чёрных
   *[white] белых
} { $after } { $after ->
    [one] ход
    [few] хода
   *[many] ходов
}; после { $best } { $best_after ->
    [0] им пришлось бы пропустить ход
    [one] был бы { $best_after } ход
    [few] было бы { $best_after } хода
   *[many] было бы { $best_after } ходов
}.
coach-restricts = Ход сокращает число ходов { $color ->
    [black] чёрных
   *[white] белых
} с { $before } до { $after }.
coach-pass = После него у { $color ->
    [black] чёрных
   *[white] белых
} нет ходов: они пропускают ход.
coach-wipeout = После него у { $color ->
    [black] чёрных
   *[white] белых
} не остаётся ни одной фишки.
coach-frontier = После него у сходившего { $discs } { $discs ->
    [one] граничная фишка
    [few] граничные фишки
   *[many] граничных фишек
} (рядом с пустыми полями — это ходы для соперника); после { $best } — { $best_discs }.
coach-stable = Ход делает { $discs ->
    [one] { $discs } фишку стабильной
    [few] { $discs } фишки стабильными
   *[many] { $discs } фишек стабильными
}: их уже не перевернуть.
coach-best-stable = { $best } сделал бы стабильными { $discs } { $discs ->
    [one] фишку
    [few] фишки
   *[many] фишек
}.
coach-parity = Ход сделан в нечётной области из { $size } { $size ->
    [one] пустого поля
   *[other] пустых полей
}: она становится чётной, и последний ход в ней можно оставить за собой.
coach-breaks-parity = Ход сделан в чётную область из { $size } пустых полей: она становится нечётной, и последний ход в ней может достаться сопернику.
coach-wall = Ход строит стену из { $discs } { $discs ->
    [one] фишки
   *[other] фишек
} от { $from } до { $to } вдоль пустых полей: по всей её длине у соперника есть ходы.
coach-quiet = Тихий ход: он переворачивает всего { $flips } { $flips ->
    [one] фишку
    [few] фишки
   *[many] фишек
} и не добавляет граничных фишек.
coach-spends-reserve = Этот ход тратит резервное поле: на { $square } мог пойти только сходивший — такой ход стоит беречь на потом; { $best } его сохраняет.
coach-leaves-centre = В дебюте держитесь центра (c3–f6): { $square } выходит из него, { $best } остаётся внутри.
# Задачи
web-nav-puzzles = Задачи
web-puzzles = Задачи
web-puzzle-n = Задача { $n }
web-puzzle-rating = рейтинг { $rating }
web-puzzle-from-game = из партии { $year } года
web-puzzle-empties = { $n } { $n ->
    [one] пустое поле
    [few] пустых поля
   *[many] пустых полей
}
web-puzzle-played = { $n ->
    [one] { $n } попытка
    [few] { $n } попытки
   *[many] { $n } попыток
}, решено { $pct } %
web-puzzle-find-win = Ход { $color ->
    [black] чёрных
   *[white] белых
}: найдите единственный выигрывающий ход{ $n ->
    [one] .
   *[other] , а затем и дальше лучшие ходы ({ $n } { $n ->
        [one] ход
        [few] хода
       *[many] ходов
    }).
}
web-puzzle-find-best = Ход { $color ->
    [black] чёрных
   *[white] белых
}: найдите единственный ход к лучшему счёту{ $n ->
    [one] .
   *[other] , а затем и дальше лучшие ходы ({ $n } { $n ->
        [one] ход
        [few] хода
       *[many] ходов
    }).
}
web-puzzle-right = Верно! { $n ->
    [one] Осталось найти { $n } ход.
    [few] Осталось найти { $n } хода.
   *[many] Осталось найти { $n } ходов.
}
web-puzzle-solved = Решено!
web-puzzle-wrong = Не этот ход.
web-puzzle-wrong-why = После { $move } при лучшей игре партия кончается со счётом { $score }; после { $best } — { $bestScore }.
web-puzzle-score = При лучшей игре обеих сторон партия кончается со счётом { $score } для { $color ->
    [black] чёрных
   *[white] белых
} (доказано точным решателем).
web-puzzle-rating-change = Ваш рейтинг в задачах: { $rating } ({ $diff }).
web-puzzle-next = Следующая задача
web-puzzle-solution = Решение:
web-puzzle-themes = Темы
web-puzzle-theme-any = Любая
web-puzzle-theme-corner = Угол
web-puzzle-theme-x-square = Жертва X-поля
web-puzzle-theme-parity = Чётность
web-puzzle-theme-tempo = Темп
web-puzzle-theme-wipe-out = Разгром
web-puzzle-theme-endgame = Эндшпиль
web-puzzle-guest = Гости решают задачи без рейтинга. Войдите, чтобы получить рейтинг в задачах.
web-puzzle-your-rating = Ваш рейтинг в задачах
web-puzzle-record = решено { $solved } из { $n } { $n ->
    [one] задачи
   *[other] задач
}
web-puzzle-solved-short = решена
web-puzzle-failed-short = не решена
web-puzzle-daily = Задача дня
web-puzzle-more = Ещё задачи
web-category-puzzle = Задачи
web-puzzles-tried = { $n } { $n ->
    [one] задача
    [few] задачи
   *[many] задач
}

## Живой сайт: итог лично, «ваш ход», игра с клавиатуры, меню на телефоне

web-outcome = { $who ->
    [you-won] Вы выиграли
    [you-lost] Вы проиграли
    [black] Победили чёрные
    [white] Победили белые
   *[draw] Ничья
}{ $how ->
    [time] { " " }по времени
    [resigned] { " " }(сдача)
    [left] { " " }(партия покинута)
    [tie] { " " }при равном счёте: ходивший вторым побеждает
   *[none] {""}
}
web-result-score = чёрные { $black } – { $white } белые
web-result-convention = Если партия кончилась по времени, сдачей или уходом игрока, пустые поля отходят победителю, и счёт победителя не меньше 33–31 (правило Всемирной федерации отелло).
web-board-look = Доска
web-discs = Фишки
web-discs-classic = Чёрные и белые
web-discs-gold = Чёрные и золотые
web-board-cloth = Цвет
web-board-cloth-green = Зелёное сукно
web-board-cloth-blue = Синяя
web-board-cloth-wood = Дерево
web-coords = Буквы и цифры вокруг доски
web-anim = Анимация
web-anim-off = Нет
web-anim-fast = Быстрая
web-anim-normal = Обычная
web-anim-slow = Медленная
web-sounds = Звуки (ходы, конец партии, ваш ход)
web-tick = Тиканье каждую секунду, когда на ваших часах мало времени
web-zen = Режим дзен: в партии только доска, часы и кнопки
web-prefs-account = Эти настройки сохраняются в учётной записи и действуют в любом браузере, где вы вошли.
web-prefs-browser = Эти настройки хранятся в этом браузере; войдите, чтобы они были с вами везде.
web-settings-guest = Войдите, чтобы изменить настройки учётной записи.
web-tie = При равенстве
web-tie-draw = ничья
web-tie-second-wins = побеждает ходивший вторым
web-tie-second-wins-note = При равном счёте побеждает тот, кто ходил вторым (правило коробочного издания).
web-menu = Меню
web-turn-count = { $n ->
    [one] { $n } партия ждёт вашего хода
    [few] { $n } партии ждут вашего хода
   *[many] { $n } партий ждут вашего хода
}
web-your-turn-notice = Ваш ход в партии с игроком { $name }
web-your-games-turn = Ваш ход
web-their-turn = Ход соперника
web-versus = против { $name }
web-time-left = осталось { $time }
web-notify = Сообщать о моём ходе, когда сайт открыт в фоновой вкладке (уведомление браузера)
web-notify-denied = Браузер не разрешает этому сайту уведомления; разрешите их в его настройках.
web-move-input = Ход с клавиатуры
web-move-input-placeholder = напр. d3
web-move-not-legal = Ход { $move } здесь невозможен.
web-move-queued = Нет связи с сервером: ваш ход { $move } ждёт и будет отправлен, как только связь вернётся.
web-queued-dropped = Ваш ход { $move }, сделанный без связи с сервером, больше не подходит к партии: сделайте ход снова.
web-offline = Нет связи с сервером: доска ждёт, пока связь вернётся.
web-chat-sign-in = Войдите, чтобы писать в чат
web-rating-range = Рейтинг соперника
web-rating-from = от
web-rating-to = до
web-challenge-from = { $name } вызывает вас: { $what }
web-decline = Отклонить
web-challenge-declined = { $name } отклоняет ваш вызов.
# `reversi analyze`
analyze-opening = дебют: { $name } ({ $moves }, до хода { $ply })
analyze-col-ply = №
analyze-col-player = игрок
analyze-col-played = ход
analyze-col-best = лучший
analyze-col-played-score = оценка
analyze-col-best-score = лучш.
analyze-col-loss = потеря
analyze-exact = точно
analyze-worst-move = ход { $ply } (−{ $loss })
analyze-summary = { $color }: всего потеряно { $loss } за { $moves ->
    [one] { $moves } ход
    [few] { $moves } хода
   *[many] { $moves } ходов
}, { $mistakes ->
    [one] { $mistakes } ошибка
    [few] { $mistakes } ошибки
   *[many] { $mistakes } ошибок
}
analyze-largest = ; крупнейшие: { $list }
analyze-result = итог { $black }–{ $white } ({ $margin } для чёрных)
analyze-chart = график: { $path }

# Почта: адрес учётной записи, забытый пароль (/reset, /reset/SECRET, /verify/SECRET).
web-forgot-password = Забыли пароль?
web-reset-title = Новый пароль
web-reset-lead = Введите адрес электронной почты, подтверждённый в вашей учётной записи: мы пришлём на него ссылку, по которой можно задать новый пароль.
web-email = Адрес электронной почты
web-reset-send = Прислать ссылку
web-reset-sent = Если этот адрес указан в учётной записи, ссылка уже отправлена. Она действует час; загляните и в папку «Спам».
web-reset-unavailable = Этот сайт не отправляет писем, поэтому забытый пароль здесь не восстановить. Обратитесь к администратору сайта.
web-reset-new = Новый пароль
web-reset-save = Сохранить пароль
web-reset-done = Пароль изменён, вы вошли; на всех других устройствах выполнен выход.
web-verify-title = Подтверждение адреса
web-verify-working = Подтверждаем…
web-verify-done = Теперь { $email } — адрес вашей учётной записи.
web-email-card = Электронная почта
web-email-lead = С подтверждённым адресом можно задать новый пароль, если вы забудете свой. Адрес никто, кроме вас, не видит.
web-email-current = Ваш адрес: { $email }
web-email-none = Адрес не указан.
web-email-pending = На { $email } отправлена ссылка: откройте её, чтобы подтвердить адрес.
web-email-new = Новый адрес
web-email-send = Прислать ссылку для подтверждения
web-email-remove = Удалить адрес
web-email-removed = Адрес удалён.
web-email-unavailable = Этот сайт не отправляет писем, поэтому подтвердить адрес здесь нельзя.

## Партии на этом устройстве, без связи (/offline)

web-offline-title = Игра на этом устройстве
web-offline-lead = Связь не нужна: компьютер играет прямо в браузере, а партии хранятся на этом устройстве. Войдя в учётную запись, законченную партию можно добавить в свой архив.
web-offline-unsupported = Этот браузер не может запустить движок (нужны WebAssembly и воркеры).
web-offline-notice = Сервер недоступен. Игра по сети, лобби, турниры и задачи с рейтингом ждут связи; а пока можно играть и решать задачи на этом устройстве, анализировать позицию и читать правила.
web-offline-link = Играть на этом устройстве, без связи
web-offline-analyse = Анализ
web-offline-kept = Партии на этом устройстве
web-offline-none = На этом устройстве пока нет партий.
web-offline-opponent = Соперник
web-offline-start = Начать
web-offline-vs-computer = с компьютером, уровень { $level }, вы играете { $color ->
    [black] чёрными
   *[white] белыми
}
web-offline-view = Посмотреть
web-offline-continue = Продолжить
web-offline-forget = Удалить
web-offline-upload = В мой архив
web-offline-uploaded = В вашем архиве
web-offline-puzzles = Задачи на этом устройстве
web-offline-puzzles-lead = Эндшпили из настоящих партий; каждый ход проверяет движок в вашем браузере (без рейтинга).
web-offline-puzzles-count = Решено на этом устройстве: { $solved } из { $total }
web-offline-no-puzzles = Задач на этом устройстве пока нет: откройте эту страницу один раз при подключении.
web-offline-retry = Ещё раз

## Люди: подписки, блокировка, жалобы (issue 53)
web-online = В сети
web-offline-player = Не в сети
web-followers = { $n ->
    [one] { $n } подписчик
    [few] { $n } подписчика
   *[many] { $n } подписчиков
}
web-account-disabled = Модератор заблокировал эту учётную запись.
web-follow = Подписаться
web-unfollow = Отписаться
web-block = Заблокировать
web-unblock = Разблокировать
web-relation-follow-done = Вы подписаны на игрока { $name }: его партии будут на вашей главной странице.
web-relation-follow-undone = Вы больше не подписаны на игрока { $name }.
web-relation-block-done = Игрок { $name } заблокирован: ни вызовов, ни сообщений от него.
web-relation-block-undone = Игрок { $name } разблокирован.
web-report = Пожаловаться
web-report-title = Жалоба модераторам на игрока { $name }
web-report-why = Причина
web-report-choose = Выберите причину…
web-report-reason-cheating = Нечестная игра (помощь программы)
web-report-reason-abuse = Оскорбления или травля
web-report-reason-spam = Спам
web-report-reason-name = Оскорбительное имя
web-report-reason-other = Другое
web-report-text = Что случилось (не длиннее 500 знаков)
web-report-game = Ссылка на партию или её номер (если жалоба о партии)
web-report-send = Отправить жалобу
web-report-sent = Спасибо: модераторы рассмотрят вашу жалобу.
web-following = Ваши подписки
web-following-none = Подписывайтесь на игроков в их профилях: их партии появятся здесь.
web-watch-game = Смотреть

## Стол модератора
web-mod-title = Модерация
web-mod-open = Открытые жалобы
web-mod-closed = Закрытые
web-mod-log = Журнал
web-mod-none-open = Жалоб нет. Отлично.
web-mod-none-closed = Закрытых жалоб пока нет.
web-mod-reported = { $target }, жалоба от { $reporter }
web-mod-open-on-target = { $n ->
    [one] { $n } открытая жалоба на игрока
    [few] { $n } открытые жалобы на игрока
   *[many] { $n } открытых жалоб на игрока
}
web-mod-disabled = заблокирован
web-mod-muted = без чата
web-mod-game = партия { $id }
web-mod-closed-by = Закрыл { $name }, { $date }
web-mod-note = Пометка для журнала (обязательно)
web-mod-note-needed = Сначала напишите пометку: каждое действие записывается в журнал с причиной.
web-mod-done = Готово, записано в журнал.
web-mod-mute-day = Запретить чат на сутки
web-mod-disable = Заблокировать учётную запись
web-mod-close-game = Закрыть партию
web-mod-dismiss = Закрыть без мер
web-mod-log-empty = Пока ничего не сделано.
web-mod-when = Когда
web-mod-who = Модератор
web-mod-action = Действие
web-mod-target = Над кем / чем
web-mod-command-line = (командная строка)
web-mod-action-mute = запрет чата
web-mod-action-unmute = чат разрешён
web-mod-action-disable = блокировка
web-mod-action-enable = разблокировка
web-mod-action-close-game = партия закрыта
web-mod-action-close-tournament = турнир закрыт
web-mod-action-close-report = жалоба закрыта
web-mod-action-grant = назначен модератором
web-mod-action-revoke = снят с модераторов

## Письма об игре
web-notify-mail = Писать мне на почту, когда мой ход в заочной партии и когда меня вызывают на заочную партию
web-notify-on = Вы будете получать письма о своих заочных партиях (пока вы не на сайте).
web-notify-off = Писем о партиях больше не будет.
web-players-online = { $n ->
    [one] { $n } игрок в сети
    [few] { $n } игрока в сети
   *[many] { $n } игроков в сети
}
web-control-days = { $n ->
    [one] { $n } день
    [few] { $n } дня
   *[many] { $n } дней
}
web-play-again = Сыграть ещё раз

## Профили и таблицы рейтинга
web-outcome-win = Победа
web-outcome-loss = Поражение
web-outcome-draw = Ничья
web-rating-change = Изменение рейтинга
web-leaderboard-provisional = Предварительные рейтинги
web-leaderboard-provisional-lead = Игроки, сыгравшие здесь лишь несколько рейтинговых партий или вернувшиеся после долгого перерыва: их рейтинг (со знаком «?») ещё не устоялся.

## Предварительные ходы и подтверждение ходов
web-pref-premove = Предварительный ход: в партии с человеком выбирайте ход, пока соперник думает; он будет сделан, когда наступит ваша очередь, если тогда он возможен
web-pref-confirm = На сенсорном экране подтверждать каждый ход перед отправкой
web-premove-set = Предварительный ход { $move }: будет сделан в вашу очередь, если тогда он возможен. Коснитесь его ещё раз (или нажмите Escape), чтобы отменить.
web-premove-cleared = Предварительный ход отменён.
web-premove-dropped = Ваш предварительный ход { $move } стал невозможен после хода соперника: сделайте ход.
web-premove-square = ваш предварительный ход
web-pending-square = ваш ход, ждёт подтверждения
web-queued-square = ваш ход, ждёт связи с сервером
web-confirm-move = Сходить { $move }
web-cancel-move = Отмена

## Возврат хода в партиях между людьми
web-takeback = Вернуть ход
web-takeback-title = Попросить соперника разрешить вернуть ваш последний ход
web-takeback-asked = Вы попросили вернуть свой последний ход; ждём ответа соперника.
web-takeback-withdraw = Отозвать просьбу
web-takeback-offer = { $name } просит вернуть свой последний ход.
web-takeback-accept = Разрешить
web-takeback-decline = Отказать
error-takeback-not-allowed = Возвращать ходы можно только в товарищеских партиях между двумя людьми.
error-no-takeback-offer = Никто не просил вернуть ход.

## Турниры: обратный отсчёт, досрочный старт, пьедестал
web-t-hours-minutes = { $h } ч { $m } мин
web-t-starts-countdown = Начало через { $left } ({ $when })
web-t-ends-countdown = Конец через { $left } ({ $when })
web-t-pairings = Пары
web-t-start-now = Начать сейчас
web-t-podium = Пьедестал
web-t-winner = Победитель турнира — { $name }
web-t-points-n = Очки: { $points }
error-tournament-too-few = Чтобы начать турнир, нужно хотя бы два игрока.

## Условные предходы (игра по переписке)
web-conditional = Условные предходы
web-conditional-count = { $n ->
    [0] (нет)
    [one] ({ $n } вариант)
    [few] ({ $n } варианта)
   *[many] ({ $n } вариантов)
}
web-conditional-lead = Пока ход соперника, запишите варианты, по одному в строке: его ход, затем ваш ответ и так далее («e6 f4 c3 c4»: если он сыграет e6, вы играете f4; затем если c3 — c4). Когда партия идёт по варианту, ваш ответ делается за вас. Никто, кроме вас, их не видит.
web-conditional-placeholder = e6 f4 c3 c4
web-conditional-save = Сохранить варианты
web-conditional-saved = { $n ->
    [one] Сохранён { $n } вариант: он ответит за вас, пока партия идёт по нему.
    [few] Сохранено { $n } варианта: они ответят за вас, пока партия идёт по одному из них.
   *[many] Сохранено { $n } вариантов: они ответят за вас, пока партия идёт по одному из них.
}
web-conditional-cleared = Условных предходов нет.
error-conditional = Эти варианты не подходят: условные предходы записывают, пока ход соперника, в партии по переписке, не больше 20 вариантов.
web-conditional-bad-move = Вариант { $line }: ход { $move } здесь невозможен.
web-conditional-bad-line = Вариант { $line } не подходит: сначала ход соперника, затем ваш ответ, и только ходы, возможные отсюда (не больше 20).
web-seconds-short = { $n } с

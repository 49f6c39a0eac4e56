"""Necromancer in Russian, Japanese and Polish: the screen's texts and the rules' messages (``necro.*``).

Words as the localized cards and the players' own talk have them: Russian «миньон», «хозяин»,
«командная зона», «входит в фазу»; Japanese ミニオン, マスター, 統率者, 統率領域, フェイズ・イン /
フェイズ・アウト; Polish «sługa», «mistrz», «strefa dowodzenia».  Names do not decline, so the
Russian and Polish texts put them where no case ending is needed («игрока {name}»).
"""

from __future__ import annotations

from display.i18n import register

EN = {
    "ui.btn.necro": "MINIONS",
    "ui.necro.title": "Masters and minions",
    "ui.necro.never_died": "never died",
    "ui.necro.full": "full status",
    "ui.necro.minion_of": "minion of {name}",
    "ui.necro.masterless": "masterless minion",
    "ui.necro.out": "out for good",
    "ui.necro.solo": "solo {done}/{total}",
    "ui.necro.waiting": "phases in at their turn",
    "ui.necro.can_win": "can win",
    "ui.necro.cannot_win": "can't win",
    "ui.necro.minions": "minions: {names}",
    "ui.necro.ask": "Who made {name} lose?",
    "ui.necro.nobody": "Nobody (self-inflicted or unknown)",
    "ui.necro.ask_hint": "↑/↓ choose · SELECT confirms",
    "ui.necro.solo_hint": "SELECT: {name} finished a solo turn",
    "ui.necro.upkeep_solo": "{name}: solo turn {number} of {total}, apart from the game",
}

RU = {
    "ui.btn.necro": "МИНЬОНЫ",
    "ui.necro.title": "Хозяева и миньоны",
    "ui.necro.never_died": "ни разу не выбывал",
    "ui.necro.full": "полноправный игрок",
    "ui.necro.minion_of": "миньон игрока {name}",
    "ui.necro.masterless": "миньон без хозяина",
    "ui.necro.out": "выбыл насовсем",
    "ui.necro.solo": "соло {done}/{total}",
    "ui.necro.waiting": "войдёт в фазу в свой ход",
    "ui.necro.can_win": "может победить",
    "ui.necro.cannot_win": "не может победить",
    "ui.necro.minions": "миньоны: {names}",
    "ui.necro.ask": "Из-за кого выбыл {name}?",
    "ui.necro.nobody": "Ни из-за кого (сам или неизвестно)",
    "ui.necro.ask_hint": "↑/↓ выбор · SELECT — подтвердить",
    "ui.necro.solo_hint": "SELECT: {name} сыграл соло-ход",
    "ui.necro.upkeep_solo": "{name}: соло-ход {number} из {total}, вне игры",
    "necro.began": "Некромант: выбывший возвращается с 30 жизни миньоном того, кто его выбил; побеждает "
    "последний игрок, который ни разу не выбывал.",
    "necro.minion": "{name} возвращается миньоном игрока {master} с 30 жизни, сыграв сначала три соло-хода "
    "вне игры.",
    "necro.masterless": "{name} возвращается миньоном без хозяина с 30 жизни, сыграв сначала три соло-хода "
    "вне игры.",
    "necro.regained": "{master} выбил своего хозяина {name} и снова полноправный игрок; {name} возвращается "
    "миньоном игрока {master} с 30 жизни, сыграв сначала три соло-хода вне игры.",
    "necro.out": "{name} выбит своим хозяином {master} и выбывает из игры насовсем.",
    "necro.conceded": "{name} сдался и выбывает из игры насовсем.",
    "necro.orphans": "У игроков {names} больше нет хозяина: теперь они миньоны без хозяина.",
    "necro.out_orphans": "{name} выбит своим хозяином {master} и выбывает из игры насовсем; у игроков "
    "{names} больше нет хозяина.",
    "necro.conceded_orphans": "{name} сдался и выбывает из игры насовсем; у игроков {names} больше нет "
    "хозяина.",
    "necro.reattributed": "Выбывание игрока {name} теперь записано на {responsible}.",
    "necro.reattributed_nobody": "Выбывание игрока {name} теперь ни на ком.",
    "necro.solo": "{name} сыграл соло-ход {number} из 3.",
    "necro.solo_done": "{name} сыграл все три соло-хода и войдёт в фазу, когда дойдёт очередь до его места.",
    "necro.held": "{name} играет соло-ходы (сыграно {done} из 3); его место пропускается.",
    "necro.phased_in": "{name} входит в фазу и играет свой 4-й ход как участник игры.",
    "necro.minion_vs_master": "{source} — миньон игрока {target} и не может наносить повреждения своему "
    "хозяину.",
    "necro.fellow_minions": "{source} и {target} — миньоны одного хозяина ({master}) и не могут наносить "
    "повреждения друг другу.",
    "necro.target_phased_out": "{target} вышел из фазы на время соло-ходов: ничто в игре не может ему "
    "навредить, пока он не войдёт в фазу.",
    "necro.source_phased_out": "{source} вышел из фазы на время соло-ходов и не может вредить другим "
    "игрокам, пока не войдёт в фазу.",
    "necro.not_necromancer": "Это не игра «Некромант»; начните её командой «new necromancer …».",
    "necro.not_solo": "{name} не играет соло-ходы.",
    "necro.no_loss": "Ещё никто не выбыл, так что записывать выбывание не на кого.",
    "necro.not_latest": "Изменить можно только последнее выбывание, а это было выбывание игрока {latest}; "
    "отмените ходы до выбывания игрока {name}, чтобы изменить его.",
    "necro.too_late": "{name} уже сыграл соло-ход; отмените ходы до выбывания, чтобы изменить, из-за кого "
    "он выбыл.",
    "necro.same": "Выбывание игрока {name} и так записано на {responsible}.",
    "necro.nobody": "никого",
    "necro.won_reason": "последний игрок, который ни разу не выбывал",
    "necro.nobody_left": "не осталось ни одного игрока, который ни разу не выбывал",
}

JA = {
    "ui.btn.necro": "ミニオン",
    "ui.necro.title": "マスターとミニオン",
    "ui.necro.never_died": "無敗",
    "ui.necro.full": "復権",
    "ui.necro.minion_of": "{name}のミニオン",
    "ui.necro.masterless": "マスターなしのミニオン",
    "ui.necro.out": "完全に脱落",
    "ui.necro.solo": "単独{done}/{total}",
    "ui.necro.waiting": "自分の番にフェイズ・イン",
    "ui.necro.can_win": "勝利可能",
    "ui.necro.cannot_win": "勝利不可",
    "ui.necro.minions": "ミニオン：{names}",
    "ui.necro.ask": "{name}を敗北させたのは誰？",
    "ui.necro.nobody": "なし（自滅・不明）",
    "ui.necro.ask_hint": "↑/↓で選択・SELECTで決定",
    "ui.necro.solo_hint": "SELECT：{name}の単独ターン終了",
    "ui.necro.upkeep_solo": "{name}：単独ターン {number}/{total}（ゲームの外で）",
    "necro.began": "ネクロマンサー：敗北したプレイヤーは、敗北させたプレイヤーのミニオンとしてライフ30で"
    "復帰します。一度も敗北していない最後のプレイヤーが勝者です。",
    "necro.minion": "{name}は{master}のミニオンとしてライフ30で復帰します。まずゲームの外で単独ターンを3回"
    "行います。",
    "necro.masterless": "{name}はマスターなしのミニオンとしてライフ30で復帰します。まずゲームの外で単独"
    "ターンを3回行います。",
    "necro.regained": "{master}は自分のマスター{name}を敗北させ、通常の立場に戻ります。{name}は{master}の"
    "ミニオンとしてライフ30で復帰し、まずゲームの外で単独ターンを3回行います。",
    "necro.out": "{name}は自分のマスター{master}に倒され、ゲームから完全に脱落します。",
    "necro.conceded": "{name}は投了し、ゲームから完全に脱落します。",
    "necro.orphans": "{names}にはもうマスターがいません。マスターなしのミニオンになります。",
    "necro.out_orphans": "{name}は自分のマスター{master}に倒され、ゲームから完全に脱落します。{names}には"
    "もうマスターがいません。",
    "necro.conceded_orphans": "{name}は投了し、ゲームから完全に脱落します。{names}にはもうマスターが"
    "いません。",
    "necro.reattributed": "{name}の敗北は{responsible}によるものに変更されました。",
    "necro.reattributed_nobody": "{name}の敗北は誰によるものでもないことに変更されました。",
    "necro.solo": "{name}が単独ターン{number}/3を終えました。",
    "necro.solo_done": "{name}は単独ターンを3回終えました。自分の席の番が来たらフェイズ・インします。",
    "necro.held": "{name}は単独ターン中です（{done}/3回終了）。その席の番は飛ばします。",
    "necro.phased_in": "{name}がフェイズ・インし、ゲームの一員として4回目のターンを行います。",
    "necro.minion_vs_master": "{source}は{target}のミニオンなので、自分のマスターにダメージを与えられません。",
    "necro.fellow_minions": "{source}と{target}はどちらも{master}のミニオンなので、互いにダメージを与え"
    "られません。",
    "necro.target_phased_out": "{target}は単独ターン中でフェイズ・アウトしています。フェイズ・インするまで"
    "ゲーム内の何も{target}を傷つけられません。",
    "necro.source_phased_out": "{source}は単独ターン中でフェイズ・アウトしています。フェイズ・インするまで"
    "他のプレイヤーを傷つけられません。",
    "necro.not_necromancer": "これはネクロマンサーのゲームではありません。「new necromancer …」で開始して"
    "ください。",
    "necro.not_solo": "{name}は単独ターン中ではありません。",
    "necro.no_loss": "まだ誰も敗北していないので、敗北の責任を割り当てられません。",
    "necro.not_latest": "変更できるのは直前の敗北だけで、それは{latest}の敗北です。{name}の敗北を変えるには"
    "そこまで取り消してください。",
    "necro.too_late": "{name}はすでに単独ターンを行いました。誰のせいで敗北したかを変えるには、敗北まで"
    "取り消してください。",
    "necro.same": "{name}の敗北はすでに{responsible}によるものになっています。",
    "necro.nobody": "誰でもない",
    "necro.won_reason": "一度も敗北していない最後のプレイヤー",
    "necro.nobody_left": "一度も敗北していないプレイヤーが残っていません",
}

PL = {
    "ui.btn.necro": "SŁUDZY",
    "ui.necro.title": "Mistrzowie i słudzy",
    "ui.necro.never_died": "bez porażki",
    "ui.necro.full": "pełne prawa",
    "ui.necro.minion_of": "sługa gracza {name}",
    "ui.necro.masterless": "sługa bez mistrza",
    "ui.necro.out": "odpada na dobre",
    "ui.necro.solo": "solo {done}/{total}",
    "ui.necro.waiting": "wraca w swojej turze",
    "ui.necro.can_win": "może wygrać",
    "ui.necro.cannot_win": "nie może wygrać",
    "ui.necro.minions": "słudzy: {names}",
    "ui.necro.ask": "Kto pokonał gracza {name}?",
    "ui.necro.nobody": "Nikt (sam sobie lub nie wiadomo)",
    "ui.necro.ask_hint": "↑/↓ wybór · SELECT zatwierdza",
    "ui.necro.solo_hint": "SELECT: {name} kończy turę solo",
    "ui.necro.upkeep_solo": "{name}: tura solo {number} z {total}, poza grą",
    "necro.began": "Nekromanta: kto przegra, wraca z 30 życia jako sługa gracza, który go pokonał; wygrywa "
    "ostatni gracz, który ani razu nie przegrał.",
    "necro.minion": "{name} wraca z 30 życia jako sługa gracza {master}, po trzech turach solo poza grą.",
    "necro.masterless": "{name} wraca z 30 życia jako sługa bez mistrza, po trzech turach solo poza grą.",
    "necro.regained": "{master} pokonał(a) swojego mistrza {name} i odzyskuje pełne prawa; {name} wraca z 30 "
    "życia jako sługa gracza {master}, po trzech turach solo poza grą.",
    "necro.out": "{name} został(a) pokonany(-a) przez swojego mistrza {master} i odpada z gry na dobre.",
    "necro.conceded": "{name} poddaje się i odpada z gry na dobre.",
    "necro.orphans": "{names} nie mają już mistrza: są teraz sługami bez mistrza.",
    "necro.out_orphans": "{name} został(a) pokonany(-a) przez swojego mistrza {master} i odpada z gry na "
    "dobre; {names} nie mają już mistrza.",
    "necro.conceded_orphans": "{name} poddaje się i odpada z gry na dobre; {names} nie mają już mistrza.",
    "necro.reattributed": "Porażka gracza {name} jest teraz przypisana graczowi {responsible}.",
    "necro.reattributed_nobody": "Porażka gracza {name} nie jest teraz przypisana nikomu.",
    "necro.solo": "{name} kończy turę solo {number} z 3.",
    "necro.solo_done": "{name} kończy trzy tury solo i wraca do gry, gdy przyjdzie kolej na jego miejsce.",
    "necro.held": "{name} rozgrywa tury solo (zagrane {done} z 3); jego miejsce jest pomijane.",
    "necro.phased_in": "{name} wraca do gry i rozgrywa swoją 4. turę jako uczestnik gry.",
    "necro.minion_vs_master": "{source} jest sługą gracza {target} i nie może zadawać obrażeń swojemu mistrzowi.",
    "necro.fellow_minions": "{source} i {target} są sługami tego samego mistrza ({master}) i nie mogą zadawać "
    "sobie nawzajem obrażeń.",
    "necro.target_phased_out": "{target} jest poza grą na czas tur solo: nic w grze nie może mu zaszkodzić, "
    "dopóki nie wróci.",
    "necro.source_phased_out": "{source} jest poza grą na czas tur solo i nie może szkodzić innym graczom, "
    "dopóki nie wróci.",
    "necro.not_necromancer": "To nie jest gra w Nekromantę; zacznij ją poleceniem „new necromancer …”.",
    "necro.not_solo": "{name} nie rozgrywa tur solo.",
    "necro.no_loss": "Nikt jeszcze nie przegrał, więc nie ma komu przypisać porażki.",
    "necro.not_latest": "Można zmienić tylko ostatnią porażkę, a była to porażka gracza {latest}; cofnij do "
    "porażki gracza {name}, aby ją zmienić.",
    "necro.too_late": "{name} rozegrał(a) już turę solo; cofnij do porażki, aby zmienić, kto za nią odpowiada.",
    "necro.same": "Porażka gracza {name} jest już przypisana: {responsible}.",
    "necro.nobody": "nikt",
    "necro.won_reason": "ostatni gracz, który ani razu nie przegrał",
    "necro.nobody_left": "nie został żaden gracz, który ani razu nie przegrał",
}

register("en", EN)
register("ru", RU)
register("ja", JA)
register("pl", PL)

"""Conspiracy events in Russian, Japanese and Polish: the standings screen and the rules' messages
(``consp.*``).

The Japanese follows the organisers' own words (seed 002): ポッド (the draft table), グループ (a
game table), 1回戦 / 2回戦 for the rounds, 勝ちグループ / 負けグループ, 離脱 for leaving a game,
順位 and 1位 for places, 制限時間, 追加ターン, アクティブ・プレイヤー, 左側への攻撃, 影響範囲,
無双ルール for the Rumble rule, 統率領域, サイドボード.  Russian and Polish drafters say «под» /
«pod» and «группа» / «grupa»; names are never declined, so the texts place them where no case
ending is needed.
"""

from __future__ import annotations

from display.i18n import register

EN = {
    "ui.btn.consp": "GROUPS",
    "ui.consp.draft": "Group Game Draft",
    "ui.consp.pod": "Pod {pod}",
    "ui.consp.round": "Round {round}",
    "ui.consp.extra_turns": "extra turns",
    "ui.consp.clock_off": "clock not started ({minutes} min)",
    "ui.consp.options": "Options: {options}",
    "ui.consp.finished": "{group}: finished",
    "ui.consp.left_n": "out {n}",
    "ui.consp.standings": "Standings",
    "ui.consp.picks": "Rumble ×{n}",
}

RU = {
    "ui.btn.consp": "ГРУППЫ",
    "ui.consp.draft": "Групповой драфт",
    "ui.consp.pod": "Под {pod}",
    "ui.consp.round": "Раунд {round}",
    "ui.consp.extra_turns": "дополнительные ходы",
    "ui.consp.clock_off": "часы не запущены ({minutes} мин)",
    "ui.consp.options": "Правила стола: {options}",
    "ui.consp.finished": "{group}: игра окончена",
    "ui.consp.left_n": "выбыл {n}",
    "ui.consp.standings": "Места",
    "ui.consp.picks": "Rumble ×{n}",
    "consp.group.1": "Группа 1",
    "consp.group.2": "Группа 2",
    "consp.group.winners": "Группа победителей",
    "consp.group.losers": "Группа проигравших",
    "consp.group.table": "Общий стол",
    "consp.in_group.1": "группа 1",
    "consp.in_group.2": "группа 2",
    "consp.in_group.winners": "группа победителей",
    "consp.in_group.losers": "группа проигравших",
    "consp.in_group.table": "общий стол",
    "consp.round1": "Раунд 1, группы по жребию: {groups}. Садитесь в указанном порядке; первый названный "
    "ходит первым. Каждая группа играет, пока не выбудут {leave}. Лимит времени: {minutes} минут.{options}",
    "consp.round2": "Раунд 2: {groups}. Садитесь в указанном порядке; первый названный ходит первым. Обе "
    "группы играют до последнего игрока.",
    "consp.draft": "Групповой драфт на {count}: по 4 бустера (4-й передаётся направо, как 2-й); один стол, "
    "каждый сам за себя, все остальные — ваши оппоненты; первый муллиган бесплатный; первый игрок берёт "
    "карту; 20 жизни; побеждает последний оставшийся. Правило Rumble: за каждые 20 жизни, которые ваши "
    "источники заставили потерять оппонентов, карта из сайдборда идёт в командную зону, и её можно "
    "разыграть бесплатно.",
    "consp.options": " Правила стола: {options}.",
    "consp.attack_left": "атаковать только соседа слева",
    "consp.range_one": "радиус влияния 1",
    "consp.rumble_on": "правило Rumble",
    "consp.left_r1": "{group}: выбыли: {names} ({count} из {target} за раунд 1).",
    "consp.done_r1": "{group}: выбыли: {names}; раунд 1 для этой группы окончен: в группу победителей идут "
    "{stay}.",
    "consp.left_place": "{group}: выбыли: {names} — {places}.",
    "consp.won_group": "{group}: выбыли: {names} — {places}. {winner} остаётся последним: {place} место.",
    "consp.by_life": "{group}: дополнительные ходы окончены; места по жизни: {ranking}.",
    "consp.by_life_r1": "{group}: дополнительные ходы окончены; по жизни в группу победителей идут {stay}, "
    "в группу проигравших — {go}.",
    "consp.turn": "{group}: ходит {name}.",
    "consp.lap_turn": "{group}: ходит {name} (дополнительные ходы после времени).",
    "consp.clock": "Часы раунда {round} запущены: {minutes} минут.",
    "consp.time": "Время! Дополнительные ходы: в каждой ещё играющей группе, начиная с активного игрока, "
    "ещё один круг, пока ход не вернётся к нему; затем оставшиеся игроки получают места по жизни ({laps}).",
    "consp.lap_from": "{group} — начиная с игрока {name}",
    "consp.lap_unknown": "{group}: укажите, чей ход, командой «turn ИГРОК» или «finish» после круга",
    "consp.rumble": "Rumble: источники игрока {name} заставили оппонентов потерять {total} жизни: выбор "
    "{pick} — положите карту из сайдборда в командную зону; её можно разыграть бесплатно.",
    "consp.not_pod": "Это не под Conspiracy; начните его командой «new conspiracy …».",
    "consp.not_conspiracy": "Это не игра Conspiracy.",
    "consp.draft_turns": "Групповой драфт играется за одним столом: передавайте ход командой «next».",
    "consp.player_left": "{name} уже выбыл из игры ({group}).",
    "consp.group_done": "{group}: раунд {round} окончен; раунд {next} начнётся, когда закончат все группы.",
    "consp.pod_done": "{group}: игра окончена.",
    "consp.other_group": "{source} и {target} играют в разных группах.",
    "consp.clock_running": "Часы раунда {round} уже запущены.",
    "consp.no_clock": "Часы не запущены: запустите их командой «clock», когда раунд начнётся.",
    "consp.not_yet": "Время ещё не вышло: осталось минут: {minutes}.",
    "consp.time_called": "Время в раунде {round} уже объявлено.",
    "consp.no_such_group": "Группы {name!r} сейчас нет; группы: {groups}.",
    "consp.time_first": "Время в раунде {round} не объявлено: игра продолжается.",
    "consp.leave_count": "Назовите игроков, выбывших одновременно, каждого по одному разу.",
    "consp.already_out": "{name} уже выбыл.",
    "consp.won_reason": "оба раунда пода сыграны",
    "consp.too_few": "Для турнира нужно не меньше 3 игроков; указано: {count}.",
    "consp.export_type": "Экспорт возможен в файл .csv или .json; {path!r} — ни то ни другое.",
    "consp.export_failed": "Не удалось записать {path}: {problem}.",
    "consp.seated": "{group}: {names}",
    "consp.leave_of": "{count} из {size}",
    "consp.placed": "{name} ({place} место)",
    "consp.with_life": "{name} ({life})",
    "consp.nth.st": "{n}-е",
    "consp.nth.nd": "{n}-е",
    "consp.nth.rd": "{n}-е",
    "consp.nth.th": "{n}-е",
    "consp.comma": "{first}, {rest}",
    "consp.semicolon": "{first}; {rest}",
    "consp.or": "{first} или {rest}",
    "consp.and": "{first} и {last}",
}

JA = {
    "ui.btn.consp": "グループ",
    "ui.consp.draft": "グループ・ゲーム・ドラフト",
    "ui.consp.pod": "ポッド{pod}",
    "ui.consp.round": "{round}回戦",
    "ui.consp.extra_turns": "追加ターン",
    "ui.consp.clock_off": "時計は未開始（{minutes}分）",
    "ui.consp.options": "選択ルール：{options}",
    "ui.consp.finished": "{group}：終了",
    "ui.consp.left_n": "離脱{n}",
    "ui.consp.standings": "順位",
    "ui.consp.picks": "無双×{n}",
    "consp.group.1": "グループ1",
    "consp.group.2": "グループ2",
    "consp.group.winners": "勝ちグループ",
    "consp.group.losers": "負けグループ",
    "consp.group.table": "全員の卓",
    "consp.in_group.1": "グループ1",
    "consp.in_group.2": "グループ2",
    "consp.in_group.winners": "勝ちグループ",
    "consp.in_group.losers": "負けグループ",
    "consp.in_group.table": "全員の卓",
    "consp.round1": "1回戦のグループ（ランダムに決定）：{groups}。表示の順に座り、最初に名前のある人が"
    "先手です。各グループは{leave}が離脱するまで戦います。制限時間：{minutes}分。{options}",
    "consp.round2": "2回戦：{groups}。表示の順に座り、最初に名前のある人が先手です。どちらのグループも"
    "最後の1人になるまで戦います。",
    "consp.draft": "{count}人のグループ・ゲーム・ドラフト：1人4パック（4パック目は2パック目と同じく右へ）。"
    "全員で1卓の無差別戦で、自分以外は全員対戦相手です。1回目のマリガンは7枚で引き直せます。先手もドロー"
    "します。初期ライフ20点。最後の1人が勝者です。無双ルール：対戦相手のライフを通算20点失わせるごとに、"
    "サイドボードのカードを1枚統率領域に置き、マナ・コストを支払わずに唱えられます。",
    "consp.options": "選択ルール：{options}。",
    "consp.attack_left": "左側への攻撃",
    "consp.range_one": "影響範囲＝1",
    "consp.rumble_on": "無双ルール",
    "consp.left_r1": "{group}：{names}が離脱（1回戦の離脱{count}/{target}人）。",
    "consp.done_r1": "{group}：{names}が離脱。このグループの1回戦は終了です。{stay}が勝ちグループへ進みます。",
    "consp.left_place": "{group}：{names}が離脱：{places}。",
    "consp.won_group": "{group}：{names}が離脱：{places}。最後まで残った{winner}が{place}です。",
    "consp.by_life": "{group}：追加ターン終了。ライフによる順位：{ranking}。",
    "consp.by_life_r1": "{group}：追加ターン終了。ライフにより{stay}が勝ちグループ、{go}が負けグループへ"
    "進みます。",
    "consp.turn": "{group}：{name}のターン。",
    "consp.lap_turn": "{group}：{name}のターン（時間切れ後の追加ターン）。",
    "consp.clock": "{round}回戦の時計を開始しました：{minutes}分。",
    "consp.time": "時間切れ！追加ターン：まだ戦っている各グループで、アクティブ・プレイヤーから始めて"
    "もう一周し、そのプレイヤーに戻るまで。それでも決着が付かなければ、残ったプレイヤーをライフで順位"
    "付けします（{laps}）。",
    "consp.lap_from": "{group}は{name}から",
    "consp.lap_unknown": "{group}：「turn プレイヤー」で誰のターンか入力するか、一周後に「finish」",
    "consp.rumble": "無双：{name}の発生源が対戦相手のライフを通算{total}点失わせました。{pick}枚目の"
    "カード：サイドボードから1枚統率領域に置き、マナ・コストを支払わずに唱えられます。",
    "consp.not_pod": "これはコンスピラシーのポッドではありません。「new conspiracy …」で開始してください。",
    "consp.not_conspiracy": "これはコンスピラシーのゲームではありません。",
    "consp.draft_turns": "グループ・ゲーム・ドラフトは全員で1卓です。ターンは「next」で進めてください。",
    "consp.player_left": "{name}はすでに{group}のゲームから離脱しています。",
    "consp.group_done": "{group}は{round}回戦を終えています。全グループが終わると{next}回戦が始まります。",
    "consp.pod_done": "{group}のゲームは終了しています。",
    "consp.other_group": "{source}と{target}は別のグループです。",
    "consp.clock_running": "{round}回戦の時計はすでに動いています。",
    "consp.no_clock": "時計が動いていません。回戦の開始時に「clock」で開始してください。",
    "consp.not_yet": "まだ時間切れではありません：残り{minutes}分。",
    "consp.time_called": "{round}回戦はすでに時間切れを宣言しています。",
    "consp.no_such_group": "今{name!r}というグループはありません。グループ：{groups}。",
    "consp.time_first": "{round}回戦はまだ時間切れではありません。ゲームを続けてください。",
    "consp.leave_count": "同時に離脱したプレイヤーを、1人1回ずつ指定してください。",
    "consp.already_out": "{name}はすでに離脱しています。",
    "consp.won_reason": "ポッドの2回戦がすべて終了",
    "consp.too_few": "イベントには3人以上が必要です（{count}人）。",
    "consp.export_type": "書き出しは .csv か .json のファイルにしてください。{path!r} はどちらでもありません。",
    "consp.export_failed": "{path} に書き込めません：{problem}。",
    "consp.seated": "{group}：{names}",
    "consp.leave_of": "{size}人中{count}人",
    "consp.placed": "{name}（{place}）",
    "consp.with_life": "{name}（{life}）",
    "consp.nth.st": "{n}位",
    "consp.nth.nd": "{n}位",
    "consp.nth.rd": "{n}位",
    "consp.nth.th": "{n}位",
    "consp.comma": "{first}、{rest}",
    "consp.semicolon": "{first}／{rest}",
    "consp.or": "{first}または{rest}",
    "consp.and": "{first}と{last}",
}

PL = {
    "ui.btn.consp": "GRUPY",
    "ui.consp.draft": "Group Game Draft",
    "ui.consp.pod": "Pod {pod}",
    "ui.consp.round": "Runda {round}",
    "ui.consp.extra_turns": "dodatkowe tury",
    "ui.consp.clock_off": "zegar nie ruszył ({minutes} min)",
    "ui.consp.options": "Zasady stołu: {options}",
    "ui.consp.finished": "{group}: koniec gry",
    "ui.consp.left_n": "odpada {n}",
    "ui.consp.standings": "Miejsca",
    "ui.consp.picks": "Rumble ×{n}",
    "consp.group.1": "Grupa 1",
    "consp.group.2": "Grupa 2",
    "consp.group.winners": "Grupa zwycięzców",
    "consp.group.losers": "Grupa przegranych",
    "consp.group.table": "Wspólny stół",
    "consp.in_group.1": "grupa 1",
    "consp.in_group.2": "grupa 2",
    "consp.in_group.winners": "grupa zwycięzców",
    "consp.in_group.losers": "grupa przegranych",
    "consp.in_group.table": "wspólny stół",
    "consp.round1": "Runda 1, grupy wylosowane: {groups}. Usiądźcie w podanej kolejności; pierwsza "
    "wymieniona osoba zaczyna. Każda grupa gra, aż odpadnie {leave}. Limit czasu: {minutes} minut.{options}",
    "consp.round2": "Runda 2: {groups}. Usiądźcie w podanej kolejności; pierwsza wymieniona osoba zaczyna. "
    "Obie grupy grają do ostatniego gracza.",
    "consp.draft": "Group Game Draft dla {count} osób: po 4 boostery (4. podajemy w prawo, jak 2.); jeden "
    "stół, każdy na każdego, wszyscy pozostali są twoimi przeciwnikami; pierwszy mulligan jest darmowy; "
    "pierwszy gracz dobiera kartę; 20 życia; wygrywa ostatni w grze. Zasada Rumble: za każde 20 życia, które "
    "twoje źródła odebrały przeciwnikom, karta z sideboardu trafia do strefy dowodzenia i można ją zagrać za "
    "darmo.",
    "consp.options": " Zasady stołu: {options}.",
    "consp.attack_left": "atak tylko w lewo",
    "consp.range_one": "zasięg wpływu 1",
    "consp.rumble_on": "zasada Rumble",
    "consp.left_r1": "{group}: poza grą: {names} ({count} z {target} w rundzie 1).",
    "consp.done_r1": "{group}: poza grą: {names}; runda 1 w tej grupie skończona: do grupy zwycięzców "
    "przechodzą {stay}.",
    "consp.left_place": "{group}: poza grą: {names} — {places}.",
    "consp.won_group": "{group}: poza grą: {names} — {places}. {winner} zostaje ostatni(a) w grze: {place} miejsce.",
    "consp.by_life": "{group}: dodatkowe tury skończone; kolejność według życia: {ranking}.",
    "consp.by_life_r1": "{group}: dodatkowe tury skończone; według życia do grupy zwycięzców przechodzą "
    "{stay}, do grupy przegranych {go}.",
    "consp.turn": "{group}: tura gracza {name}.",
    "consp.lap_turn": "{group}: tura gracza {name} (dodatkowe tury po czasie).",
    "consp.clock": "Zegar rundy {round} ruszył: {minutes} minut.",
    "consp.time": "Czas! Dodatkowe tury: w każdej grupie, która jeszcze gra, od aktywnego gracza jeszcze "
    "jedno okrążenie, aż tura wróci do niego; potem gracze, którzy zostali, dostają miejsca według życia "
    "({laps}).",
    "consp.lap_from": "{group} od gracza {name}",
    "consp.lap_unknown": "{group}: podaj, czyja jest tura („turn GRACZ”), albo „finish” po okrążeniu",
    "consp.rumble": "Rumble: źródła gracza {name} odebrały przeciwnikom łącznie {total} życia: wybór nr {pick} "
    "— połóż kartę z sideboardu w strefie dowodzenia; można ją zagrać za darmo.",
    "consp.not_pod": "To nie jest pod Conspiracy; zacznij go poleceniem „new conspiracy …”.",
    "consp.not_conspiracy": "To nie jest gra Conspiracy.",
    "consp.draft_turns": "Group Game Draft to jeden stół: przekazuj turę poleceniem „next”.",
    "consp.player_left": "{name} już odpadł(a) z gry ({group}).",
    "consp.group_done": "{group}: runda {round} skończona; runda {next} zacznie się, gdy skończą wszystkie "
    "grupy.",
    "consp.pod_done": "{group}: gra skończona.",
    "consp.other_group": "{source} i {target} grają w różnych grupach.",
    "consp.clock_running": "Zegar rundy {round} już chodzi.",
    "consp.no_clock": "Zegar nie chodzi: uruchom go poleceniem „clock”, gdy runda się zacznie.",
    "consp.not_yet": "Czas jeszcze nie minął: zostało minut: {minutes}.",
    "consp.time_called": "Czas w rundzie {round} został już ogłoszony.",
    "consp.no_such_group": "Nie ma teraz grupy {name!r}; grupy: {groups}.",
    "consp.time_first": "Czas w rundzie {round} nie został ogłoszony: gra toczy się dalej.",
    "consp.leave_count": "Podaj graczy, którzy odpadli jednocześnie, każdego raz.",
    "consp.already_out": "{name} już odpadł(a).",
    "consp.won_reason": "obie rundy podu rozegrane",
    "consp.too_few": "Turniej wymaga co najmniej 3 graczy; podano: {count}.",
    "consp.export_type": "Eksportuj do pliku .csv lub .json; {path!r} nie jest żadnym z nich.",
    "consp.export_failed": "Nie można zapisać {path}: {problem}.",
    "consp.seated": "{group}: {names}",
    "consp.leave_of": "{count} z {size}",
    "consp.placed": "{name} ({place} miejsce)",
    "consp.with_life": "{name} ({life})",
    "consp.nth.st": "{n}.",
    "consp.nth.nd": "{n}.",
    "consp.nth.rd": "{n}.",
    "consp.nth.th": "{n}.",
    "consp.comma": "{first}, {rest}",
    "consp.semicolon": "{first}; {rest}",
    "consp.or": "{first} lub {rest}",
    "consp.and": "{first} i {last}",
}

register("en", EN)
register("ru", RU)
register("ja", JA)
register("pl", PL)

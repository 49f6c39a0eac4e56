"""Format titles and table options as the set-up screen shows them, in every language.

Keys: ``format.title.<format>``, ``option.<option>`` (the option's short name) and
``option.<option>.help``.  English comes from the declarations (``Format.title``,
``TableOption.help``), so a new format or option shows in English until translated here.
"""

from __future__ import annotations

import device.rules  # noqa: F401 - every module registers its formats and options on import
from device.formats import formats, options_for
from display.i18n import register


def _english() -> dict[str, str]:
    texts: dict[str, str] = {}
    for fmt in formats():
        texts[f"format.title.{fmt.name}"] = fmt.title
    for option in options_for(tuple(f.name for f in formats())).values():
        texts[f"option.{option.name}"] = option.name.replace("_", " ")
        texts[f"option.{option.name}.help"] = option.help
    return texts


RU: dict[str, str] = {
    "format.title.ffa": "Все против всех",
    "format.title.duel": "Игра вдвоём",
    "format.title.commander": "Коммандер",
    "format.title.necromancer": "Некромант",
    "format.title.conspiracy": "Под Conspiracy",
    "format.title.ggd": "Групповой драфт (GGD)",
    "format.title.planechase": "Плейнчейз",
    "format.title.contraptions": "Штуковины",
    "format.title.wizards_duel": "Дуэль чародеев",
    "option.time_limit": "лимит времени",
    "option.time_limit.help": "минут на раунд (CJ-5)",
    "option.attack_left": "атака только влево",
    "option.attack_left.help": "атаковать можно только игрока слева (CJ-6)",
    "option.range_of_influence": "зона влияния",
    "option.range_of_influence.help": "зона влияния (CJ-6): без ограничений или 1 (только соседи)",
    "option.rumble": "правило Rumble",
    "option.rumble.help": "правило Rumble: карта из сайдборда за каждые 20 отнятых жизней (CJ-8)",
    "option.event": "турнир",
    "option.event.help": "название турнира, общее для всех его подов",
    "option.pod": "под",
    "option.pod.help": "номер этого пода в турнире",
    "option.plain_d6": "обычный d6",
    "option.plain_d6.help": "Обычный шестигранник: 1 — хаос, 6 — переход между планами (PC-1).",
    "option.communal_deck": "общая колода",
    "option.communal_deck.help": "Одна общая планарная колода на весь стол (901.15).",
    "option.two_headed_giant": "Двухголовый Гигант",
    "option.two_headed_giant.help": "Команды из двух соседей по столу (901.12).",
    "option.grand_melee": "Grand Melee",
    "option.grand_melee.help": "Открыто несколько планов, по одному на маркер хода (901.14).",
    "option.turn_markers": "маркеры хода",
    "option.turn_markers.help": "Маркеры хода для Grand Melee; 0 — один на четырёх игроков.",
    "option.eternities_map": "Карта Вечностей",
    "option.eternities_map.help": "Вариант «Карта Вечностей» (нужна общая колода).",
    "option.planar_deck": "планарная колода",
    "option.planar_deck.help": "Откуда планарные колоды: все карты, один выпуск или настоящие карты.",
    "option.planar_deck_size": "размер колоды",
    "option.planar_deck_size.help": "Карт в виртуальной планарной колоде каждого игрока.",
    "option.contraptions": "штуковины",
    "option.contraptions.help": "Как штуковины входят в игру: base (своя колода у каждого, правила Unstable), "
    "a (пять библиотек фракций и кубик в апкип), b (общая колода, решает кубик), "
    "c (общая колода, платные броски на сборку).",
    "option.declined": "отказ от сборки",
    "option.declined.help": "Вариант A: штуковина, которую игрок не может или не хочет собрать, уходит вниз "
    "своей библиотеки (bottom) или на свалку (scrapyard).",
    "option.faction_dice": "кубики фракций",
    "option.faction_dice.help": "Вариант A: бросьте 1, 2 или 3 кубика фракций и используйте один; с 2 или 3 "
    "сборка обязательна.",
    "option.contraption_cards": "карты штуковин",
    "option.contraption_cards.help": "virtual: колоды штуковин хранит и тасует устройство; physical: настоящие "
    "карты открывают за столом и прикладывают к считывателю (или называют через 'card').",
    "option.chain_reaction": "цепная реакция",
    "option.chain_reaction.help": "Цепная реакция: заклинания уровней 0, 1, 2 в ходы подряд возвращают 1, "
    "затем 2 кубика.",
    "option.antimagic_shield": "антимагический щит",
    "option.antimagic_shield.help": "Антимагический щит: в фазе 1 кубик можно выложить щитом против одной школы.",
    "option.power_drain": "выкачивание силы",
    "option.power_drain.help": "Выкачивание силы: раз за игру в защите пожертвуйте кубик из резерва, чтобы "
    "нанести 2 всем.",
    "option.magic_lesson": "урок магии",
    "option.magic_lesson.help": "Урок магии: 15 раундов; побеждает тот, у кого больше очков магии.",
    "option.power_sacrifice": "жертва силы",
    "option.power_sacrifice.help": "Жертва силы: раз за игру вместо выбывания сбросьте базовую карту "
    "заклинания и вернитесь с 10.",
    "option.alt_ending": "другой финал",
    "option.alt_ending.help": "Другой финал: игра кончается после раунда, следующего за раундом, в котором "
    "кто-то выбыл.",
    "option.spell_deck": "колода заклинаний",
    "option.spell_deck.help": "Карт заклинаний в колоде в начале игры.",
}

JA: dict[str, str] = {
    "format.title.ffa": "多人数戦 (フリー・フォー・オール)",
    "format.title.duel": "二人対戦",
    "format.title.commander": "統率者戦",
    "format.title.necromancer": "ネクロマンサー",
    "format.title.conspiracy": "コンスピラシー ポッド",
    "format.title.ggd": "グループゲーム・ドラフト",
    "format.title.planechase": "プレインチェイス",
    "format.title.contraptions": "からくり",
    "format.title.wizards_duel": "魔法使いの決闘",
    "option.time_limit": "制限時間",
    "option.time_limit.help": "1 ラウンドの分数 (CJ-5)",
    "option.attack_left": "左側への攻撃",
    "option.attack_left.help": "左隣のプレイヤーだけを攻撃できる (CJ-6)",
    "option.range_of_influence": "影響範囲",
    "option.range_of_influence.help": "影響範囲 (CJ-6): 無制限か 1 (隣のみ)",
    "option.rumble": "ランブル・ルール",
    "option.rumble.help": "ランブル・ルール: 対戦相手のライフを 20 失わせるごとにサイドボードから 1 枚 (CJ-8)",
    "option.event": "イベント名",
    "option.event.help": "イベントの名前 (全ポッド共通)",
    "option.pod": "ポッド",
    "option.pod.help": "イベント内でのこのポッドの番号",
    "option.plain_d6": "普通の六面ダイス",
    "option.plain_d6.help": "普通の六面ダイスを振る: 1 はカオス、6 はプレインズウォーク (PC-1)。",
    "option.communal_deck": "共有デッキ",
    "option.communal_deck.help": "テーブル全体で共有の次元デッキを 1 つ使う (901.15)。",
    "option.two_headed_giant": "双頭巨人戦",
    "option.two_headed_giant.help": "隣り合う 2 人でチームを組む (901.12)。",
    "option.grand_melee": "グランド・メレー",
    "option.grand_melee.help": "ターン・マーカーごとに 1 枚、複数の次元が表向き (901.14)。",
    "option.turn_markers": "ターン・マーカー",
    "option.turn_markers.help": "グランド・メレーのターン・マーカー数。0 = 4 人につき 1 個。",
    "option.eternities_map": "久遠の地図",
    "option.eternities_map.help": "久遠の地図バリアント (共有デッキが必要)。",
    "option.planar_deck": "次元デッキ",
    "option.planar_deck.help": "次元デッキの出どころ: 全カード、1 つのセット、または実物のカード。",
    "option.planar_deck_size": "デッキ枚数",
    "option.planar_deck_size.help": "各プレイヤーの仮想次元デッキの枚数。",
    "option.contraptions": "からくり",
    "option.contraptions.help": "からくりの出し方: base (各自のデッキ、Unstable のルール)、a (5 つの勢力の"
    "ライブラリーとアップキープのダイス)、b (共有デッキ、ダイスで決定)、c (共有デッキ、組み立てロールは有料)。",
    "option.declined": "組み立てない時",
    "option.declined.help": "バリアント A: 組み立てられない・組み立てないからくりは、そのライブラリーの一番下 "
    "(bottom) か廃品置き場 (scrapyard) へ。",
    "option.faction_dice": "勢力ダイス",
    "option.faction_dice.help": "バリアント A: 勢力ダイスを 1~3 個振って 1 つを使う。2 個か 3 個なら組み立ては必須。",
    "option.contraption_cards": "からくりカード",
    "option.contraption_cards.help": "virtual: からくりデッキは本機が管理して切り直す。physical: 実物のカードを"
    "テーブルで公開し、リーダーにかざす (または 'card' で指定)。",
    "option.chain_reaction": "連鎖反応",
    "option.chain_reaction.help": "連鎖反応: レベル 0、1、2 の呪文を連続したターンに唱えると、ダイスが 1 個、"
    "次に 2 個戻る。",
    "option.antimagic_shield": "対魔法の盾",
    "option.antimagic_shield.help": "対魔法の盾: フェイズ 1 でダイスを 1 つの系統に対する盾として場に置ける。",
    "option.power_drain": "魔力吸収",
    "option.power_drain.help": "魔力吸収: ゲーム中 1 回、防御として予備のダイスを生け贄にし、全員に 2 点与える。",
    "option.magic_lesson": "魔法の授業",
    "option.magic_lesson.help": "魔法の授業: 15 ラウンドで終了し、魔力ポイントが最も多い人の勝ち。",
    "option.power_sacrifice": "魔力の犠牲",
    "option.power_sacrifice.help": "魔力の犠牲: ゲーム中 1 回、脱落する代わりに基本呪文カードを捨てて 10 で復帰する。",
    "option.alt_ending": "別の終わり方",
    "option.alt_ending.help": "別の終わり方: 誰かが脱落したラウンドの次のラウンドの後でゲームが終わる。",
    "option.spell_deck": "呪文デッキ",
    "option.spell_deck.help": "開始時の呪文デッキの呪文カードの枚数。",
}

PL: dict[str, str] = {
    "format.title.ffa": "Każdy na każdego",
    "format.title.duel": "Gra dwuosobowa",
    "format.title.commander": "Commander",
    "format.title.necromancer": "Nekromanta",
    "format.title.conspiracy": "Pod Conspiracy",
    "format.title.ggd": "Group Game Draft",
    "format.title.planechase": "Planechase",
    "format.title.contraptions": "Contraptions",
    "format.title.wizards_duel": "Pojedynek czarnoksiężnika",
    "option.time_limit": "limit czasu",
    "option.time_limit.help": "minuty na rundę (CJ-5)",
    "option.attack_left": "atak tylko w lewo",
    "option.attack_left.help": "można atakować tylko gracza po lewej (CJ-6)",
    "option.range_of_influence": "zasięg wpływu",
    "option.range_of_influence.help": "zasięg wpływu (CJ-6): bez ograniczeń albo 1 (tylko sąsiedzi)",
    "option.rumble": "zasada Rumble",
    "option.rumble.help": "zasada Rumble: karta z sideboardu za każde 20 odebranego życia (CJ-8)",
    "option.event": "wydarzenie",
    "option.event.help": "nazwa wydarzenia, wspólna dla wszystkich jego podów",
    "option.pod": "pod",
    "option.pod.help": "numer tego poda w wydarzeniu",
    "option.plain_d6": "zwykła k6",
    "option.plain_d6.help": "Rzut zwykłą k6: 1 to chaos, 6 to planeswalk (PC-1).",
    "option.communal_deck": "wspólna talia",
    "option.communal_deck.help": "Jedna wspólna talia planarna dla całego stołu (901.15).",
    "option.two_headed_giant": "Two-Headed Giant",
    "option.two_headed_giant.help": "Drużyny z dwóch sąsiednich miejsc (901.12).",
    "option.grand_melee": "Grand Melee",
    "option.grand_melee.help": "Kilka odkrytych planów, po jednym na znacznik tury (901.14).",
    "option.turn_markers": "znaczniki tury",
    "option.turn_markers.help": "Znaczniki tury w Grand Melee; 0 = jeden na czterech graczy.",
    "option.eternities_map": "Mapa Wieczności",
    "option.eternities_map.help": "Wariant Mapy Wieczności (wymaga wspólnej talii).",
    "option.planar_deck": "talia planarna",
    "option.planar_deck.help": "Skąd talie planarne: wszystkie karty, jeden dodatek albo prawdziwe karty.",
    "option.planar_deck_size": "rozmiar talii",
    "option.planar_deck_size.help": "Liczba kart w wirtualnej talii planarnej każdego gracza.",
    "option.contraptions": "contraptions",
    "option.contraptions.help": "Jak contraptions wchodzą do gry: base (własna talia każdego, zasady Unstable), "
    "a (pięć bibliotek frakcji i kostka w upkeepie), b (wspólna talia, decyduje kostka), "
    "c (wspólna talia, płatne rzuty na złożenie).",
    "option.declined": "odmowa złożenia",
    "option.declined.help": "Wariant A: contraption, której gracz nie może lub nie chce złożyć, idzie na spód "
    "swojej biblioteki (bottom) albo na złomowisko (scrapyard).",
    "option.faction_dice": "kostki frakcji",
    "option.faction_dice.help": "Wariant A: rzuć 1, 2 lub 3 kostkami frakcji i użyj jednej; przy 2 lub 3 "
    "złożenie jest obowiązkowe.",
    "option.contraption_cards": "karty contraptions",
    "option.contraption_cards.help": "virtual: urządzenie trzyma i tasuje talie contraptions; physical: "
    "prawdziwe karty odkrywa się przy stole i przykłada do czytnika (albo podaje przez 'card').",
    "option.chain_reaction": "reakcja łańcuchowa",
    "option.chain_reaction.help": "Reakcja łańcuchowa: czary poziomu 0, 1, 2 rzucone w kolejnych turach "
    "oddają 1, potem 2 kostki.",
    "option.antimagic_shield": "tarcza antymagiczna",
    "option.antimagic_shield.help": "Tarcza antymagiczna: w fazie 1 kostka może trafić na stół jako tarcza "
    "przed jedną szkołą.",
    "option.power_drain": "wyssanie mocy",
    "option.power_drain.help": "Wyssanie mocy: raz na grę, w obronie, poświęć kostkę z rezerwy, by zadać 2 "
    "wszystkim.",
    "option.magic_lesson": "lekcja magii",
    "option.magic_lesson.help": "Lekcja magii: 15 rund; wygrywa ten, kto ma wtedy najwięcej punktów magii.",
    "option.power_sacrifice": "poświęcenie mocy",
    "option.power_sacrifice.help": "Poświęcenie mocy: raz na grę, zamiast odpaść, odrzuć podstawową kartę "
    "czaru i wróć z 10.",
    "option.alt_ending": "inne zakończenie",
    "option.alt_ending.help": "Inne zakończenie: gra kończy się po rundzie następującej po tej, w której "
    "ktoś odpadł.",
    "option.spell_deck": "talia czarów",
    "option.spell_deck.help": "Liczba kart czarów w talii czarów na początku.",
}

register("en", _english())
register("ru", RU)
register("ja", JA)
register("pl", PL)

"""The scenes the screenshot and facts tests draw: one per screen, each reached through the
kiosk's own inputs (the controller, the journal, the reader's events), and helpers to read what
the drawing layer recorded."""

from __future__ import annotations

from collections.abc import Callable

from device.commands import (
    Advance,
    ChangeLife,
    ChangePoison,
    Concede,
    DealCommanderDamage,
    NewGame,
    SetLife,
)
from device.inputs import Button, ReaderStatus, TagRead
from device.rules.wizards_duel.state import WizardsDuelState
from display.canvas import Drawn
from display.kiosk import Kiosk
from display.layout import choose
from display.ui import Focus, Go, Press, ToggleHelp, Turn

SIZES = ((320, 240), (480, 320), (800, 480), (1280, 720))
#: Sizes some scenes are also drawn and compared at, by scene.
MORE_SIZES: dict[str, tuple[tuple[int, int], ...]] = {}
LANGUAGES = ("en", "ru", "ja", "pl")
#: Names in four scripts, all drawn by the bundled fonts.
PLAYERS = ("Alice", "Юрий", "さくら", "Łukasz")
SAMPLE_TEXT = "Sample rules text for the tests: whenever you roll chaos, each player draws a card."


def texts(kiosk: Kiosk, role: str | None = None) -> list[str]:
    """The texts drawn in ``role`` (``"banner.*"``: every role under ``banner``), in order; the
    lines of a wrapped text are put back together into one, card symbols in their notation
    ("{T}"; ``Drawn.written``)."""
    found: list[str] = []
    last: dict[str, int] = {}
    for d in kiosk.canvas.drawn:
        if role is not None and (
            d.role != role if not role.endswith(".*") else not d.role.startswith(role[:-1])
        ):
            continue
        if d.joiner is not None and d.role in last:
            found[last[d.role]] += d.joiner + d.written
            continue
        last[d.role] = len(found)
        found.append(d.written)
    return found


def drawn(kiosk: Kiosk, role: str) -> list[Drawn]:
    return [d for d in kiosk.canvas.drawn if d.role == role]


def assert_readable(kiosk: Kiosk, size: tuple[int, int]) -> None:
    """HW-4 on the last frame: no text cut or below the layout's ``tiny`` size, every touch
    target at least ``touch`` tall."""
    layout = choose(*size)
    for d in kiosk.canvas.drawn:
        assert not d.cut, (size, d)
        assert d.size >= layout.tiny, (size, d)
    for target in kiosk.canvas.targets:
        assert target.rect[3] >= layout.touch, (size, target)


# --- scenes: one per screen, each reached through the kiosk's own inputs ----------------------


def scene_setup(k: Kiosk) -> None:
    k.dispatch(Go("setup"))


def scene_table(k: Kiosk) -> None:
    k.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[1]))
    k.dispatch(Press(Button.NEXT))
    k.execute(DealCommanderDamage(seat=2, source=1, amount=7))
    k.execute(ChangePoison(seat=0, delta=3, source=1))
    k.execute(Concede(seat=3))
    k.dispatch(Press(Button.ROLL))  # refused: no Planechase in this game


def scene_life(k: Kiosk) -> None:
    """A life change being made on the table: the encoder on Alice's seat, 3 damage from Юрий
    (whose turn it is), shown on her seat before the pause makes it."""
    k.execute(NewGame(formats=("commander",), players=PLAYERS, first=PLAYERS[1]))
    k.dispatch(Press(Button.NEXT))
    k.execute(DealCommanderDamage(seat=2, source=1, amount=7))
    k.execute(ChangePoison(seat=0, delta=3, source=1))
    k.dispatch(Focus(-1))  # from Юрий's seat to Alice's
    k.dispatch(Turn(-3))


def scene_history(k: Kiosk) -> None:
    """The table's game, its last change undone, on the history screen."""
    scene_table(k)
    k.dispatch(Press(Button.UNDO))
    k.dispatch(Go("history"))


def scene_history_dealt(k: Kiosk) -> None:
    scene_history(k)
    k.dispatch(Focus(1))


def scene_upkeep(k: Kiosk) -> None:
    k.execute(NewGame(formats=("commander", "planechase"), players=PLAYERS, first=PLAYERS[0]))


def scene_adjust(k: Kiosk) -> None:
    scene_upkeep(k)
    k.dispatch(Press(Button.NEXT))
    k.dispatch(Go("adjust"))  # key A
    k.dispatch(Turn(-3))


def scene_planechase(k: Kiosk) -> None:
    k.execute(
        NewGame(
            formats=("commander", "planechase"),
            players=PLAYERS,
            first=PLAYERS[0],
            options={"planar_deck": "physical"},
        )
    )
    k.handle_input(TagRead("04A1B2C3"))  # the starting plane, tapped on the reader
    k.execute(Advance())
    k.dispatch(Press(Button.ROLL))
    k.dispatch(Press(Button.ROLL))


def scene_upkeep_plane(k: Kiosk) -> None:
    """The next turn's upkeep with a plane whose rules text is known: the banner shows it."""
    scene_planechase(k)
    k.dispatch(Press(Button.NEXT))  # Юрий's upkeep
    k.execute(DealCommanderDamage(seat=1, source=0, amount=6))
    k.execute(ChangePoison(seat=2, delta=2, source=0))


def scene_upkeep_six(k: Kiosk) -> None:
    """Six players in the upkeep, with poison and commander damage from two commanders."""
    k.execute(NewGame(formats=("commander", "planechase"), players=POD[:6], first=POD[0]))
    k.execute(DealCommanderDamage(seat=2, source=1, amount=7))
    k.execute(DealCommanderDamage(seat=2, source=3, amount=12))
    k.execute(ChangePoison(seat=5, delta=4, source=4))
    k.execute(ChangeLife(seat=4, delta=-25, source=0))


def scene_pc_table(k: Kiosk) -> None:
    """The main phase on the table: the strip under the seats names the plane."""
    scene_planechase(k)
    k.dispatch(Go("table"))


def scene_pc_start(k: Kiosk) -> None:
    """The Planechase screen before anyone rolled."""
    scene_upkeep(k)
    k.dispatch(Press(Button.NEXT))
    k.dispatch(Go("planechase"))


def scene_pc_awaiting(k: Kiosk) -> None:
    """A physical deck after a planeswalk: the gadget waits for the next card."""
    from device.rules.planechase.commands import Planeswalk

    scene_planechase(k)
    k.execute(Planeswalk())


def scene_two_headed_giant(k: Kiosk) -> None:
    """Two-Headed Giant Commander (TB-6): three teams, shared life and poison, one team out."""
    k.execute(NewGame(formats=("commander", "two_headed_giant"), players=POD[:6], first=POD[2]))
    k.execute(ChangeLife(seat=0, delta=-17, source=2))
    k.execute(ChangePoison(seat=3, delta=6, source=0))
    k.execute(Concede(seat=5))


def scene_pc_own_die(k: Kiosk) -> None:
    """A table rolling its own die: ROLL asks which face it showed (PC-1)."""
    k.execute(
        NewGame(
            formats=("commander", "planechase"),
            players=PLAYERS,
            first=PLAYERS[0],
            options={"own_die": "on"},
        )
    )
    k.execute(Advance())
    k.dispatch(Press(Button.ROLL))


#: Alice's virtual planar deck for the scenes below: with the kiosk's seeded shuffle, seven
#: planeswalks reach Interplanar Tunnel.
TUNNEL_DECK = (
    "Interplanar Tunnel",
    "Agyrem",
    "Bant",
    "Cliffside Market",
    "Eloren Wilds",
    "Feeding Grounds",
    "Tazeem",
    "Glimmervoid Basin",
    "Goldmeadow",
    "Naya",
)


def scene_pc_encounter(k: Kiosk) -> None:
    """A phenomenon being encountered (PC-7)."""
    from device.rules.planechase.commands import Planeswalk, SetPlanarDeck

    scene_upkeep(k)
    k.execute(SetPlanarDeck(owner=0, names=TUNNEL_DECK))
    k.dispatch(Press(Button.NEXT))
    while (
        k.state is not None
        and k.state.planechase is not None
        and k.state.planechase.encounter is None
    ):
        k.execute(Planeswalk())
    k.dispatch(Go("planechase"))


def scene_pc_choice(k: Kiosk) -> None:
    """Interplanar Tunnel's choice of five planes, the cursor on the fourth (PC-11)."""
    scene_pc_encounter(k)
    k.dispatch(Press(Button.NEXT))  # resolved: the Tunnel reveals five planes
    for _ in range(3):
        k.dispatch(Turn(1))


def scene_pc_rolls(k: Kiosk) -> None:
    """Twenty-one rolls into the game, two counters on the plane."""
    from device.rules.planechase.commands import RevealPlanarCard, RollPlanarDie

    scene_planechase(k)
    # Tazeem went to the bottom of a deck of ten: the cards above it come up first (701.22b)
    deck = iter(
        [
            "Naya",
            "Krosa",
            "Minamo",
            "Otaria",
            "Shiv",
            "Llanowar",
            "Lethe Lake",
            "Murasa",
            "Goldmeadow",
        ]
    )
    while (
        k.state is not None
        and k.state.planechase is not None
        and len(k.state.planechase.rolls) < 21
    ):
        k.execute(RollPlanarDie(free=True))
        if k.state.planechase.awaiting is not None:
            k.execute(RevealPlanarCard(name=next(deck)))  # the next card, turned over and tapped
    k.dispatch(Go("planechase"))
    k.dispatch(Press(Button.SELECT))  # the encoder to the plane's counters,
    k.dispatch(Turn(2))  # two on it,
    k.dispatch(Press(Button.SELECT))  # and back to life


def scene_reader(k: Kiosk) -> None:
    scene_upkeep(k)
    k.dispatch(Press(Button.NEXT))
    k.handle_input(ReaderStatus(False, "/dev/ttyUSB0", "rdm6300", "unplugged"))
    k.handle_input(TagRead("DEADBEEF"))


def scene_help(k: Kiosk) -> None:
    scene_upkeep(k)
    k.dispatch(Press(Button.NEXT))
    k.dispatch(ToggleHelp())


def scene_necro_ask(k: Kiosk) -> None:
    """NC-1: Alice takes Юрий to 0 life; the screen asks who was responsible."""
    k.execute(NewGame(formats=("necromancer",), players=PLAYERS, first=PLAYERS[0]))
    k.dispatch(Press(Button.NEXT))
    k.execute(SetLife(seat=1, life=0, source=0))


def scene_necromancer(k: Kiosk) -> None:
    """NC-1, NC-3: Юрий Alice's minion with a solo turn done, さくら a masterless minion."""
    scene_necro_ask(k)
    k.dispatch(Press(Button.SELECT))  # Alice, as recorded
    k.execute(SetLife(seat=2, life=0, source=0))
    k.dispatch(Turn(-1))  # back from Alice, round to the last answer: nobody
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Press(Button.SELECT))  # Юрий finished a solo turn


def scene_necro_table(k: Kiosk) -> None:
    scene_necromancer(k)
    k.dispatch(Go("table"))


#: Ten players, names in four scripts.
TEN = (*PLAYERS, "Ben", "Ольга", "はると", "Zofia", "Marek", "Ewa")


def scene_necro_ask_ten(k: Kiosk) -> None:
    """NC-1 at a table of ten: nine players or nobody may be named; the cursor on the eighth."""
    k.execute(NewGame(formats=("necromancer",), players=TEN, first=TEN[0]))
    k.dispatch(Press(Button.NEXT))
    k.execute(SetLife(seat=1, life=0, source=0))
    k.dispatch(Turn(7))


def scene_necro_ten(k: Kiosk) -> None:
    """NC-1, NC-3 at a table of ten: three minions, two of them playing solo turns, the cursor on
    the second of those."""
    scene_necro_ask_ten(k)
    k.dispatch(Turn(-7))
    k.dispatch(Press(Button.SELECT))  # Alice, as recorded
    k.execute(SetLife(seat=6, life=0, source=4))
    k.dispatch(Press(Button.SELECT))  # Ben
    k.execute(SetLife(seat=8, life=0, source=None))
    k.dispatch(Press(Button.SELECT))  # nobody
    k.dispatch(Press(Button.SELECT))  # Юрий finished a solo turn
    k.dispatch(Turn(1))


#: A pod of eight, names in four scripts.
POD = ("Alice", "Юрий", "さくら", "Łukasz", "Ben", "Ольга", "はると", "Zofia")
POD_CLOCK = 1.7e9 - 10 * 60  # the round's clock started ten minutes before the kiosk's wall clock


def scene_conspiracy(k: Kiosk) -> None:
    """CJ-3..CJ-6, CJ-8: round 2 under way, two places known, a Rumble pick earned."""
    from device.rules.conspiracy.commands import LeaveGroup, PassGroupTurn, StartClock

    k.execute(
        NewGame(
            formats=("conspiracy",),
            players=POD,
            first=POD[0],
            options={
                "event": "Kyoto",
                "time_limit": "60",
                "attack_left": "on",
                "range_of_influence": "1",
                "rumble": "on",
            },
        )
    )
    assert k.state is not None and k.state.conspiracy is not None
    for group in k.state.conspiracy.groups:
        k.execute(LeaveGroup(seats=(group.order[0],)))
        k.execute(LeaveGroup(seats=(group.order[1],)))
    consp = k.state.conspiracy
    k.execute(StartClock(now=POD_CLOCK))
    winners, losers = consp.groups
    k.execute(PassGroupTurn(seat=winners.order[1]))
    k.execute(ChangeLife(seat=winners.order[2], delta=-8, source=winners.order[1]))
    k.execute(
        ChangeLife(seat=winners.order[3], delta=-12, source=winners.order[1])
    )  # 20 in all: a pick
    k.execute(LeaveGroup(seats=(winners.order[3],)))
    k.execute(LeaveGroup(seats=(losers.order[0],)))


# --- Wizard's Duel ("Pojedynek czarnoksiężnika"): its table -------------------------------------


def duel_cards(k: Kiosk, seats: int) -> None:
    """Each player describes two starting spell cards, as printed (the console's 'spell')."""
    from device.rules.wizards_duel.commands import DefineSpellCard
    from device.rules.wizards_duel.state import Face, Spell, SpellKind

    for seat in range(seats):
        k.execute(
            DefineSpellCard(
                seat=seat,
                name="Kula ognia",
                level=0,
                spells=(Spell(kind=SpellKind.OFFENSIVE, strength=6, school=Face.FIRE),),
            )
        )
        k.execute(
            DefineSpellCard(
                seat=seat,
                name="Źródło życia",
                spells=(Spell(kind=SpellKind.HEALING, strength=3, school=Face.WATER),),
            )
        )


def duel_to_casting(k: Kiosk, seats: int, keep: int | None = None) -> None:
    """Phase 1 the quick way (everything into the pool twice, so the refill runs short; ``keep``
    takes all back first, then sets two aside, and keeps reserve dice), the last roll, then each
    player lays dice on both cards and the incantations end: phase 3."""
    from device.rules.wizards_duel.commands import GatherMana, PaySpell

    for turn in range(2):
        k.dispatch(Press(Button.NEXT))  # everyone rolls
        for seat in range(seats):
            rolled = k.state.part(WizardsDuelState).wizard(seat).rolled
            assert rolled is not None
            aside = rolled if seat != keep else () if turn == 0 else rolled[:2]
            k.execute(GatherMana(seat=seat, aside=aside))
    k.dispatch(Press(Button.NEXT))  # the last roll, into the pools: phase 2
    for seat in range(seats):
        pool = k.state.part(WizardsDuelState).wizard(seat).pool
        k.execute(PaySpell(seat=seat, card="Kula ognia", dice=pool[:3]))
        k.execute(PaySpell(seat=seat, card="Źródło życia", dice=pool[3:5]))
    k.dispatch(Press(Button.NEXT))  # incantations over: phase 3


def scene_wd_gather(k: Kiosk) -> None:
    """Phase 1 after a roll: the first player has picked two dice for the mana pool."""
    k.execute(NewGame(formats=("wizards_duel",), players=PLAYERS[:3], first=PLAYERS[0]))
    duel_cards(k, 3)
    k.dispatch(Press(Button.ROLL))
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))


def scene_wd_attack(k: Kiosk) -> None:
    """Phase 3 with an attack waiting for its defence (the defender's options as chips)."""
    k.execute(NewGame(formats=("wizards_duel",), players=PLAYERS[:3], first=PLAYERS[0]))
    duel_cards(k, 3)
    duel_to_casting(k, 3, keep=2)
    k.dispatch(Press(Button.SELECT))  # Kula ognia…
    k.dispatch(Turn(1))
    k.dispatch(Press(Button.SELECT))  # …at the second target offered: the third player


def scene_wd_over(k: Kiosk) -> None:
    """A finished duel: the attacked player takes it undefended and drops out."""
    k.execute(
        NewGame(formats=("wizards_duel",), players=PLAYERS[:2], first=PLAYERS[0], starting_life=5)
    )
    duel_cards(k, 2)
    duel_to_casting(k, 2)
    k.dispatch(Press(Button.SELECT))  # Kula ognia at the only opponent
    k.dispatch(Press(Button.NEXT))  # no defence


def scene_wd_card(k: Kiosk) -> None:
    """WD-1: the first player describes a starting spell card on the kiosk: an area spell and a
    second one being switched on."""
    from display.ui import Type

    k.execute(NewGame(formats=("wizards_duel",), players=PLAYERS[:3], first=PLAYERS[0]))
    k.dispatch(Press(Button.SELECT))  # "Alice: new card (0/3)"
    k.dispatch(Type("Kula ognia"))
    k.dispatch(Press(Button.NEXT))
    k.dispatch(Turn(1))  # level 0
    for steps in (1, 3, 1, 1):  # area, strength 6, fire, 2 to the others
        k.dispatch(Press(Button.SELECT))
        k.dispatch(Turn(steps))
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Turn(1))  # a second spell


def scene_wd_describe(k: Kiosk) -> None:
    """WD-1: a new duel of four before the first roll: who still has spell cards to describe."""
    k.execute(NewGame(formats=("wizards_duel",), players=PLAYERS, first=PLAYERS[0]))


def _wd_to_incantations(k: Kiosk, seats: int) -> None:
    from device.rules.wizards_duel.commands import GatherMana

    for _ in range(2):
        k.dispatch(Press(Button.NEXT))  # everyone rolls
        for seat in range(seats):
            rolled = k.state.part(WizardsDuelState).wizard(seat).rolled
            assert rolled is not None
            k.execute(GatherMana(seat=seat, aside=rolled))
    k.dispatch(Press(Button.NEXT))  # the last roll, into the pools: phase 2


def scene_wd_incant(k: Kiosk) -> None:
    """WD-2 phase 2: the first player's pool dice (two picked), the spells to pay, the market,
    a new card and "ready"."""
    k.execute(NewGame(formats=("wizards_duel",), players=PLAYERS[:3], first=PLAYERS[0]))
    duel_cards(k, 3)
    _wd_to_incantations(k, 3)
    for _ in range(2):
        k.dispatch(Turn(1))
        k.dispatch(Press(Button.SELECT))


def scene_wd_learn(k: Kiosk) -> None:
    """WD-2 phase 2: learning market card 1 on the card form, with the pool's dice to pay."""
    scene_wd_incant(k)
    duel = k.state.wizards_duel  # type: ignore[union-attr]
    assert duel is not None
    pool = len(duel.wizard(0).pool)
    k.dispatch(Turn(pool - 1 + 2))  # past the dice and the two spells: "market card"
    k.dispatch(Press(Button.SELECT))


def scene_wd_cast(k: Kiosk) -> None:
    """WD-2 phase 3 at a table of four: the caster's activated spells, or pass."""
    k.execute(NewGame(formats=("wizards_duel",), players=PLAYERS, first=PLAYERS[0]))
    duel_cards(k, 4)
    duel_to_casting(k, 4)


def scene_wd_target(k: Kiosk) -> None:
    """WD-2 phase 3: Kula ognia's target, of three opponents."""
    scene_wd_cast(k)
    k.dispatch(Press(Button.SELECT))


def scene_wd_falling(k: Kiosk) -> None:
    """WD-4 power sacrifice: a player at 0 may sacrifice a basic card instead of dropping out."""
    k.execute(
        NewGame(
            formats=("wizards_duel",),
            players=PLAYERS[:3],
            first=PLAYERS[0],
            starting_life=5,
            options={"power_sacrifice": "on"},
        )
    )
    duel_cards(k, 3)
    from device.rules.wizards_duel.commands import DefineSpellCard
    from device.rules.wizards_duel.state import Face, Spell, SpellKind

    k.execute(
        DefineSpellCard(
            seat=1,
            name="Lodowa włócznia",
            level=1,
            spells=(Spell(kind=SpellKind.OFFENSIVE, strength=4, school=Face.WATER),),
        )
    )
    duel_to_casting(k, 3)
    k.dispatch(Press(Button.SELECT))  # Kula ognia at the first target offered
    k.dispatch(Press(Button.SELECT))
    k.dispatch(Press(Button.NEXT))  # no defence: Юрий falls to 0


SCENES: dict[str, Callable[[Kiosk], None]] = {
    "setup": scene_setup,
    "table": scene_table,
    "life": scene_life,
    "history": scene_history,
    "history-dealt": scene_history_dealt,
    "upkeep": scene_upkeep,
    "adjust": scene_adjust,
    "planechase": scene_planechase,
    "upkeep-plane": scene_upkeep_plane,
    "upkeep-six": scene_upkeep_six,
    "pc-table": scene_pc_table,
    "pc-start": scene_pc_start,
    "pc-awaiting": scene_pc_awaiting,
    "pc-own-die": scene_pc_own_die,
    "two-headed-giant": scene_two_headed_giant,
    "pc-encounter": scene_pc_encounter,
    "pc-choice": scene_pc_choice,
    "pc-rolls": scene_pc_rolls,
    "reader": scene_reader,
    "help": scene_help,
    "wd_gather": scene_wd_gather,
    "wd_attack": scene_wd_attack,
    "wd_over": scene_wd_over,
    "wd_card": scene_wd_card,
    "wd_describe": scene_wd_describe,
    "wd_incant": scene_wd_incant,
    "wd_learn": scene_wd_learn,
    "wd_cast": scene_wd_cast,
    "wd_target": scene_wd_target,
    "wd_falling": scene_wd_falling,
    "necro-ask": scene_necro_ask,
    "necromancer": scene_necromancer,
    "necro-table": scene_necro_table,
    "necro-ask-ten": scene_necro_ask_ten,
    "necro-ten": scene_necro_ten,
    "conspiracy": scene_conspiracy,
}

from scenes_contraptions import CONTRAPTION_SCENES  # noqa: E402

SCENES.update(CONTRAPTION_SCENES)

from scenes_conspiracy import CONSPIRACY_SCENES  # noqa: E402

SCENES.update(CONSPIRACY_SCENES)

from scenes_art import ART_SCENES  # noqa: E402

SCENES.update(ART_SCENES)
MORE_SIZES.update(
    {name: ((1920, 1080),) for name in ART_SCENES}
)  # a scaled layout and a large picture

from scenes_dice import DICE_SCENES  # noqa: E402

SCENES.update(DICE_SCENES)
MORE_SIZES.update(
    {name: ((1920, 1080),) for name in DICE_SCENES}
)  # the scaled layout: dice read across a room

from scenes_counters import COUNTER_SCENES  # noqa: E402

SCENES.update(COUNTER_SCENES)
MORE_SIZES.update(
    {name: ((1920, 1080),) for name in COUNTER_SCENES}
)  # the scaled layout: badges read across a room

from scenes_games import GAMES_SCENES  # noqa: E402

SCENES.update(GAMES_SCENES)
MORE_SIZES.update({name: ((1920, 1080),) for name in GAMES_SCENES})  # the scaled layout

from scenes_commander import COMMANDER_SCENES  # noqa: E402

SCENES.update(COMMANDER_SCENES)

from scenes_clock import CLOCK_SCENES  # noqa: E402

SCENES.update(CLOCK_SCENES)
MORE_SIZES.update(
    {name: ((1920, 1080),) for name in CLOCK_SCENES}
)  # the scaled layout: the header across a room


def shown(
    make_kiosk: Callable[..., Kiosk],
    scene: str,
    size: tuple[int, int] = (800, 480),
    language: str = "en",
) -> Kiosk:
    """A fresh kiosk at ``size`` in ``language`` with ``scene`` played and drawn."""
    kiosk = make_kiosk(size, language)
    SCENES[scene](kiosk)
    kiosk.redraw()
    return kiosk


from scenes_event import EVENT_SCENES  # noqa: E402

SCENES.update(EVENT_SCENES)

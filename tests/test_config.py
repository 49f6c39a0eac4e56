"""Configuration: defaults with no file, bad values reported by key and replaced by defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.game import GAME
from device.config import Config, load


def test_no_file_means_defaults_and_no_warning(tmp_path: Path) -> None:
    loaded = load()
    assert loaded.config == Config() and loaded.warnings == ()


def test_values_are_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AETHERBOX_DATA_DIR")
    path = tmp_path / "c.toml"
    path.write_text(
        'language = "pl"\ndata_dir = "/srv/ab"\n[starting_life]\nEDH = 30\n', encoding="utf-8"
    )
    loaded = load(path)
    assert loaded.warnings == ()
    assert loaded.config.language == "pl"
    assert loaded.config.starting_life == {"commander": 30}
    assert loaded.config.journal_path() == Path("/srv/ab/games/aetherbox.sqlite3")


def test_environment_overrides_the_data_dir(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('data_dir = "/srv/ab"\n', encoding="utf-8")
    assert load(path).config.journal_path() == tmp_path / "data" / "games" / "aetherbox.sqlite3"


def test_bad_value_is_named_and_the_rest_kept(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('language = "de"\ndata_dir = "/srv/ab"\ncolour = "red"\n', encoding="utf-8")
    loaded = load(path)
    assert loaded.config.language == "en"
    assert loaded.config.data_dir == Path("/srv/ab")
    assert loaded.warnings == (
        f"{path}: 'language': must be one of 'en', 'ru', 'ja' or 'pl' (got 'de'); using the default",
        f"{path}: unknown key 'colour' ignored",
    )


def test_unknown_format_in_starting_life(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[starting_life]\nbrawl = 25\n", encoding="utf-8")
    loaded = load(path)
    assert loaded.config.starting_life == {}
    known = ", ".join(sorted(f.name for f in GAME.formats.all()))
    assert loaded.warnings == (
        f"{path}: 'starting_life': There is no format 'brawl'. Known formats: {known}. "
        "(got {'brawl': 25}); using the default",
    )


def test_unparseable_file_gives_defaults_and_says_where(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('language = "pl\n', encoding="utf-8")
    loaded = load(path)
    assert loaded.config == Config()
    assert (
        loaded.warnings[0].startswith(f"{path}: not valid TOML (")
        and "line 1" in loaded.warnings[0]
    )


def test_unreadable_file_gives_defaults(tmp_path: Path) -> None:
    path = tmp_path / "dir.toml"
    path.mkdir()
    loaded = load(path)
    assert loaded.config == Config()
    assert loaded.warnings == (f"{path} is not a regular file; using defaults",)


def test_binary_garbage_gives_defaults(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    loaded = load(path)
    assert loaded.config == Config() and "not valid TOML" in loaded.warnings[0]


def test_the_event_broker_and_this_gadgets_table_are_read(tmp_path: Path) -> None:
    """[event]: the broker of an event across tables and this gadget's login; a broker without a
    table name is named in a warning and left out (the gadget plays on its own)."""
    from device.config import in_use

    path = tmp_path / "c.toml"
    path.write_text(
        '[event]\nbroker = "organiser.local"\ntable = "table2"\npassword = "s3cret"\njoin = "Spring"\n',
        encoding="utf-8",
    )
    loaded = load(path)
    assert loaded.warnings == ()
    event = loaded.config.event
    assert (event.address(), event.table, event.password, event.join) == (
        "organiser.local:8883",
        "table2",
        "s3cret",
        "Spring",
    )
    assert "event broker organiser.local:8883 as table table2" in in_use(
        loaded
    ) and "s3cret" not in in_use(loaded)
    path.write_text('[event]\nbroker = "organiser.local"\n', encoding="utf-8")
    loaded = load(path)
    assert loaded.config.event.broker is None
    assert loaded.warnings[0].endswith(
        "'event': a broker needs this gadget's table name (its login there): table = \"table1\" (got "
        "{'broker': 'organiser.local'}); using the default"
    )
    path.write_text('[event]\nbroker = "b"\ntable = "table 2"\n', encoding="utf-8")
    assert load(path).config.event.broker is None


def test_the_players_page_port_is_read_and_off_unless_set(tmp_path: Path) -> None:
    """[event] page_port: the players' page is served there; none, not at all; a port that
    would need root (or is no port) is named in a warning and the page stays off."""
    from device.config import in_use

    path = tmp_path / "c.toml"
    path.write_text('[event]\nbroker = "organiser.local"\ntable = "organiser"\n', encoding="utf-8")
    assert load(path).config.event.page_port is None
    path.write_text(
        '[event]\nbroker = "organiser.local"\ntable = "organiser"\npage_port = 8080\n',
        encoding="utf-8",
    )
    loaded = load(path)
    assert loaded.warnings == () and loaded.config.event.page_port == 8080
    assert "the players' page on port 8080" in in_use(loaded)
    for port in ("80", "70000"):
        path.write_text(
            f'[event]\nbroker = "organiser.local"\ntable = "organiser"\npage_port = {port}\n',
            encoding="utf-8",
        )
        loaded = load(path)
        assert loaded.config.event.page_port is None and "page_port" in loaded.warnings[0]


@pytest.mark.parametrize(
    ("lines", "port", "ca"),
    [
        ('broker = "organiser.local"', 8883, "/etc/aetherbox/broker-ca.crt"),
        ('broker = "192.168.4.1"\nca = "/home/pi/event-ca.crt"', 8883, "/home/pi/event-ca.crt"),
        ('broker = "192.168.4.1"\nport = 18883', 18883, "/etc/aetherbox/broker-ca.crt"),
        ('broker = "localhost"', 1883, None),
        ('broker = "127.0.0.1"', 1883, None),
        (
            'broker = "localhost"\nca = "/etc/aetherbox/broker-ca.crt"',
            8883,
            "/etc/aetherbox/broker-ca.crt",
        ),
    ],
)
def test_a_broker_across_the_network_is_reached_in_tls_trusting_the_events_authority(
    tmp_path: Path, lines: str, port: int, ca: str | None
) -> None:
    """[event]: TLS to any broker but one on this machine (the organiser's own, whose plain port
    is the loopback's alone), trusting the authority install.sh --broker made (its path on the
    organiser's Pi by default); the port follows unless given."""
    path = tmp_path / "c.toml"
    path.write_text(f'[event]\n{lines}\ntable = "table2"\n', encoding="utf-8")
    loaded = load(path)
    assert loaded.warnings == ()
    event = loaded.config.event
    found = event.ca_file()
    assert (event.port, event.tls, str(found) if found is not None else None) == (
        port,
        ca is not None,
        ca,
    )

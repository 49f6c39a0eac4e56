"""HW-2 wire formats: every parser reads real frames, ignores garbage, and never crashes."""

from __future__ import annotations

import re
from functools import reduce

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drivers.rfid import line, pn532
from drivers.rfid.em4100 import Em4100Parser, Id12Parser, Rdm6300Parser, id12_frame, rdm6300_frame

# A real RDM6300 frame: tag 0F 00 2C 6D 8A, checksum 0F^00^2C^6D^8A = C4.
RDM_FRAME = b"\x020F002C6D8AC4\x03"
# A real ID-12LA frame: tag 62 E3 08 6C ED, checksum 08.
ID12_FRAME = b"\x0262E3086CED08\r\n\x03"
# PN532 InListPassiveTarget answers: a 4-byte MIFARE Classic and a 7-byte NTAG213.
PN532_4 = bytes.fromhex("0000ff0cf4d54b0101000408 04deadbeef 9600".replace(" ", ""))
PN532_7 = bytes.fromhex("0000ff0ff1d54b01010044000704a1b2c3d4e5804000")


def feed_bytewise(parser: Rdm6300Parser | Id12Parser | Em4100Parser, data: bytes) -> list[str]:
    return [uid for i in range(len(data)) for uid in parser.feed(data[i : i + 1])]


# -- RDM6300 ---------------------------------------------------------------------------------


def test_hw2_rdm6300_real_frame_gives_its_uid() -> None:
    assert Rdm6300Parser().feed(RDM_FRAME) == ["0F002C6D8A"]


def test_rdm6300_encoder_matches_the_real_frame() -> None:
    assert rdm6300_frame(bytes.fromhex("0F002C6D8A")) == RDM_FRAME


def test_hw2_rdm6300_frame_split_across_reads() -> None:
    parser = Rdm6300Parser()
    assert feed_bytewise(parser, RDM_FRAME * 2) == ["0F002C6D8A", "0F002C6D8A"]
    assert parser.stats.frames == 2


def test_hw2_rdm6300_bad_checksum_is_dropped_and_counted() -> None:
    parser = Rdm6300Parser()
    bad = RDM_FRAME.replace(b"C4", b"C5")
    assert parser.feed(bad + RDM_FRAME) == ["0F002C6D8A"]
    assert parser.stats.bad_checksum == 1
    assert parser.stats.frames == 1


def test_hw2_rdm6300_garbage_between_frames_is_skipped() -> None:
    parser = Rdm6300Parser()
    stream = b"\xff\x00noise" + RDM_FRAME + b"\x02\x02ABC\x03" + b"\x020F00" + RDM_FRAME
    assert parser.feed(stream) == ["0F002C6D8A", "0F002C6D8A"]
    assert parser.stats.skipped > 0


def test_rdm6300_parser_refuses_the_id12_trailer() -> None:
    assert Rdm6300Parser().feed(ID12_FRAME) == []


def test_rdm6300_lower_case_hex_is_accepted_and_normalised() -> None:
    assert Rdm6300Parser().feed(b"\x020f002c6d8ac4\x03") == ["0F002C6D8A"]


# -- ID-12LA ---------------------------------------------------------------------------------


def test_hw2_id12_real_frame_gives_its_uid() -> None:
    assert Id12Parser().feed(ID12_FRAME) == ["62E3086CED"]
    assert id12_frame(bytes.fromhex("62E3086CED")) == ID12_FRAME


def test_hw2_id12_split_frames_bad_checksum_and_garbage() -> None:
    parser = Id12Parser()
    bad = ID12_FRAME.replace(b"08\r", b"09\r")
    stream = b"junk\r\n" + bad + ID12_FRAME + b"\x03\x03" + ID12_FRAME
    assert feed_bytewise(parser, stream) == ["62E3086CED", "62E3086CED"]
    assert parser.stats.bad_checksum == 1


def test_id12_parser_refuses_the_rdm6300_trailer() -> None:
    assert Id12Parser().feed(RDM_FRAME + b"\x00\x00\x00") == []


def test_em4100_parser_reads_both_and_says_which() -> None:
    parser = Em4100Parser()
    assert parser.feed(RDM_FRAME + ID12_FRAME) == ["0F002C6D8A", "62E3086CED"]
    assert parser.last_protocols == ["rdm6300", "id12"]


def test_em4100_encoder_refuses_a_uid_of_the_wrong_size() -> None:
    with pytest.raises(ValueError, match="5 data bytes, not 4: '01020304'"):
        rdm6300_frame(b"\x01\x02\x03\x04")


# -- the bridge line protocol ----------------------------------------------------------------


def test_hw2_line_crc_is_crc16_ibm_sdlc_of_the_text_before_the_mark() -> None:
    assert line.crc16(b"123456789") == 0x906E  # the catalogued check value of CRC-16/IBM-SDLC
    assert line.tag_line("04a1b2c3d4e5f6") == b"TAG 04A1B2C3D4E5F6 *408D\n"
    assert line.gone_line("DEADBEEF") == b"GONE DEADBEEF *%04X\n" % line.crc16(b"GONE DEADBEEF")
    assert line.hello_line("rc522-pico", "1.1") == b"AETHERBOX-BRIDGE rc522-pico 1.1 *EFA8\n"


def test_hw2_line_protocol_messages() -> None:
    parser = line.LineParser()
    stream = (
        line.hello_line("pico-rc522", "1.2.0").replace(b"\n", b"\r\n")
        + line.tag_line("04A1B2C3")
        + line.checked_line("TAG 04a1b2c3d4e580").replace(b"\n", b"\r\n")
        + line.tag_line("0102030405060708090A")
        + line.gone_line("04A1B2C3")
        + line.checked_line("ERR reader chip not answering")
    )
    assert parser.feed_messages(stream) == [
        line.Hello("pico-rc522", "1.2.0"),
        line.Tag("04A1B2C3"),
        line.Tag("04A1B2C3D4E580"),
        line.Tag("0102030405060708090A"),
        line.Gone("04A1B2C3"),
        line.BridgeError("reader chip not answering"),
    ]
    assert parser.stats == line.ParserStats(frames=6, bad_checksum=0, skipped=0)


def test_hw2_line_protocol_ignores_and_counts_other_lines() -> None:
    parser = line.LineParser()
    stream = (
        b"hello\n"
        + line.checked_line("TAG 04A1B2")  # 3 bytes: not a UID size
        + line.checked_line("TAG 04A1B2C3 extra")
        + line.checked_line("TAG 04A1B2CZ")
        + b"\xff\xfe\n"
        + b"\n"
        + b"X" * 500
        + line.tag_line("04A1B2C3")  # same line as the overlong noise
        + line.tag_line("0A0B0C0D")
    )
    assert parser.feed(stream) == ["0A0B0C0D"]
    assert parser.stats.skipped == 7


def test_hw2_line_with_a_wrong_crc_is_dropped_and_counted() -> None:
    parser = line.LineParser()
    good = line.tag_line("04A1B2C3D4E5F6")
    assert parser.feed(good.replace(b"F6", b"F7") + good.replace(b"408D", b"408E") + good) == [
        "04A1B2C3D4E5F6"
    ]
    assert parser.stats == line.ParserStats(frames=1, bad_checksum=2, skipped=0)
    assert line.check_line(b"TAG 04A1B2C3D4E5F7 *408D") == line.BadChecksum(
        "TAG 04A1B2C3D4E5F7", "408D"
    )


def test_hw2_line_without_a_crc_is_never_a_card_only_an_old_bridge_hello() -> None:
    """The CRC-less form of firmware 1.0: its hello is recognised (so the host can say
    'update the bridge'), its TAG, GONE and ERR lines are ignored."""
    parser = line.LineParser()
    stream = (
        b"AETHERBOX-BRIDGE rc522-pico 1.0\r\n"
        b"TAG 04A1B2C3D4E5F6\n"
        b"GONE 04A1B2C3D4E5F6\n"
        b"ERR antenna\n"
        b"TAG 04A1B2C3 *40\n"  # a CRC of the wrong size is no CRC
    )
    assert parser.feed_messages(stream) == [line.Hello("rc522-pico", "1.0", checked=False)]
    assert parser.stats == line.ParserStats(frames=1, bad_checksum=0, skipped=4)


HEX = b"0123456789ABCDEF"
HEX_CHANGES = sorted({a ^ b for a in HEX for b in HEX if a != b})


def test_hw2_line_crc_catches_every_change_of_one_or_two_hex_digits() -> None:
    """For any line up to a 10-byte UID, whatever its digits.  A CRC is linear: changing the
    text by an XOR pattern ``e`` changes the CRC by ``crc(e) ^ crc(zeros)``, whatever the text.
    So one changed UID digit passes only if that difference is 0, two only if their differences
    are equal, and a UID digit with a CRC digit only if its difference is one hex digit wide."""
    longest = len("TAG ") + 20
    zeros = line.crc16(bytes(longest))

    def difference(distance_from_end: int, change: int) -> int:
        pattern = bytearray(longest)
        pattern[longest - 1 - distance_from_end] = change
        return line.crc16(bytes(pattern)) ^ zeros

    differences = {
        (at, change): difference(at, change) for at in range(20) for change in HEX_CHANGES
    }
    assert 0 not in differences.values()
    by_value: dict[int, set[int]] = {}
    for (at, _), value in differences.items():
        by_value.setdefault(value, set()).add(at)
    assert [places for places in by_value.values() if len(places) > 1] == []
    one_digit_wide = [
        v for v in differences.values() if sum(v >> s & 0xF != 0 for s in (0, 4, 8, 12)) == 1
    ]
    assert one_digit_wide == []


def test_hw2_line_corrupted_digits_never_parse_as_a_tag() -> None:
    """The same, end to end through the parser, for one line of each UID size."""
    for uid in ("DEADBEEF", "04A1B2C3D4E5F6", "0102030405060708090A"):
        good = line.tag_line(uid)[:-1]
        digits = [i for i in range(4, len(good)) if good[i] in HEX]
        for i in digits:
            for a in HEX:
                if a == good[i]:
                    continue
                once = bytearray(good)
                once[i] = a
                assert line.parse_line(bytes(once)) is None
                for j in (j for j in digits if j > i):
                    for b in HEX:
                        if b != good[j]:
                            twice = bytearray(once)
                            twice[j] = b
                            assert line.parse_line(bytes(twice)) is None


def test_line_protocol_split_lines() -> None:
    parser = line.LineParser()
    data = line.tag_line("04A1B2C3").replace(b"\n", b"\r\n") + line.tag_line("0A0B0C0D")
    assert [uid for i in range(len(data)) for uid in parser.feed(data[i : i + 1])] == [
        "04A1B2C3",
        "0A0B0C0D",
    ]


def test_line_module_docstring_defines_the_protocol() -> None:
    doc = line.__doc__ or ""
    for word in (
        "115200",
        "AETHERBOX-BRIDGE",
        "TAG <uid>",
        "GONE <uid>",
        "ERR <text>",
        "HELLO",
        "CRC-16/IBM-SDLC",
    ):
        assert word in doc


# -- PN532 frames ----------------------------------------------------------------------------


def test_hw2_pn532_real_frames_checksums() -> None:
    for raw in (PN532_4, PN532_7):
        assert (raw[3] + raw[4]) & 0xFF == 0
        assert sum(raw[5:-1]) & 0xFF == 0
    assert pn532.in_list_response(bytes.fromhex("DEADBEEF"), b"\x00\x04", 0x08) == PN532_4
    assert pn532.in_list_response(bytes.fromhex("04A1B2C3D4E580")) == PN532_7
    assert pn532.command_frame(0x4A, b"\x01\x00") == bytes.fromhex("0000ff04fcd44a0100e100")


def test_hw2_pn532_parser_ack_and_responses_4_and_7_byte_uids() -> None:
    parser = pn532.FrameParser()
    frames = parser.feed(pn532.ACK + PN532_4 + pn532.ACK + PN532_7 + pn532.NACK)
    assert frames[0] == pn532.Ack() and frames[2] == pn532.Ack() and frames[4] == pn532.Nack()
    assert isinstance(frames[1], pn532.Info) and isinstance(frames[3], pn532.Info)
    assert frames[1].tfi == pn532.PN532_TFI
    assert pn532.target_uid(frames[1].data) == "DEADBEEF"
    assert pn532.target_uid(frames[3].data) == "04A1B2C3D4E580"


def test_hw2_pn532_bad_dcs_dropped_and_counted_then_resync() -> None:
    parser = pn532.FrameParser()
    bad = PN532_4[:-2] + bytes([PN532_4[-2] ^ 1]) + b"\x00"
    frames = parser.feed(b"\x12\x00\xff\x07" + bad + PN532_7)
    assert parser.stats.bad_checksum == 1
    assert [pn532.target_uid(f.data) for f in frames if isinstance(f, pn532.Info)] == [
        "04A1B2C3D4E580"
    ]


def test_pn532_split_frames() -> None:
    parser = pn532.FrameParser()
    data = pn532.ACK + PN532_7
    frames = [f for i in range(len(data)) for f in parser.feed(data[i : i + 1])]
    assert len(frames) == 2 and isinstance(frames[1], pn532.Info)


def test_pn532_error_frame_and_no_target() -> None:
    frames = pn532.FrameParser().feed(bytes.fromhex("0000ff01ff7f8100"))
    assert frames == [pn532.Info(0x7F, b"")]
    assert pn532.target_uid(bytes([0x4B, 0x00])) is None
    assert pn532.target_uid(bytes.fromhex("4b01010044000504a1b2c3d4")) is None  # 5-byte UID


# -- Hypothesis: parsers never crash and never invent tags ---------------------------------

EM_PATTERN = re.compile(rb"\x02([0-9A-Fa-f]{12})(\x03|\r\n\x03)")


def em_oracle(stream: bytes, trailers: tuple[bytes, ...]) -> list[str]:
    """Every well-formed frame with a good checksum in ``stream``, found the slow way."""
    uids = []
    for match in EM_PATTERN.finditer(stream):
        digits = bytes.fromhex(match.group(1).decode())
        if match.group(2) in trailers and reduce(lambda a, b: a ^ b, digits[:5]) == digits[5]:
            uids.append(digits[:5].hex().upper())
    return uids


uids5 = st.binary(min_size=5, max_size=5)
chunk_cuts = st.lists(st.integers(min_value=0, max_value=400), max_size=12)


def split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(c, len(data)) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)])]


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=400), chunk_cuts)
def test_hw2_parsers_never_raise_on_random_bytes(data: bytes, cuts: list[int]) -> None:
    for parser in (Rdm6300Parser(), Id12Parser(), Em4100Parser(), line.LineParser()):
        whole = parser.feed(data)
        again = type(parser)()
        assert [uid for part in split(data, cuts) for uid in again.feed(part)] == whole
    frames = pn532.FrameParser()
    for part in split(data, cuts):
        for item in frames.feed(part):
            if isinstance(item, pn532.Info):
                pn532.target_uid(item.data)


def em_stream(frame_of: object) -> st.SearchStrategy[tuple[bytes, list[str]]]:
    """Valid frames, frames cut short, and noise, spliced; with the UIDs of the whole frames."""
    assert callable(frame_of)
    noise = st.binary(max_size=30).map(lambda b: b.replace(b"\x02", b"").replace(b"\x03", b""))
    whole = uids5.map(lambda u: (frame_of(u), [u.hex().upper()]))
    cut = st.tuples(uids5, st.integers(1, 13)).map(lambda t: (frame_of(t[0])[: t[1]], list[str]()))
    pieces = st.lists(st.one_of(whole, cut, noise.map(lambda b: (b, []))), max_size=12)
    return pieces.map(lambda ps: (b"".join(p[0] for p in ps), [u for p in ps for u in p[1]]))


@settings(max_examples=150, deadline=None)
@given(em_stream(rdm6300_frame), chunk_cuts)
def test_hw2_rdm6300_spliced_stream_yields_exactly_the_whole_frames(
    sent: tuple[bytes, list[str]], cuts: list[int]
) -> None:
    stream, uids = sent
    parser = Rdm6300Parser()
    assert [u for part in split(stream, cuts) for u in parser.feed(part)] == uids


@settings(max_examples=150, deadline=None)
@given(em_stream(id12_frame), chunk_cuts)
def test_hw2_id12_spliced_stream_yields_exactly_the_whole_frames(
    sent: tuple[bytes, list[str]], cuts: list[int]
) -> None:
    stream, uids = sent
    parser = Id12Parser()
    assert [u for part in split(stream, cuts) for u in parser.feed(part)] == uids


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=20), st.sampled_from([RDM_FRAME, ID12_FRAME]))))
def test_hw2_em4100_parsers_agree_with_a_slow_reference(pieces: list[bytes]) -> None:
    """Even in noise that happens to contain frame bytes, only well-formed frames count."""
    stream = b"".join(pieces)
    assert Rdm6300Parser().feed(stream) == em_oracle(stream, (b"\x03",))
    assert Id12Parser().feed(stream) == em_oracle(stream, (b"\r\n\x03",))


line_uids = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n))


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            line_uids.map(lambda u: (line.tag_line(u.hex()), [u.hex().upper()])),
            line_uids.map(
                lambda u: (line.tag_line(u.hex()).replace(b"\n", b"\r\n"), [u.hex().upper()])
            ),
            # Noise: even with a CRC-less TAG line in it, it is no card.
            st.binary(max_size=40)
            .map(lambda b: b.replace(b"\n", b"").replace(b" *", b"") + b"\n")
            .map(lambda b: (b, [])),
        ),
        max_size=12,
    ),
    chunk_cuts,
)
def test_hw2_line_spliced_stream_yields_exactly_the_tag_lines(
    pieces: list[tuple[bytes, list[str]]], cuts: list[int]
) -> None:
    stream = b"".join(p[0] for p in pieces)
    parser = line.LineParser()
    assert [u for part in split(stream, cuts) for u in parser.feed(part)] == [
        u for p in pieces for u in p[1]
    ]


def pn532_uids(stream: bytes, cuts: list[int]) -> list[str | None]:
    parser = pn532.FrameParser()
    return [
        pn532.target_uid(f.data)
        for part in split(stream, cuts)
        for f in parser.feed(part)
        if isinstance(f, pn532.Info)
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.one_of(
            line_uids.map(lambda u: (pn532.in_list_response(u), [u.hex().upper()])),
            st.just((pn532.ACK, [])),
            # Noise without FF cannot hold a start code (00 FF), so it cannot forge a frame.
            st.binary(max_size=30).map(lambda b: (b.replace(b"\xff", b""), [])),
        ),
        max_size=10,
    ),
    chunk_cuts,
)
def test_hw2_pn532_spliced_stream_yields_exactly_the_sent_targets(
    pieces: list[tuple[bytes, list[str]]], cuts: list[int]
) -> None:
    stream = b"".join(p[0] for p in pieces)
    assert pn532_uids(stream, cuts) == [u for p in pieces for u in p[1]]

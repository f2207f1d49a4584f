"""A body of pieces reads, seeks and reads again as the bytes of its pieces end to end, making the
pieces again for each reading from the start, unless they are few enough bytes to keep."""

import io

import pytest

from podpages.storage.joined_body import JoinedBody

PIECES = [b"{", b"", b'"a":1', b",", b'"b":[' + b"x" * 100 + b"]", b"}"]
WHOLE = b"".join(PIECES)


def counted(pieces):
    """`pieces` made again at each call, with how many times they were made."""
    made = []

    def make():
        made.append(1)
        return iter(pieces)

    return make, made


@pytest.mark.parametrize("size", [1, 3, 7, 64, 1000])
def test_read_in_blocks_of_any_size_it_is_the_pieces_joined(size):
    body = JoinedBody(counted(PIECES)[0])

    blocks = iter(lambda: body.read(size), b"")

    assert b"".join(blocks) == WHOLE and len(body) == len(WHOLE)


@pytest.mark.parametrize(("kept_bytes", "makings"), [(len(WHOLE) - 1, 4), (len(WHOLE), 1)])
def test_it_seeks_and_reads_from_anywhere_as_botocore_does_to_send_again(kept_bytes, makings, monkeypatch):
    monkeypatch.setattr("podpages.storage.joined_body.KEPT_BYTES", kept_bytes)
    make, made = counted(PIECES)
    body = JoinedBody(make)
    assert body.read() == WHOLE and body.read() == b""

    assert body.seek(0) == 0 and body.read(4) == WHOLE[:4]
    assert body.seek(3, io.SEEK_CUR) == 7 and body.read(5) == WHOLE[7:12]
    assert body.seek(-2, io.SEEK_END) == len(WHOLE) - 2 and body.read() == b"]}"
    assert body.seek(5) == 5 and body.read(3) == WHOLE[5:8]
    assert body.tell() == 8
    with pytest.raises(ValueError, match="before the start"):
        body.seek(-1)
    # Made once for the length, once at the start, and again for each seek back; or, kept, once
    assert len(made) == makings


def test_no_pieces_are_an_empty_body():
    assert JoinedBody(lambda: iter([])).read() == b"" and len(JoinedBody(lambda: iter([b""]))) == 0

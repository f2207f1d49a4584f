"""An object written from parts of any size, held a part at a time: one PutObject when it is small,
as every object was before feeds were streamed, and a multipart upload when it is not."""

import hashlib
from collections.abc import Iterable, Iterator
from itertools import chain
from typing import Any

# S3 takes parts of at least 5 MiB, the last excepted; an object up to this size is one PutObject.
PART_SIZE = 8 * 1024 * 1024


def sized_parts(parts: Iterable[bytes], size: int = PART_SIZE) -> Iterator[bytes]:
    """`parts` joined and cut again into parts of `size` bytes, the last shorter; one empty part when
    there are no bytes at all."""
    buffer = bytearray()
    cut = False
    for part in parts:
        buffer += part
        while len(buffer) >= size:
            with memoryview(buffer) as view:
                part = bytes(view[:size])  # copied once: a slice of the bytearray would copy twice
            del buffer[:size]
            yield part
            cut = True
    if buffer or not cut:
        yield bytes(buffer)


def upload(client: Any, bucket: str, key: str, parts: Iterable[bytes], **headers: str) -> None:
    """Write `parts` to `key` with `headers` (ContentType, CacheControl). A multipart upload that
    fails is aborted, so that no part of it is kept, or billed."""
    sized = sized_parts(parts, PART_SIZE)
    first = next(sized)
    second = next(sized, None)
    if second is None:
        client.put_object(Bucket=bucket, Key=key, Body=first, **headers)
        return
    upload_id = client.create_multipart_upload(Bucket=bucket, Key=key, **headers)["UploadId"]
    try:
        written = []
        for number, part in enumerate(chain([first, second], sized), start=1):
            response = client.upload_part(Bucket=bucket, Key=key, UploadId=upload_id, PartNumber=number, Body=part)
            written.append({"ETag": response["ETag"], "PartNumber": number})
        client.complete_multipart_upload(Bucket=bucket, Key=key, UploadId=upload_id, MultipartUpload={"Parts": written})
    except BaseException:
        client.abort_multipart_upload(Bucket=bucket, Key=key, UploadId=upload_id)
        raise


def sha256(parts: Iterable[bytes]) -> str:
    """The SHA-256 of the bytes of `parts`, end to end, read a part at a time."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return digest.hexdigest()

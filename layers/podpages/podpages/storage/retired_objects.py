"""What a publish leaves behind in the source bucket, deleted together once it is done."""

from collections.abc import Iterable

from podpages.storage.error_reports import error_report_key
from podpages.storage.source_bucket import SourceBucket, catalog_page_key, nearby_part_key


class RetiredObjects:
    """The frozen pages and years' listings a commit replaced, the nearby parts a nearby index
    stopped naming, the error reports of uploads a publish settled. Each is added once nothing
    names it any more, and all go in one DeleteObjects request at the publish's end, where each
    kind made its own. A publish that fails before its end leaves them: nothing reads them."""

    def __init__(self, source: SourceBucket):
        self.source = source
        self.keys: set[str] = set()

    def catalog_pages(self, show: str, names: Iterable[str]) -> None:
        self.keys |= {catalog_page_key(show, name) for name in names}

    def nearby_parts(self, show: str, parts: Iterable[tuple[int, str]]) -> None:
        """The parts, by page and digest."""
        self.keys |= {nearby_part_key(show, page, digest) for page, digest in parts}

    def error_reports(self, upload_keys: Iterable[str]) -> None:
        """The reports on these uploads, whether or not they have one."""
        self.keys |= {error_report_key(key) for key in upload_keys}

    def delete(self) -> None:
        keys, self.keys = sorted(self.keys), set()
        self.source.delete(keys)

"""The site written to a local folder instead of a bucket, for `podpages render`."""

from pathlib import Path

from podpages.render.site_objects import SiteObject


class SiteFolder:
    def __init__(self, root: Path):
        self.root = root

    def apply(self, puts: list[SiteObject], deletes: list[str]) -> None:
        for item in puts:
            path = self._path(item.key)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(item.body)
        for key in deletes:
            self._path(key).unlink(missing_ok=True)

    def _path(self, key: str) -> Path:
        path = (self.root / key).resolve()
        if not path.is_relative_to(self.root.resolve()):
            raise ValueError(f"object key {key!r} leaves the site folder")
        return path

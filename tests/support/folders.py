"""What a folder holds, as the tests compare folders."""

from pathlib import Path


def contents(folder: Path) -> dict[str, bytes]:
    """Every file below `folder`, by its path relative to it, with its bytes."""
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in folder.rglob("*") if path.is_file()}

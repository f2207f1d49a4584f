"""The default cover: copied from the package's templates, and missed by name when a build left it out."""

import pytest

from podpages import templating
from podpages.render.plans import default_cover


def test_a_package_without_its_cover_says_templates_cover_png_is_missing(monkeypatch, tmp_path):
    # Given a package whose templates folder is empty
    (tmp_path / templating.TEMPLATES).mkdir()
    monkeypatch.setattr(templating, "files", lambda _package: tmp_path)

    # When the default cover is read, then the error names the file the package lacks, not a path of the machine
    with pytest.raises(FileNotFoundError, match=r"^templates/cover\.png is missing"):
        default_cover()

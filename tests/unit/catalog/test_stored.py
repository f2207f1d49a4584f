"""The catalog's stored form: what `Catalog` writes is what its light readers (the nearby index,
the rebuild requests) read, and a catalog of another version is refused, not misread."""

import json

import pytest
from pydantic import TypeAdapter

from podpages.catalog.model import Catalog
from podpages.catalog.stored import CATALOG_VERSION, StoredCatalog, UnknownCatalogVersion, load_catalog
from support.catalogs import daily_catalog, example_folder


@pytest.mark.parametrize("catalog", [daily_catalog(3), Catalog(show="empty"), *example_folder().catalogs.values()])
def test_what_the_model_writes_has_the_stored_shape(catalog):
    # Given a catalog as the render function commits it
    body = catalog.model_dump_json().encode()

    # Then it has every field the stored form promises, with its type, at the version the readers check
    TypeAdapter(StoredCatalog).validate_json(body, strict=True)
    assert load_catalog(body)["version"] == catalog.version == CATALOG_VERSION
    assert [entry["slug"] for entry in load_catalog(body)["episodes"]] == [entry.slug for entry in catalog.episodes]


@pytest.mark.parametrize("version", [2, None, "1"])
def test_a_catalog_of_another_version_is_refused_naming_it(version):
    stored = json.loads(daily_catalog(1).model_dump_json()) | {"version": version}

    with pytest.raises(UnknownCatalogVersion, match=f"version {version!r}"):
        load_catalog(json.dumps(stored).encode())

"""A show's catalog and the rules it applies: how a batch of changes is folded into it (`fold`),
what the fold makes stale on the site (`staleness`), which episodes are nearby (`nearby`), and
how many sitemap parts a show needs (`sitemap_parts`).

Pure code, with no I/O. The package's face exports nothing, so that the nearby function can
import `catalog.nearby` without loading the pydantic models.
"""

"""The publish path: upload events in, the site and the catalogs brought up to date.

For each show in a batch it reads the catalog, folds in the batch's changes, writes what
went stale, and only then commits the catalog with a conditional write. A lost race (412)
starts the show over from the newer catalog and re-renders everything written so far, so
a retried or redelivered event always finds its work still to do.
"""

import time
from collections.abc import Iterable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from botocore.exceptions import BotoCoreError, ClientError

from podpages import site_paths
from podpages.catalog.changes import Change, EpisodePut, TranscriptPut, is_removal, put, removal
from podpages.catalog.fold import ShowUpdate, fold
from podpages.catalog.model import Catalog, NotLoaded
from podpages.catalog.sitemap_parts import sitemap_files, sitemap_parts
from podpages.catalog.staleness import Refresh, all_listings, listings_of, pages_again, reach_of, set_right
from podpages.catalog.window import Reach
from podpages.contract.source_keys import is_upload_key, parse_source_key
from podpages.errors import CatalogConflict, ContractError, WriteConflict
from podpages.notify.notification import notification
from podpages.notify.notify_queue import NotifyQueue
from podpages.observability import MetricUnit, logger, metrics
from podpages.publish.catalog_store import CatalogStore, HeldCatalog
from podpages.publish.invalidation import invalidation_paths
from podpages.publish.show_lease import show_lease
from podpages.publish.upload_events import UploadEvent
from podpages.publish.uploaded_transcripts import UploadedTranscripts
from podpages.rebuild.request import RebuildRequest
from podpages.render import sitemaps
from podpages.render.feed import feed
from podpages.render.feed_runs import KEPT_RUNS
from podpages.render.plans import feed_plan, listing_plan, page_plan, site_plan, transcript_plans
from podpages.render.site_objects import Plan
from podpages.settings import Settings
from podpages.storage import streamed_upload
from podpages.storage.distribution import Distribution
from podpages.storage.error_reports import ErrorReport
from podpages.storage.held_lease import HeldLease
from podpages.storage.pages_ahead import PagesAhead
from podpages.storage.retired_objects import RetiredObjects
from podpages.storage.site_bucket import SiteBucket
from podpages.storage.source_bucket import SourceBucket

MAX_COMMIT_ATTEMPTS = 8
# The transcript files a publish or a rebuild renders before it writes them (`page_plans`). A rebuild
# request of 250 episodes with an hour's companion each held 175 MB of them, and 66 MB of their cues.
HELD_TRANSCRIPT_FILES = 32 * 2**20


class Lease(Protocol):
    """Takes the show's lease, recording where the pages lie that its holder may write ahead of the
    catalog (`show_lease`)."""

    def __call__(
        self, source: SourceBucket, show: str, *, ahead: PagesAhead = ...
    ) -> AbstractContextManager[HeldLease | None]: ...


@dataclass(frozen=True)
class Read:
    """A change read from an upload, with the event that announced it."""

    event: UploadEvent
    change: Change


class Publisher:
    def __init__(
        self,
        source: SourceBucket,
        site: SiteBucket,
        settings: Settings,
        lease: Lease = show_lease,
        distribution: Distribution | None = None,
        notify_queue: NotifyQueue | None = None,
    ):
        """`lease(source, show, ahead=…)` guards each show's publish; tests swap it to stage a rival whose
        lease expired under it. With a `distribution`, `announce` clears what was written from its
        caches; with a `notify_queue`, it queues the news of it there."""
        self.source = source
        self.site = site
        self.settings = settings
        self.lease = lease
        self.distribution = distribution
        self.notify_queue = notify_queue
        self.changed: set[str] = set()  # site keys written or deleted since the last invalidation

    @property
    def catalogs(self) -> CatalogStore:
        """The shows' catalogs in the source bucket, stored as these settings cut them."""
        return CatalogStore(self.source, self.settings)

    def read(self, event: UploadEvent) -> Read | None:
        """The change an event asks for, or None when there is none. Bad input is reported here, never raised."""
        with logger.append_context_keys(s3_key=event.key, sequencer=event.sequencer):
            return self._read(event)

    def _read(self, event: UploadEvent) -> Read | None:
        if not is_upload_key(event.key):
            logger.warning("event ignored: key outside the upload prefixes", key=event.key)
            return None
        try:
            source = parse_source_key(event.key)
        except ContractError as error:
            if event.removed:  # a bad upload taken back: its report goes with it
                self.source.delete_error_reports([event.key])
            else:
                self.reject(event, error)
            return None
        try:
            if event.removed:
                return Read(event, removal(source, event.sequencer))
            body = self.source.read_upload(event.key, source.max_bytes)
            if body is None:
                logger.info("event ignored: upload gone before it was read", key=event.key)
                return None
            change = put(source, body, event.sequencer)
            # A companion's cues wait on the local disk until the batch publishes: held, 60 near the
            # contract's 5 MiB took the function to 870 MB, and 100 would not have fit in its 1,024.
            return Read(event, change.spooled() if isinstance(change, TranscriptPut) else change)
        except ContractError as error:
            self.reject(event, error)
            return None

    def reject(self, event: UploadEvent, error: ContractError) -> None:
        """Bad data does not heal: report it beside the upload, log it, count it, and let the message go."""
        report = ErrorReport(event.key, event.time, tuple(error.problems))
        self.source.write_error_report(report)
        problems = [{"field": problem.field, "message": problem.message} for problem in report.problems]
        logger.warning("upload rejected", key=event.key, sequencer=event.sequencer, problems=problems)
        metrics.add_metric(name="EpisodesRejected", unit=MetricUnit.Count, value=1)

    def publish(self, reads: Iterable[Read]) -> None:
        """Publish every read, show by show."""
        for show, show_reads in group_by_show(reads).items():
            self.publish_show(show, show_reads)

    def publish_show(self, show: str, reads: list[Read]) -> None:
        """Under the show's lease, fold `reads` into its catalog, write what went stale, then
        commit the catalog."""
        with (
            logger.append_context_keys(show=show, **correlation_keys(reads)),
            self.lease(self.source, show, ahead=ahead_of(read.change for read in reads)) as lease,
            RetiredObjects(self.source, lease) as retired,  # deleted under the lease, in the request that releases it
        ):
            self._publish_show(show, reads, lease, retired)

    def _publish_show(self, show: str, reads: list[Read], lease: HeldLease | None, retired: RetiredObjects) -> None:
        written = Refresh()
        changes = [read.change for read in reads]
        transcripts = UploadedTranscripts(self.source, changes)  # the batch's own, and any other as it is rendered
        inherited = lease.inherited if lease else PagesAhead()
        for _attempt in range(MAX_COMMIT_ATTEMPTS):
            held, update = self.fold_into(show, changes, whole=bool(inherited))
            if gone := self.gone_since_read(held.catalog, update.applied):
                logger.info("event ignored: upload gone before it was published", keys=sorted(gone))
                changes = [change for change in changes if is_removal(change) or change.source.key not in gone]
                held, update = self.fold_into(show, changes, whole=bool(inherited))
            before = held.catalog
            written |= update.refresh
            if inherited:
                written |= self.left_ahead(update.after, inherited, before)
            for plan in self.page_plans(update.after, written, transcripts):
                if lease and (plan.puts or plan.deletes):
                    lease.unsettled = True  # from here, pages may be ahead of the catalog
                self.write(plan)
            if update.after == before and held.cut_for(self.settings.feed_max_items):
                break
            try:
                self.catalogs.commit(held, update.after, retired)
                break
            except CatalogConflict:
                metrics.add_metric(name="CatalogConflicts", unit=MetricUnit.Count, value=1)
                logger.info("catalog changed under us; folding again", show=show)
        else:
            raise CatalogConflict(show)
        if lease:
            lease.unsettled = False  # the pages are the committed catalog's
        if update.after == before:
            self.relist_if_behind(update.after, {slug for change in changes if (slug := change.source.episode)})
        else:
            self.write_listings(update.after, written)
        parts_before, parts = (
            sitemap_parts(catalog, self.settings.feed_max_items) for catalog in (before, update.after)
        )
        if update.after == before or parts != parts_before:
            self.keep_indexed(update.after)
        for change, error in update.rejected:
            self.reject(next(read.event for read in reads if read.change is change), error)
        # A report is moot once its key holds a published upload, or none at all.
        settled = [
            *update.applied,
            *(read.change for read in reads if is_removal(read.change)),
        ]
        retired.error_reports(change.source.key for change in settled)
        published = sum(isinstance(change, EpisodePut) for change in update.applied)
        metrics.add_metric(name="EpisodesPublished", unit=MetricUnit.Count, value=published)
        logger.info("show published", show=show, changes=len(reads), pages=len(written.episodes))

    def gone_since_read(self, before: Catalog, applied: list[Change]) -> set[str]:
        """The keys of the puts in `applied` that add what `before` did not hold, whose uploads are
        gone. Each was read before the show's lease was taken, and the upload's delete may have been
        published since, finding nothing to remove: the put would bring back what was deleted. A put
        that replaces what the catalog holds needs no look, since that delete would have removed it;
        and a delete after the look is published after this publish, under the same lease."""
        added = {change.source.key for change in applied if not is_removal(change) and not before.holds(change.source)}
        return added - self.source.uploads_present(added)

    def fold_into(self, show: str, changes: list[Change], whole: bool = False) -> tuple[HeldCatalog, ShowUpdate]:
        """The show's catalog as read for `changes`, and `changes` folded into it. It is read as
        narrowly as an edit in place may need (`catalog.window`), then wider when that proves too
        narrow: an edit that moves its episode, or a slug sharing its hash with another's. It is
        read `whole` when the lease records pages ahead of it, wherever they are."""
        if whole:
            held = self.catalogs.read(show)
            return held, fold(held.catalog, changes, self.settings)
        for reach in Reach:
            held = self.catalogs.read(show, changes, reach)
            try:
                return held, fold(held.catalog, changes, self.settings)
            except NotLoaded:
                if reach is Reach.TAIL:
                    raise
                logger.info("the frozen pages read did not hold what the changes need; reading more", show=show)
        raise AssertionError("unreachable: the widest reach raises")

    def left_ahead(self, catalog: Catalog, ahead: PagesAhead, before: Catalog) -> Refresh:
        """The files a failed publish may have written ahead of `before`, the whole catalog as
        read, as `catalog` has them."""
        slugs = reach_of(before, ahead.episodes, ahead.every, self.settings.nearby_count)
        logger.warning(
            "a failed publish may have left pages ahead of the catalog; writing them again", pages=len(slugs)
        )
        return set_right(catalog, slugs)

    def page_plans(self, catalog: Catalog, refresh: Refresh, transcripts: UploadedTranscripts) -> Iterator[Plan]:
        """What a publish writes before its commit, in plans to write one after another: the pages
        and chapters files, then the transcripts' files whenever they pass HELD_TRANSCRIPT_FILES,
        each upload they are made from read as it is rendered. A rebuild request holds up to 250
        episodes, and a batch up to 100 uploads."""
        yield page_plan(catalog, refresh, self.settings)
        yield from transcript_plans(catalog, refresh, self.settings, transcripts, HELD_TRANSCRIPT_FILES)

    def write(self, plan: Plan) -> None:
        self.site.apply(plan.puts, plan.deletes)
        self.wrote(plan)

    def wrote(self, plan: Plan) -> None:
        """Count what `plan` wrote, and remember its keys for the next invalidation."""
        self.changed |= {item.key for item in plan.puts} | set(plan.deletes)
        metrics.add_metric(name="PagesWritten", unit=MetricUnit.Count, value=len(plan.puts))

    def write_listings(self, catalog: Catalog, refresh: Refresh) -> None:
        """The show's listings, from the committed catalog, so that a reader never sees a feed list
        an episode whose publish then failed. The feed goes last: while it is current, so are the
        others, which is what `relist_if_behind` relies on."""
        self.write(listing_plan(catalog, refresh, self.settings))
        started = time.perf_counter()
        plan = feed_plan(catalog, refresh, self.settings, KEPT_RUNS)
        self.write(plan)  # the feed and its archive documents are streamed: built as they are written
        if plan.puts:
            milliseconds = (time.perf_counter() - started) * 1000
            metrics.add_metric(name="FeedBuildMs", unit=MetricUnit.Milliseconds, value=round(milliseconds, 1))

    def relist_if_behind(self, catalog: Catalog, slugs: set[str]) -> None:
        """A publish that failed after its commit leaves the listings behind the catalog, and its
        redelivery then folds nothing new. So when nothing is new, the feed is compared with the
        catalog's, and the listings are written again if it differs. The feed does not show an edit
        of an episode past its newest: the listings that show the episodes `slugs` are compared
        too, and those that differ written again."""
        current = self.site.sha256(site_paths.object_key(site_paths.feed(catalog.show)))
        expected = None if catalog.is_empty else streamed_upload.sha256(feed(catalog, self.settings).parts())
        if current != expected:
            logger.warning("listings behind the catalog; writing them again", show=catalog.show)
            whole = self.catalogs.read(catalog.show).catalog
            self.write_listings(whole, all_listings(whole, self.settings.feed_max_items))
            return
        if catalog.is_empty:
            return
        refresh = listings_of(catalog, slugs, self.settings.feed_max_items)
        listings = [*listing_plan(catalog, refresh, self.settings).puts]
        listings += feed_plan(catalog, refresh, self.settings).puts
        if behind := [item for item in listings if self.site.sha256(item.key) != streamed_upload.sha256(item.parts())]:
            logger.warning("listings of the episodes behind the catalog; writing them again", show=catalog.show)
            self.write(Plan(puts=behind))

    def rebuild(self, request: RebuildRequest) -> None:
        """Render again, from the catalog, what `request` names: after a deploy changed the templates,
        every page follows without a single upload read. Under the show's lease, so that no publish
        writes a newer page that this then overwrites with an older one."""
        metrics.add_metric(name="RebuildRequests", unit=MetricUnit.Count, value=1)
        if request.show is None:
            self.write_site_files()
            logger.info("site files rebuilt")
            return
        with self.lease(self.source, request.show) as lease, RetiredObjects(self.source, lease) as retired:
            held = self.catalogs.read(request.show)
            catalog = held.catalog
            if request.listings and not held.cut_for(self.settings.feed_max_items):
                self.catalogs.commit(held, catalog, retired)  # stored as this podpages stores it, after a deploy
            # An episode since removed has its page deleted, as the publish that removed it did.
            refresh = pages_again(catalog, set(request.episodes))
            if lease and lease.inherited:
                refresh |= self.left_ahead(catalog, lease.inherited, catalog)
            for plan in self.page_plans(catalog, refresh, UploadedTranscripts(self.source, [])):
                self.write(plan)
            if lease:
                lease.unsettled = False  # the pages are the catalog's
            if request.listings:
                self.write_listings(catalog, all_listings(catalog, self.settings.feed_max_items))
                self.keep_indexed(catalog)
        logger.info("show rebuilt", show=request.show, pages=len(request.episodes), listings=request.listings)

    def announce(self, news: bool = True) -> None:
        """Once per batch, after every show's commit and listings: one CloudFront invalidation for
        everything written since the last, then, when the batch published uploads (`news`; a
        rebuild's new rendering is none), one notification of what changed on the notify queue.
        A batch that changed nothing, a redelivery among them, announces nothing."""
        changed, self.changed = self.changed, set()
        if self.distribution and changed:
            paths = invalidation_paths(changed)
            self.distribution.invalidate(paths)
            logger.info("cache invalidated", paths=len(paths), objects=len(changed))
        if news and self.notify_queue and (note := notification(changed, self.settings.site_url)):
            try:
                self.notify_queue.send(note)
            except (ClientError, BotoCoreError):  # the site is published; failing now would not bring it back
                logger.exception("notification not queued; those who poll will find the change", pages=len(note.pages))
                metrics.add_metric(name="NotificationsNotQueued", unit=MetricUnit.Count, value=1)
                return
            logger.info("notification queued", feeds=len(note.feeds), pages=len(note.pages))

    def keep_indexed(self, catalog: Catalog) -> None:
        """Make the sitemap index list exactly the show's sitemap parts: all of them while it has
        a catalog, none once it has not.

        A publish runs this after its commit when the show's count of parts changed, and when it
        changed nothing, so that the redelivery of a publish that failed before it heals the index.
        The index changes only over the version read, so two shows changing at once cannot drop
        each other from it.
        """
        feed_max_items = self.settings.feed_max_items
        self.write_site_files(
            catalog.show, sitemap_parts(catalog, feed_max_items), sitemap_files(catalog, feed_max_items)
        )

    def write_site_files(self, show: str | None = None, parts: int = 0, files: int = 0) -> None:
        """Write the site's own files (the sitemap index, robots.txt, the default cover) over the
        version of the index read, with `show` indexed with `parts` sitemap parts; with a show,
        only when its count in the index differs, and then the show's parts it listed past its
        `files` go after it."""
        key = site_paths.object_key(site_paths.SITEMAP_INDEX)
        for _attempt in range(MAX_COMMIT_ATTEMPTS):
            current = self.site.read(key)
            indexed = sitemaps.indexed_parts(current.body, self.settings) if current else {}
            if show is not None and indexed.get(show, 0) == parts:
                return
            # The others' part counts come from the index just read: reading every catalog would make
            # one publish cost as much as the whole site. Each show writes its own count here after
            # its commit, over the version it read, so copying the counts loses none. A new index
            # takes its shows from their catalogs: a show not indexed yet has yet to reach this step,
            # which will set its count over our version; until then it lists its first part.
            if show is not None and current is not None:
                shows = {listed: count for listed, count in (indexed | {show: parts}).items() if count}
            else:
                shows = {listed: indexed.get(listed, 1) for listed in self.source.list_shows()}
                shows |= {show: parts} if show is not None else {}
            plan = site_plan(shows, self.settings)
            if show is not None and current is not None:
                # The other files were written with the index this replaces, and only whether they
                # exist depends on the shows: a show's new sitemap part writes the index alone. The
                # parts it listed past the show's own go once it lists them no more: left by a show
                # since shrunk, or by an earlier podpages that froze its pages sooner.
                gone = [
                    site_paths.object_key(site_paths.show_sitemap(show, part))
                    for part in range(max(parts, files) + 1, indexed.get(show, 0) + 1)
                ]
                plan = Plan(puts=[item for item in plan.puts if item.key == key], deletes=[*plan.deletes, *gone])
            try:
                self.site.replace(key, plan, current.etag if current else None)
            except WriteConflict:
                continue
            self.wrote(plan)
            return
        raise WriteConflict(key)


def ahead_of(changes: Iterable[Change]) -> PagesAhead:
    """Where the pages lie that publishing `changes` may write ahead of the show's catalog."""
    changes = list(changes)
    episodes = frozenset(
        (slug, change.episode.published if isinstance(change, EpisodePut) else None)
        for change in changes
        if (slug := change.source.episode)
    )
    return PagesAhead(episodes, every=any(change.source.episode is None for change in changes))


def correlation_keys(reads: list[Read]) -> dict[str, list[str | None]]:
    """What ties a show's log lines to the uploads behind them: their keys and sequencers."""
    return {"s3_keys": [read.event.key for read in reads], "sequencers": [read.event.sequencer for read in reads]}


def group_by_show(reads: Iterable[Read]) -> dict[str, list[Read]]:
    shows: dict[str, list[Read]] = {}
    for read in reads:
        shows.setdefault(read.change.source.show, []).append(read)
    return shows

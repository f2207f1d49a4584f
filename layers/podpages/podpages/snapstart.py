"""SnapStart's restore hooks: what a function runs when Lambda resumes a copy of it from a snapshot.

The Lambda Python runtime ships `snapshot_restore_py` and runs what it registers after each restore;
anywhere else nothing is ever restored, so registering is a no-op there."""

from collections.abc import Callable


def after_restore(hook: Callable[[], None]) -> None:
    """Run `hook` in each copy Lambda resumes from the function's snapshot."""
    try:
        from snapshot_restore_py import register_after_restore
    except ImportError:  # not on Lambda: no snapshots
        return
    register_after_restore(hook)

"""The C allocator's settings for `podpages render`: keep what the process frees, to use again.

Each run of a render's work allocates its files' bodies and frees them at its end. By default
glibc hands memory freed at the top of its heap, and each large block, straight back to the
system, so the next run faults every page of it in again; on a virtual machine a page fault is
dear. With these settings a render of 10,000 episodes takes 70,000 faults where it took 91,000,
and 3% less CPU (medians of 10 runs, each pair alternated); one of 100,000, 445,000 where it took
584,000, and 0.7 s and 4.6 s less of about 34 s in two pairs of runs, for 22 to 62 MB more at its
peak (636 MB at most). The workers fork with them.
"""

import ctypes

# mallopt's parameters (glibc's malloc.h)
M_TRIM_THRESHOLD = -1
M_TOP_PAD = -2
M_MMAP_THRESHOLD = -3

MMAP_THRESHOLD = 32 << 20  # blocks up to glibc's largest threshold come from the heap, and stay
TRIM_THRESHOLD = 512 << 20  # the heap hands memory back only past this much free at its top
TOP_PAD = 64 << 20  # and grows by this much more than it needs at once


def keep_freed_memory() -> None:
    """Have glibc keep freed memory for the process's next allocations. A C library without
    `mallopt` (macOS) is left as it is; musl's takes the settings and ignores them."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError, TypeError):  # no C library to name, or no mallopt in it
        return
    mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD)
    mallopt(M_TOP_PAD, TOP_PAD)

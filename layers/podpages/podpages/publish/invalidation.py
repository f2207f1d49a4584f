"""Which CloudFront paths to invalidate after a batch changed these site objects.

CloudFront caches a page under the URI its viewer-request function rewrote, `/<show>/<episode>/index.html`,
so each object's key, with a leading slash, is its path. Past `MAX_PATHS`, a show's paths collapse
into one wildcard: CloudFront charges by the path, and a wildcard counts as one.
"""

MAX_PATHS = 100


def invalidation_paths(keys: set[str], max_paths: int = MAX_PATHS) -> list[str]:
    paths = sorted(f"/{key}" for key in keys)
    if len(paths) <= max_paths:
        return paths
    shows = sorted({key.split("/", 1)[0] for key in keys if "/" in key})
    return sorted({*(f"/{show}/*" for show in shows), *(f"/{key}" for key in keys if "/" not in key)})

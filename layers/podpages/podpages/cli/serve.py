"""`podpages serve`: the local CDN and API on their own, over the local stack's buckets or a
deployed stack's."""

from collections.abc import Callable

from podpages.cli.targets import Target
from podpages.local.cdn import LocalCdn
from podpages.local.functions import load_functions


def serve(
    target: Target,
    host: str,
    port: int,
    profile: str | None = None,
    region: str | None = None,
    say: Callable[[str], None] = print,
) -> int:
    if not target.site_bucket:
        raise ValueError("name the site bucket (--site-bucket), or a stack whose outputs name it (--stack)")
    site_url = f"http://{host}:{port}"
    if target.endpoint:
        from podpages.local.aws import local_environment

        aws = local_environment(target.endpoint)
    else:
        aws = {name: value for name, value in (("AWS_PROFILE", profile), ("AWS_DEFAULT_REGION", region)) if value}
    buckets = {"SOURCE_BUCKET": target.source_bucket, "SITE_BUCKET": target.site_bucket}
    nearby = load_functions(site_url, aws, buckets, names=("NearbyFunction",))["NearbyFunction"]
    cdn = LocalCdn((host, port), target.s3, target.site_bucket, nearby)
    say(f"serving {target.label} at {site_url} (Ctrl-C stops)")
    try:
        cdn.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        cdn.server_close()
    return 0

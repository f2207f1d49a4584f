"""The S3 adapter: the buckets, their conditional writes, and the error reports beside uploads.

The only code that says `put_object` to the buckets. Publish, rebuild, the nearby API and the
CLI all use it, so it sits below them; the nearby function imports `storage.source_bucket` alone.
"""

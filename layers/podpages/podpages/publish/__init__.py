"""The render function's work: S3 upload events in (`upload_events`), each show's batch folded,
written and committed under its lease (`publisher`, `show_lease`), CloudFront told what changed
(`invalidation`). `render_function` is where a Lambda event enters.
"""

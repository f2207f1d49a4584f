"""Rebuilds: every page rendered again from the catalogs, after a template or code change.

`request` is the message on the rebuild queue, `queue` sends them, and `deploy` is the
CloudFormation custom resource that queues a rebuild when a deploy changes what pages are made of.
"""

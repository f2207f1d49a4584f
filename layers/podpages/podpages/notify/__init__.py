"""Telling the world: what a batch changed (`notification`), and sending it to WebSub hubs,
feed-change ping endpoints and IndexNow (`sender`), with timeouts, retries and no effect on the
publish itself."""

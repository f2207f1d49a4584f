"""moto's server in a process of its own, for the benchmarks that time the render function.

In the bench's own process, moto's server shares the function's CPU time: a publish's work on the
S3 client's threads (the feed is built as it is sent) could then be told from moto's only by timing
the function's one thread, which leaves that work out. With moto apart, the function's CPU is this
process's, as on Lambda, where S3 runs on other machines.
"""

import subprocess
import sys
import time
from urllib.error import URLError
from urllib.request import urlopen

from podpages.local.aws import LOOPBACK, LocalAws

# The server, as `LocalAws` starts it in-process, with its speed-up of moto's module lookups.
SERVER = """
import sys, threading, logging
import podpages.local.aws
from moto.server import ThreadedMotoServer
logging.getLogger("werkzeug").setLevel(logging.WARNING)
ThreadedMotoServer(ip_address=sys.argv[1], port=int(sys.argv[2]), verbose=False).start()
threading.Event().wait()
"""
STARTUP_S = 30


class SeparateAws(LocalAws):
    def __enter__(self) -> "SeparateAws":
        self.process = subprocess.Popen([sys.executable, "-c", SERVER, LOOPBACK, str(self.port)])
        deadline = time.monotonic() + STARTUP_S
        while True:
            try:
                urlopen(f"{self.endpoint}/moto-api/", timeout=1).close()
                return self
            except URLError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.process.kill()
                    raise RuntimeError(f"moto's server did not start on {self.endpoint}") from None
                time.sleep(0.1)

    def __exit__(self, *exc_info: object) -> None:
        self.process.kill()
        self.process.wait()

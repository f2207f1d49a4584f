"""A clock the test moves by hand, standing in for time.monotonic or time.time, and for sleep."""


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds

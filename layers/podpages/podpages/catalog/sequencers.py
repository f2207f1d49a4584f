"""S3 `sequencer` values: which of two events on one key happened later, so that a late or
repeated event never undoes a newer one."""


def is_later(event: str | None, applied: str | None) -> bool:
    """True when an event with sequencer `event` should replace the state `applied` left.

    Sequencers are hex strings of varying length: S3 says to left-pad with zeros and compare,
    which is comparing them as numbers. Without a sequencer on either side there is no
    order to keep, and the event applies.
    """
    if event is None or applied is None:
        return True
    return int(event, 16) > int(applied, 16)

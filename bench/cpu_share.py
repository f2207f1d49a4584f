"""A share of one CPU for a process and its children, as Lambda gives a function by its memory: one
vCPU at 1,769 MB, so 0.58 of one to the render function's 1,024 MB.

The share is a Linux control group's CPU quota: a cgroup v1 `cpu` hierarchy (`cpu.cfs_quota_us`)
or cgroup v2 (`cpu.max`). Making one takes root, and a machine may offer neither; then there is no
share, and the figure that needs it is reported as not measured.
"""

import contextlib
from pathlib import Path

LAMBDA_VCPU_MB = 1769  # a function of this much memory gets one vCPU; less gets its share
PERIOD_US = 100_000
GROUP = "podpages-bench"


def lambda_share(memory_mb: int) -> float:
    """The share of one vCPU a Lambda function of `memory_mb` gets."""
    return min(1.0, memory_mb / LAMBDA_VCPU_MB)


def cpu_group(share: float) -> Path | None:
    """The `cgroup.procs` file of a control group whose processes get `share` of one CPU between
    them; None when this machine will not make one."""
    quota = round(share * PERIOD_US)
    v1, v2 = Path("/sys/fs/cgroup/cpu"), Path("/sys/fs/cgroup")
    with contextlib.suppress(OSError):
        if (v1 / "cpu.cfs_quota_us").exists():
            group = v1 / GROUP
            group.mkdir(exist_ok=True)
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
            return group / "cgroup.procs"
        if "cpu" in (v2 / "cgroup.subtree_control").read_text().split():
            group = v2 / GROUP
            group.mkdir(exist_ok=True)
            (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
            return group / "cgroup.procs"
    return None


def within(procs: Path, command: list[str]) -> list[str]:
    """`command`, run by a shell that first joins the group: its children are in it from their start."""
    return ["sh", "-c", f'echo $$ > {procs} && exec "$@"', "sh", *command]

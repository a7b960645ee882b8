"""What platform a system label stands for (xen, kvm, native, ...), from the label and
the post's own legend lines (`kvm.rtl: (KVM with emulated RTL8029)`)."""

from __future__ import annotations

import re

_NATIVE = re.compile(r"\b(dom0|native|bare[ -]?metal|baremetal|host|non-?virtuali[sz]ed|no virtuali[sz]ation)\b", re.I)
_GUESTISH = re.compile(r"\b(domu|guest|hvm|vm|virtual machine)\b", re.I)
_HYPERVISORS = (
    ("xen", re.compile(r"xen|\bdomu\b|\bhvm\b", re.I)),
    ("kvm", re.compile(r"\bkvm|luvalley", re.I)),
    ("lguest", re.compile(r"lguest", re.I)),
    ("vmware", re.compile(r"vmware|\besxi?\b", re.I)),
    ("virtualbox", re.compile(r"virtualbox|\bvbox\b", re.I)),
    ("qemu", re.compile(r"\bqemu\b", re.I)),
    ("uml", re.compile(r"\buml\b|user[ -]mode linux", re.I)),
)
_PLAIN_LINUX = re.compile(r"(^|\s)linux\s+\d", re.I)
_LEGEND = re.compile(r"^\s*([A-Za-z0-9][\w.+/-]{0,40})\s*[:=]\s+(\S.{2,160})$")


def classify(label: str | None, description: str | None = None) -> str | None:
    """`native`, a hypervisor name, or None when neither the label nor its legend says."""
    text = " ".join(t for t in (label, description) if t)
    if not text:
        return None
    if _NATIVE.search(text) and not _GUESTISH.search(text):
        return "native"
    for name, pat in _HYPERVISORS:
        if pat.search(text):
            return name
    if label and _PLAIN_LINUX.search(label):
        return "native"  # an lmbench OS column that names plain Linux beside a hypervisor's
    return None


def legend(body: str, labels: set[str]) -> dict[str, str]:
    """`label: description` lines of the post for the given labels (first one wins)."""
    out: dict[str, str] = {}
    short = {lbl.split()[0]: lbl for lbl in labels if lbl}
    for line in body.splitlines():
        if ":" not in line and "=" not in line:
            continue
        m = _LEGEND.match(line)
        if not m:
            continue
        key = m.group(1)
        target = key if key in labels else short.get(key)
        if target and target not in out:
            out[target] = m.group(2).strip()
    return out

#!/usr/bin/python3
"""The named scheme variants of the sweeps: the one place that defines them.

A variant is a congestion control (--cc) plus the simulator arguments that set it up; the same
arguments work for examples/dcon-large-scale and examples/dcon-testbed. large_sweep.py,
burst_sweep.py and testbed_readings.py take variants by name; the run directory names contain
the name, the plots use the label.

  dcon, dcqcn, swift, pcn   the schemes with their defaults (DCON as the paper writes it:
                            Algorithm 1 sender, CNM sets the rate only, T_last stamped by data
                            packets, N counts the flows of the last T, dynamic Q_CNM from the
                            live fan-out, Q_ECN 5 KB; DCQCN: RED 5/200 KB, 1%)
  dcon-q0.4, dcon-q0.6      fixed Q_CNM = 40% / 60% of the PFC threshold (Fig. 11)
  dcon-T2, dcon-T4          CNM window T = 2 / 4 base RTTs (Fig. 12; the default is 3)
  dcon-dcqcnsender[-q0.4|-q0.6|-T2|-T4]
                            the same with DCQCN's sender (the alternative reading of Algorithm 1)
  dcon-dcqcnsender ..       one DCON design choice at a time switched back to the older
  dcon-qecn40               reading (sensitivity); dcon-old: all of them at once
  dcon-cnmlowers            DCON whose CNMs only ever lower a rate (line 2 literally sets it to C/N,
                            which raises a flow already below C/N)
  dcon-markinburst          DCON without the latch: ECN marking goes on in burst congestion
                            (not a reading of the paper, which stops it; shows what the latch does)
  dcon-dcqcnsender-m1       DCQCN's sender with M = 1 (Q_CNM = Q_PFC) / without the latch: what the
  dcon-dcqcnsender-markinburst   dynamic Q_CNM and the latch do under the alternative reading
  dcqcn-step                DCQCN with step marking at 200 KB (Kmin = Kmax, Pmax 1)
  swift-*                   Swift with another base target delay and/or a line-rate first window

Any other --cc name the simulator knows (scripts/cc_names.py asks the binary's --list-cc) is a
variant too: that algorithm with its defaults, e.g. "dctcp" = ["--cc=dctcp"], labelled with the
first part of its summary. So a new algorithm needs no edit here.
"""
import collections
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cc_names  # noqa: E402

Variant = collections.namedtuple("Variant", "label args")

_DCQCN_SENDER = ["--cc=dcon", "--ns3::RdmaDcon::Sender=Dcqcn",
                 "--ns3::RdmaDcon::CnmSetsTargetRate=true"]
# every earlier reading at once: DCQCN's sender plus the switch-side ones
_DCON_OLD = _DCQCN_SENDER + ["--ns3::DconCnmGenerator::ControlStampsTlast=true",
                             "--ns3::DconQueueDisc::FlowCount=Queued", "--qcnmFanOut=1",
                             "--qecn=200KB"]
_SWIFT_T25 = "--ns3::RdmaSwift::BaseTarget=25us"
_SWIFT_T100 = "--ns3::RdmaSwift::BaseTarget=100us"
_SWIFT_LINE = "--ns3::RdmaSwift::InitialCwnd=256"

VARIANTS = collections.OrderedDict([
    ("dcon", Variant("DCON", ["--cc=dcon"])),
    ("dcqcn", Variant("DCQCN", ["--cc=dcqcn"])),
    ("swift", Variant("Swift", ["--cc=swift"])),
    ("pcn", Variant("PCN", ["--cc=pcn"])),
    ("dcon-q0.4", Variant("DCON, Q_CNM 40% of PFC thr.", ["--cc=dcon", "--qcnmFraction=0.4"])),
    ("dcon-q0.6", Variant("DCON, Q_CNM 60% of PFC thr.", ["--cc=dcon", "--qcnmFraction=0.6"])),
    ("dcon-T2", Variant("DCON, T = 2 RTT", ["--cc=dcon", "--cnmWindowRtts=2"])),
    ("dcon-T4", Variant("DCON, T = 4 RTT", ["--cc=dcon", "--cnmWindowRtts=4"])),
    ("dcon-dcqcnsender", Variant("DCON, DCQCN-based sender, CNM sets target", _DCQCN_SENDER)),
    ("dcon-dcqcnsender-q0.4", Variant("DCON, DCQCN sender, Q_CNM 40% of PFC thr.",
                                      _DCQCN_SENDER + ["--qcnmFraction=0.4"])),
    ("dcon-dcqcnsender-q0.6", Variant("DCON, DCQCN sender, Q_CNM 60% of PFC thr.",
                                      _DCQCN_SENDER + ["--qcnmFraction=0.6"])),
    ("dcon-dcqcnsender-T2", Variant("DCON, DCQCN sender, T = 2 RTT",
                                    _DCQCN_SENDER + ["--cnmWindowRtts=2"])),
    ("dcon-dcqcnsender-T4", Variant("DCON, DCQCN sender, T = 4 RTT",
                                    _DCQCN_SENDER + ["--cnmWindowRtts=4"])),
    ("dcon-settarget", Variant("DCON, CNM sets target rate",
                               ["--cc=dcon", "--ns3::RdmaDcon::CnmSetsTargetRate=true"])),
    ("dcon-ctrlstamp", Variant("DCON, control packets stamp T_last",
                               ["--cc=dcon", "--ns3::DconCnmGenerator::ControlStampsTlast=true"])),
    ("dcon-nqueued", Variant("DCON, N = queued flows",
                             ["--cc=dcon", "--ns3::DconQueueDisc::FlowCount=Queued"])),
    ("dcon-m1", Variant("DCON, fan-out M = 1", ["--cc=dcon", "--qcnmFanOut=1"])),
    ("dcon-qecn40", Variant("DCON, Q_ECN 40 KB", ["--cc=dcon", "--qecn=40KB"])),
    ("dcon-cnmlowers", Variant("DCON, a CNM only lowers the rate",
                               ["--cc=dcon", "--ns3::RdmaDcon::CnmRaisesRate=false"])),
    ("dcon-markinburst", Variant("DCON, ECN marking in burst congestion too",
                                 ["--cc=dcon", "--dconMarkInBurst=true"])),
    ("dcon-dcqcnsender-m1", Variant("DCON, DCQCN sender, fan-out M = 1",
                                    _DCQCN_SENDER + ["--qcnmFanOut=1"])),
    ("dcon-dcqcnsender-markinburst", Variant("DCON, DCQCN sender, ECN marking in burst too",
                                             _DCQCN_SENDER + ["--dconMarkInBurst=true"])),
    ("dcon-old", Variant("DCON, all older readings, Q_ECN 200 KB",
                         _DCON_OLD)),
    ("dcqcn-step", Variant("DCQCN, step ECN at 200 KB",
                           ["--cc=dcqcn", "--kmin=200KB", "--kmax=200KB", "--pmax=1"])),
    ("swift-t25", Variant("Swift, target 25 us", ["--cc=swift", _SWIFT_T25])),
    ("swift-t100", Variant("Swift, target 100 us", ["--cc=swift", _SWIFT_T100])),
    ("swift-line", Variant("Swift, line-rate first window", ["--cc=swift", _SWIFT_LINE])),
    ("swift-t25-line", Variant("Swift, target 25 us, line-rate first window",
                               ["--cc=swift", _SWIFT_T25, _SWIFT_LINE])),
    ("swift-t100-line", Variant("Swift, target 100 us, line-rate first window",
                                ["--cc=swift", _SWIFT_T100, _SWIFT_LINE])),
])
NAMES = list(VARIANTS)


class VariantError(ValueError):
    """An unknown variant name; the message names it and lists the known ones."""


def _registered_ccs():
    """The --cc names of the simulator ([] when it cannot be asked: not built yet)."""
    try:
        return cc_names.names()
    except cc_names.CcListError:
        return []


def _cc_variant(name):
    """The plain variant of a registered --cc name (None if the simulator does not know it)."""
    summary = cc_names.summary(name) if name in _registered_ccs() else None
    if summary is None:
        return None
    return Variant(summary.split(" (")[0].split(":")[0], ["--cc=" + name])


def get(name):
    """The Variant of a name (a named variant, or a --cc the simulator knows with its defaults);
    VariantError naming it otherwise."""
    if name in VARIANTS:
        return VARIANTS[name]
    v = _cc_variant(name)
    if v is None:
        extra = [c for c in _registered_ccs() if c not in VARIANTS]
        raise VariantError(f"unknown variant {name!r} (known: {', '.join(NAMES + extra)})")
    return v


def args(name):
    """The simulator arguments of a variant (a new list)."""
    return list(get(name).args)


def label(name):
    """The plot label of a variant (the name itself when unknown)."""
    if name in VARIANTS:
        return VARIANTS[name].label
    v = _cc_variant(name)
    return v.label if v else name


# Plot colours: the four schemes always in these, the other variants in order from OTHER_COLORS.
FIXED_COLORS = {"dcon": "tab:red", "dcqcn": "tab:blue", "swift": "tab:green",
                "pcn": "tab:orange"}
OTHER_COLORS = ["tab:purple", "tab:brown", "tab:pink", "tab:gray", "tab:olive", "tab:cyan",
                "gold", "navy", "teal", "lime", "black", "maroon"]


def colors(names):
    """{variant: matplotlib colour} for the variants of one plot."""
    out, i = {}, 0
    for v in names:
        if v in FIXED_COLORS:
            out[v] = FIXED_COLORS[v]
        else:
            out[v] = OTHER_COLORS[i % len(OTHER_COLORS)]
            i += 1
    return out


def cc(name):
    """The --cc value of a variant."""
    for a in get(name).args:
        if a.startswith("--cc="):
            return a[len("--cc="):]
    raise VariantError(f"variant {name!r} has no --cc argument")

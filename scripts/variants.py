"""The named scheme variants of the sweeps: the one place that defines them.

A variant is a congestion control (--cc) plus the simulator arguments that set it up; the same
arguments work for examples/dcon-large-scale and examples/dcon-testbed. large_sweep.py,
burst_sweep.py and testbed_readings.py take variants by name; the run directory names contain
the name, the plots use the label.

  dcon, dcqcn, swift, pcn   the schemes with their defaults (DCON read with the paper's text:
                            Algorithm 1 with the additive increase of its "AIMD" (R_AI 40 Mb/s
                            per unmarked CNP), a CNM sets rate and target to C/N and only
                            lowers, T_last per (ingress, egress), N counts the flows of the last
                            T, dynamic Q_CNM from the live fan-out; Q_ECN 5 KB (the testbed:
                            200 KB); DCQCN: RED 5/200 KB, 1%)
  dcon-q0.4, dcon-q0.6      fixed Q_CNM = 40% / 60% of the PFC threshold (Fig. 11)
  dcon-T2, dcon-T4          CNM window T = 2 / 4 base RTTs (Fig. 12; the default is 3)
  dcon-listing              Algorithm 1's listing as written: no additive increase
  dcon-raises               a CNM above the current rate raises it to C/N (line 2 as an assignment)
  dcon-cnmrateonly          a CNM sets the sending rate only, not the target
  dcon-tlastport            T_last per ingress port, stamped by the congested flows' own packets
  dcon-hyper                DCQCN's hyper increase (400 Mb/s) after 5 unmarked CNPs in a row
  dcon-m1, dcon-m2          M fixed at 1 (Q_CNM = Q_PFC) / 2 (the testbed's P1/L2) for every port
  dcon-mdesign, dcon-mqecn  M = the ingress port's design fan-out (routing) / the live fan-out
                            counting only queues at or above Q_ECN
  dcon-dynpfc[-m2]          dynamic PFC thresholds (alpha 1/8 of the free shared buffer)
                            [with M = 2]; dcqcn-dynpfc: DCQCN with them
  dcon-qecn5, dcon-qecn40   Q_ECN 5 KB (the testbed's alternative) / 40 KB
  dcon-nqueued, dcon-ctrlstamp, dcon-markinburst
                            N = queued flows / ACKs and CNPs stamp T_last / no latch (ECN marking
                            goes on in burst congestion)
  dcon-dcqcnsender          DCQCN's sender (timers, byte counter) plus the CNM reaction
  dcon-prev                 DCON as this module ran it before the text's reading (listing
                            sender, CNM sets the rate only and may raise it, T_last per port)
  dcon-old                  the module's first readings: DCQCN's sender, CNM sets the target and
                            may raise, ACKs stamp T_last per port, N = queued, M = 1, Q_ECN 200 KB
  dcqcn-step                DCQCN with step marking at 200 KB (Kmin = Kmax, Pmax 1)
  swift-*                   Swift with another base target delay and/or a line-rate first window

Any other --cc name the simulator knows (scripts/cc_names.py asks the binary's --list-cc) is a
variant too: that algorithm with its defaults, e.g. "dctcp" = ["--cc=dctcp"], labelled with the
first part of its summary. So a new algorithm needs no edit here.
"""
import collections

from . import cc_names

Variant = collections.namedtuple("Variant", "label args")

_DCON = ["--cc=dcon"]
_DCQCN_SENDER = _DCON + ["--ns3::RdmaDcon::Sender=Dcqcn"]
_LISTING = "--ns3::RdmaDcon::UnmarkedCnpIncrease=0bps"
_RAISES = "--ns3::RdmaDcon::CnmRaisesRate=true"
_RATE_ONLY = "--ns3::RdmaDcon::CnmSetsTargetRate=false"
_TLAST_PORT = "--ns3::DconIngressTracker::Scope=Port"
# the module's DCON before the text's reading (issue 19): the listing, a CNM that sets the rate
# only and may raise it, T_last per ingress port
_DCON_PREV = _DCON + [_LISTING, _RAISES, _RATE_ONLY, _TLAST_PORT]
# the module's first readings, all at once: DCQCN's sender plus the switch-side ones
_DCON_OLD = _DCQCN_SENDER + [_RAISES, _TLAST_PORT,
                             "--ns3::DconCnmGenerator::ControlStampsTlast=true",
                             "--ns3::DconQueueDisc::FlowCount=Queued", "--qcnmFanOut=1",
                             "--qecn=200KB"]
_DYNPFC = "--pfcThreshold=dynamic"
_SWIFT_T100 = "--ns3::RdmaSwift::BaseTarget=100us"
_SWIFT_LINE = "--ns3::RdmaSwift::InitialCwnd=256"

VARIANTS = collections.OrderedDict([
    ("dcon", Variant("DCON", _DCON)),
    ("dcqcn", Variant("DCQCN", ["--cc=dcqcn"])),
    ("swift", Variant("Swift", ["--cc=swift"])),
    ("pcn", Variant("PCN", ["--cc=pcn"])),
    ("dcon-q0.4", Variant("DCON, Q_CNM 40% of PFC thr.", _DCON + ["--qcnmFraction=0.4"])),
    ("dcon-q0.6", Variant("DCON, Q_CNM 60% of PFC thr.", _DCON + ["--qcnmFraction=0.6"])),
    ("dcon-T2", Variant("DCON, T = 2 RTT", _DCON + ["--cnmWindowRtts=2"])),
    ("dcon-T4", Variant("DCON, T = 4 RTT", _DCON + ["--cnmWindowRtts=4"])),
    ("dcon-listing", Variant("DCON, Algorithm 1 as listed (no increase)", _DCON + [_LISTING])),
    ("dcon-raises", Variant("DCON, a CNM may raise the rate", _DCON + [_RAISES])),
    ("dcon-cnmrateonly", Variant("DCON, a CNM sets the rate only", _DCON + [_RATE_ONLY])),
    ("dcon-tlastport", Variant("DCON, T_last per ingress port", _DCON + [_TLAST_PORT])),
    ("dcon-hyper", Variant("DCON, hyper increase 400 Mb/s after 5",
                           _DCON + ["--ns3::RdmaDcon::UnmarkedCnpHyperIncrease=400Mbps"])),
    ("dcon-m1", Variant("DCON, fan-out M = 1", _DCON + ["--qcnmFanOut=1"])),
    ("dcon-m2", Variant("DCON, fan-out M = 2", _DCON + ["--qcnmFanOut=2"])),
    ("dcon-mdesign", Variant("DCON, M = design fan-out", _DCON + ["--qcnmFanOutMode=design"])),
    ("dcon-mqecn", Variant("DCON, M = live fan-out of queues >= Q_ECN",
                           _DCON + ["--qcnmFanOutMode=aboveQecn"])),
    ("dcon-dynpfc", Variant("DCON, dynamic PFC thresholds", _DCON + [_DYNPFC])),
    ("dcon-dynpfc-m2", Variant("DCON, dynamic PFC thresholds, M = 2",
                               _DCON + [_DYNPFC, "--qcnmFanOut=2"])),
    ("dcqcn-dynpfc", Variant("DCQCN, dynamic PFC thresholds", ["--cc=dcqcn", _DYNPFC])),
    ("dcon-qecn5", Variant("DCON, Q_ECN 5 KB", _DCON + ["--qecn=5KB"])),
    ("dcon-qecn40", Variant("DCON, Q_ECN 40 KB", _DCON + ["--qecn=40KB"])),
    ("dcon-nqueued", Variant("DCON, N = queued flows",
                             _DCON + ["--ns3::DconQueueDisc::FlowCount=Queued"])),
    ("dcon-ctrlstamp", Variant("DCON, control packets stamp T_last",
                               _DCON + ["--ns3::DconCnmGenerator::ControlStampsTlast=true"])),
    ("dcon-markinburst", Variant("DCON, ECN marking in burst congestion too",
                                 _DCON + ["--dconMarkInBurst=true"])),
    ("dcon-dcqcnsender", Variant("DCON, DCQCN's sender", _DCQCN_SENDER)),
    ("dcon-prev", Variant("DCON as run before the text's reading", _DCON_PREV)),
    ("dcon-old", Variant("DCON, the module's first readings, Q_ECN 200 KB", _DCON_OLD)),
    ("dcqcn-step", Variant("DCQCN, step ECN at 200 KB",
                           ["--cc=dcqcn", "--kmin=200KB", "--kmax=200KB", "--pmax=1"])),
    ("swift-t100", Variant("Swift, target 100 us", ["--cc=swift", _SWIFT_T100])),
    ("swift-line", Variant("Swift, line-rate first window", ["--cc=swift", _SWIFT_LINE])),
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

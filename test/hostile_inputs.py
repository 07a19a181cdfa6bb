#!/usr/bin/python3
"""Hostile command lines against dcon's six programs (issue 20).

Every case must end in one of two ways:
  error    exit status 1 or 2 and a message on stderr matching the case's pattern (which names
           the value given), no file of a run left behind;
  effect   exit status 0 and the effect the case names: an output that differs from the run
           without the argument (the argument took effect), or a property of the output files;
never with a signal (abort, segmentation fault), a hang (each run has a time limit) or a silent
acceptance. The cases are grouped by the issue's seven classes:
  1 attributes take effect or are refused     5 no lost or mislabelled data
  2 no abort or crash on any value            6 errors name the problem
  3 values are read whole                     7 documented limits enforced
  4 nothing wraps
and by the classes of the third round (issue 29), named:
  empty    a reading over an empty window or without samples is "not measured" (null, with the
           reason) and a fact that depends on it is neither held nor failed
  late     anything that can refuse a run is checked before it starts (--dryRun stops there);
           a step that cannot apply is not applied
  unread   an attribute the algorithm, in its mode, does not read is refused, naming the mode
           that reads it
  default  every option of every program accepts its own default as --help shows it (the cases
           are made from --help)
  message  messages name the user's option and value (the lowest rate that works, a line's
           invisible bytes escaped, the system's reason of a failed write)
  folder   no file of another program's run is left beside a run's files
(the null-message engine's repeatability is test/mpi-tests.sh's case repeat).

  /usr/bin/python3 test/hostile_inputs.py --bin build/examples              # every case
  /usr/bin/python3 test/hostile_inputs.py --bin build/examples --program dcon-bench --class 1
  /usr/bin/python3 test/hostile_inputs.py --list                            # the cases only
Exit status 0: every selected case behaved; 1: a case did not (each is printed); 2: bad usage.
"""
import argparse
import csv
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PROGRAMS = ["dcon-testbed", "dcon-large-scale", "dcon-bench", "dcon-ibcc-share",
            "dcon-rttpid-incast", "dcon-floor-bench", "dcon-collectives"]
# The classes of issue 29 (the third round), by name; issue 20's are 1 to 7.
ROUND3 = ["empty", "late", "unread", "default", "message", "folder"]
CLASSES = [str(c) for c in range(1, 8)] + ROUND3
TIMEOUT = 120

# Short runs of each program (a few seconds at most on a busy 2-core machine).
SHORT = {
    "dcon-testbed": ["--burstStart=1ms", "--stopTime=3ms", "--burstFlowsPerHost=2",
                     "--sampleInterval=100us"],
    "dcon-large-scale": ["--scale=tiny", "--duration=1ms"],
    "dcon-bench": ["--topo={topo}", "--flows={flows}"],
    "dcon-ibcc-share": ["--ns=2", "--duration=4", "--phase=4", "--tenantFlows=1"],
    "dcon-rttpid-incast": ["--scale=0.01"],
    "dcon-floor-bench": ["--frameHops=2000", "--inFlight=100", "--nodes=20"],
    "dcon-collectives": ["--spines=2", "--leaves=2", "--hostsPerLeaf=2", "--size=64KB"],
}


class Case:
    """One command line and what it must do."""

    def __init__(self, program, cls, args, error=None, effect=None, base=None, differs=None,
                 check=None, short=True, stdout=None, same=None, before=None, fsize=None,
                 no_output=False):
        self.program = program
        self.cls = str(cls)
        self.args = args
        self.error = error        # regex the error message must match
        self.base = base          # for "differs": the arguments without the one under test
        self.differs = differs    # the output file that must differ from the base run's
        self.same = same          # the output file that must equal the base run's (the value
                                  # given is the one the program would set itself)
        self.check = check        # f(outdir, stdout) -> problem or None
        self.short = short        # prepend SHORT[program] (outputs in {out} if it has --outdir)
        self.stdout = stdout      # regex stdout must match (effect cases)
        self.before = before      # [(program, args)] run first, in the case's folder (their
                                  # outputs in {out}, the SHORT arguments prepended)
        self.fsize = fsize        # a file size limit (bytes, RLIMIT_FSIZE): writes beyond fail
        self.no_output = no_output  # {out} must not exist afterwards (a dry run writes nothing)

    def name(self):
        return f"{self.program} [{self.cls}] {' '.join(self.args)}"


def json_field(path, key):
    with open(path) as f:
        return json.load(f).get(key)


def expect_json(name, key, value):
    def check(out, _stdout):
        got = json_field(os.path.join(out, name), key)
        return None if got == value else f"{name}: {key} is {got!r}, expected {value!r}"
    return check


def expect_keys(name, keys):
    def check(out, _stdout):
        with open(os.path.join(out, name)) as f:
            got = json.load(f)
        missing = [k for k in keys if got.get(k) in (None, "", [])]
        return f"{name}: no {', '.join(missing)}" if missing else None
    return check


def expect_files(present=(), absent=()):
    def check(out, _stdout):
        for f in present:
            if not os.path.exists(os.path.join(out, f)):
                return f"{f} missing in the output folder"
        for f in absent:
            if os.path.exists(os.path.join(out, f)):
                return f"{f} left in the output folder"
        return None
    return check


def all_of(*checks):
    def check(out, stdout):
        for c in checks:
            problem = c(out, stdout)
            if problem:
                return problem
        return None
    for c in checks:  # (files a check needs planted: stale)
        if hasattr(c, "plant"):
            check.plant = c.plant
    return check


def expect_not_measured(name, keys):
    """Each key of JSON file `name` is null (not measured) and, when the file lists the reasons
    ("not_measured"), has one."""
    def check(out, _stdout):
        with open(os.path.join(out, name)) as f:
            got = json.load(f)
        for k in keys:
            if got.get(k, "absent") is not None:
                return f"{name}: {k} is {got.get(k, 'absent')!r}, expected null (not measured)"
            if "not_measured" in got and not got["not_measured"].get(k):
                return f"{name}: no reason why {k} was not measured"
        return None
    return check


def expect_unjudged(*facts):
    """facts.json: the facts named (all with "throughput" when none is named: those comparing a
    reading of f0 or f1) have "holds": null and a reason; no fact comparing a null reading is
    held or failed."""
    def check(out, _stdout):
        with open(os.path.join(out, "facts.json")) as f:
            got = json.load(f)
        for x in got["facts"]:
            unmeasured = x["value"] is None or x["threshold"] is None
            if unmeasured and x["holds"] is not None:
                return f"fact {x['fact']!r} compares a reading not measured but holds={x['holds']}"
            if x["fact"] in facts and (x["holds"] is not None or not x.get("not_judged")):
                return f"fact {x['fact']!r}: holds={x['holds']!r}, expected null with a reason"
        return None
    return check


def expect_no_foreign(out, stdout):
    """A run's report of its folder: no entry of another program's run left (every file in it
    is of a kind dcon's programs write)."""
    m = re.search(r"also holds (\d+) entr", stdout)
    return f"the folder still holds files no program claims: {stdout.strip()[-300:]}" if m else None


def stale(files):
    """A check that first needs `files` planted in the output folder (see run_case)."""
    def check(out, stdout):
        return None
    check.plant = files if isinstance(files, dict) else {f: "an earlier run\n" for f in files}
    return check


# The cases. {tmp} is the case's own folder, {out} its output folder, {topo}/{flows} a tiny
# incast in HPCC format (4 hosts on one switch, 3 flows of 2 MB to host 3), the other fixtures
# are made by make_fixtures().
CASES = [
    # ---------------------------------------------------------------- 1: attributes
    Case("dcon-testbed", 1, ["--ns3::SwitchMmu::Headroom=1MB"], error=r"Headroom.*sets"),
    Case("dcon-testbed", 1, ["--ns3::RdmaNic::CongestionControl=ns3::RdmaDcon"],
         error=r"CongestionControl.*use --cc"),
    Case("dcon-testbed", 1, ["--cc=dcqcn", "--qecn=100KB"],
         error=r"--qecn is not used by this run.*--cc=dcon"),
    Case("dcon-testbed", 1, ["--cc=dcon", "--kmin=50KB"],
         error=r"--kmin is not used by this run.*dcqcn"),
    Case("dcon-testbed", 1, ["--cc=dcqcn", "--ns3::RdmaHpcc::MaxStage=3"],
         error=r"RdmaHpcc::MaxStage=3 is not used.*--cc=hpcc"),
    Case("dcon-testbed", 1, ["--cc=dcqcn", "--ns3::RdmaDcqcn::G=0.5", "--outdir={out}"],
         base=["--cc=dcqcn", "--outdir={out}"], differs="throughput.csv"),
    Case("dcon-large-scale", 1, ["--ns3::SwitchMmu::Headroom=1MB"], error=r"Headroom"),
    Case("dcon-large-scale", 1, ["--cc=pcn", "--pmax=0.5"],
         error=r"--pmax is not used.*RedEcnQueueDisc"),
    Case("dcon-large-scale", 1, ["--cc=dcqcn", "--cnmWindowRtts=2"],
         error=r"--cnmWindowRtts is not used.*DconQueueDisc"),
    Case("dcon-large-scale", 1, ["--pfcAlpha=0.5"],
         error=r"--pfcAlpha applies to --pfcThreshold=dynamic only"),
    Case("dcon-large-scale", 1, ["--pfcThreshold=dynamic", "--xoff=200KB"],
         error=r"--xoff applies to --pfcThreshold=static only"),
    Case("dcon-testbed", 1, ["--cc=dcon", "--qcnmFanOutMode=design", "--qcnmFanOut=2"],
         error=r"--qcnmFanOutMode chooses how M is found.*--qcnmFanOut=2 fixes M"),
    Case("dcon-large-scale", 1, ["--cc=dcon", "--qcnmFraction=0.4", "--qcnmFanOut=2"],
         error=r"--qcnmFanOut sets M of the dynamic Q_CNM, which --qcnmFraction replaces"),
    Case("dcon-testbed", 1, ["--qcnmFanOutMode=bogus"],
         error=r"--qcnmFanOutMode: got 'bogus', expected one of live, aboveQecn or design"),
    Case("dcon-large-scale", 1, ["--cc=dcqcn", "--ns3::RdmaDcqcn::G=0.5", "--outdir={out}"],
         base=["--cc=dcqcn", "--outdir={out}"], differs="flows.csv"),
    Case("dcon-bench", 1, ["--ns3::RdmaDcqcn::G=0.5", "--outdir={out}"],
         base=["--outdir={out}"], differs="flows.csv"),
    Case("dcon-bench", 1, ["--ns3::RdmaNic::Mtu=500", "--outdir={out}"],
         base=["--outdir={out}"], differs="flows.csv"),
    Case("dcon-bench", 1, ["--ns3::SwitchMmu::PfcEnabled=false", "--buffer=600KB",
                           "--outdir={out}"],
         base=["--buffer=600KB", "--outdir={out}"], differs="pfc.csv"),
    Case("dcon-bench", 1, ["--ns3::RedEcnQueueDisc::Kmin=1KB"], error=r"Kmin.*per port rate"),
    Case("dcon-bench", 1, ["--ns3::RdmaDcqcn::MinRate=2Gbps", "--minRate=3Gbps"],
         error=r"--minRate and --ns3::RdmaDcqcn::MinRate set the same thing"),
    Case("dcon-bench", 1, ["--cc=hpcc", "--pmax=0.5"], error=r"--pmax is not used"),
    Case("dcon-ibcc-share", 1, ["--ns3::IbFecnQueueDisc::ThresholdStep=0B"],
         error=r"ThresholdStep.*--cc=ibcc sets it"),
    Case("dcon-ibcc-share", 1, ["--ns3::RdmaIbcc::CctiIncrease=2"], error=r"CctiIncrease.*--ns"),
    Case("dcon-ibcc-share", 1, ["--ns3::RdmaIbcc::TimerUnit=4us", "--outdir={out}"],
         base=["--outdir={out}"], differs="ibcc-ratio.csv"),
    Case("dcon-rttpid-incast", 1, ["--ns3::SwitchMmu::XOff=100KB"], error=r"XOff.*use --xoff"),
    Case("dcon-rttpid-incast", 1, ["--target=6us", "--ns3::RdmaRttPid::Target=7us"],
         error=r"--target and --ns3::RdmaRttPid::Target set the same thing"),
    Case("dcon-rttpid-incast", 1, ["--ns3::RdmaRttPid::Target=7us", "--outdir={out}"],
         base=["--outdir={out}"], differs="summary.json"),
    # A user attribute beats the algorithm's parameter set (applied to the NICs' factories) and
    # the program's own settings: a different value changes the run, the set's value does not.
    Case("dcon-bench", 1, ["--cc=hpcc", "--ns3::RdmaHpcc::MaxStage=5", "--outdir={out}"],
         base=["--cc=hpcc", "--outdir={out}"], differs="flows.csv"),
    Case("dcon-bench", 1, ["--cc=hpcc", "--ns3::RdmaHpcc::MaxStage=0", "--outdir={out}"],
         base=["--cc=hpcc", "--outdir={out}"], same="flows.csv"),
    Case("dcon-bench", 1, ["--ns3::RdmaDcqcn::AlphaUpdateInterval=1us", "--outdir={out}"],
         base=["--outdir={out}"], same="flows.csv"),
    Case("dcon-large-scale", 1, ["--cc=dcqcn", "--ns3::RdmaDcqcn::RateIncreaseInterval=55us",
                                 "--outdir={out}"],
         base=["--cc=dcqcn", "--outdir={out}"], same="flows.csv"),
    Case("dcon-large-scale", 1, ["--cc=dcqcn", "--ns3::RdmaDcqcn::RateIncreaseInterval=5us",
                                 "--outdir={out}"],
         base=["--cc=dcqcn", "--outdir={out}"], differs="flows.csv"),
    Case("dcon-testbed", 1, ["--cc=dcon", "--ns3::RdmaDcqcn::G=0.00390625", "--outdir={out}"],
         base=["--cc=dcon", "--outdir={out}"], same="throughput.csv"),
    Case("dcon-testbed", 1, ["--cc=dcon", "--ns3::RdmaDcqcn::G=0.5", "--outdir={out}"],
         base=["--cc=dcon", "--outdir={out}"], differs="throughput.csv"),
    Case("dcon-ibcc-share", 1, ["--ns3::RdmaIbcc::TimerResetOnBecn=true", "--outdir={out}"],
         base=["--outdir={out}"], differs="ibcc-ratio.csv"),
    Case("dcon-rttpid-incast", 1, ["--cc=rttpid", "--ns3::RdmaRttPid::Kp=-0.358",
                                   "--outdir={out}"],
         base=["--cc=rttpid", "--outdir={out}"], same="summary.json"),
    Case("dcon-rttpid-incast", 1, ["--cc=rttpid", "--ns3::RdmaRttPid::Kp=-0.1", "--outdir={out}"],
         base=["--cc=rttpid", "--outdir={out}"], differs="summary.json"),
    Case("dcon-floor-bench", 1, ["--ns3::RdmaDcqcn::G=0.5"], error=r"not used by this run"),
    Case("dcon-floor-bench", 1, ["--ns3::QueueDisc::NoSuchThing=10"],
         error=r"ns3::QueueDisc has no attribute 'NoSuchThing'"),
    Case("dcon-floor-bench", 1, ["--ns3::FifoQueueDisc::MaxSize=10p", "--outdir={out}"],
         check=expect_json("run.json", "attributes_given", ["ns3::FifoQueueDisc::MaxSize=10p"])),
    # ---------------------------------------------------------------- 2: no abort, no crash
    Case("dcon-testbed", 2, ["--stopTime=2msx"], error=r"--stopTime: got '2msx'"),
    Case("dcon-testbed", 2, ["--stopTime=2MS"], error=r"--stopTime: got '2MS'"),
    Case("dcon-testbed", 2, ["--SimulatorImplementationType=ns3::Bogus"],
         error=r"got 'ns3::Bogus'"),
    Case("dcon-testbed", 2, ["--ns3::RdmaDcqcn::G=nan"], error=r"got 'nan'"),
    Case("dcon-testbed", 2, ["--PrintAttributes=ns3::Bogus"],
         error=r"--PrintAttributes: got 'ns3::Bogus'"),
    Case("dcon-large-scale", 2, ["--cnmWindowRtts=1e300"], error=r"got '1e300'"),
    Case("dcon-large-scale", 2, ["--SchedulerType=ns3::Bogus"], error=r"got 'ns3::Bogus'"),
    Case("dcon-large-scale", 2, ["--ns3::RdmaDcqcn::G=0.5x"], error=r"got '0.5x'"),
    Case("dcon-bench", 2, ["--minRate=-1Gbps"], error=r"--minRate: got '-1Gbps'"),
    Case("dcon-bench", 2, ["--buffer=1GB"], error=r"--buffer: got '1GB'"),
    Case("dcon-bench", 2, ["--RngSeed=0"], error=r"--RngSeed: got '0'"),
    Case("dcon-ibcc-share", 2, ["--rate=10Gbpsx"], error=r"--rate: got '10Gbpsx'"),
    Case("dcon-ibcc-share", 2, ["--SimulatorImplementationType=ns3::DistributedSimulatorImpl"],
         error=r"runs on one process only"),
    Case("dcon-ibcc-share", 2, ["--ns3::RdmaIbcc::CctScale=inf"], error=r"got 'inf'"),
    Case("dcon-rttpid-incast", 2, ["--linkDelay=-1us"], error=r"--linkDelay: got '-1us'"),
    Case("dcon-rttpid-incast", 2, ["--SimulatorImplementationType=ns3::NullMessageSimulatorImpl"],
         error=r"runs on one process only"),
    Case("dcon-rttpid-incast", 2, ["--rate=-1Gbps"], error=r"--rate: got '-1Gbps'"),
    Case("dcon-floor-bench", 2, ["--SimulatorImplementationType=ns3::DistributedSimulatorImpl"],
         error=r"runs on one process only"),
    Case("dcon-floor-bench", 2, ["--RngRun=-1"], error=r"--RngRun: got '-1'"),
    # ---------------------------------------------------------------- 3: values read whole
    Case("dcon-testbed", 3, ["--outdir={out}/sp dir"],
         check=expect_files(present=["sp dir/run.json"])),
    Case("dcon-testbed", 3, ["dcon"], error=r"unexpected argument 'dcon'"),
    Case("dcon-testbed", 3, ["--pmax=0.01abc"], error=r"--pmax: got '0.01abc'"),
    Case("dcon-large-scale", 3, ["--load=0.8abc"], error=r"--load: got '0.8abc'"),
    Case("dcon-large-scale", 3, ["--workload=web search"],
         error=r"web search"),
    Case("dcon-bench", 3, ["--topo={tmp}/in/sp dir/t.topo", "--flows={flows}"],
         error=r"in/sp dir/t.topo", short=False),
    Case("dcon-bench", 3, ["--stopAt=2s", "extra"], error=r"unexpected argument 'extra'"),
    Case("dcon-ibcc-share", 3, ["--ns=1, 2"], error=r"got ' 2' in '1, 2'"),
    Case("dcon-ibcc-share", 3, ["--cct=0 1 2 4 8 16", "--outdir={out}"],
         base=["--cct=0", "--outdir={out}"], differs="ibcc-ratio.csv"),
    Case("dcon-rttpid-incast", 3, ["--scale=0.05x"], error=r"--scale: got '0.05x'"),
    Case("dcon-rttpid-incast", 3, ["--gains=tuned extra"], error=r"--gains: got 'tuned extra'"),
    Case("dcon-floor-bench", 3, ["--nodes=5 0"], error=r"--nodes: got '5 0'"),
    Case("dcon-floor-bench", 3, ["dcon"], error=r"unexpected argument 'dcon'"),
    # ---------------------------------------------------------------- 4: nothing wraps
    Case("dcon-testbed", 4, ["--bufferSize=5000000000B"],
         error=r"5000000000 B, above 4294967295 B"),
    Case("dcon-testbed", 4, ["--cc=dcqcn", "--kmax=4295167296B"], error=r"4295167296 B, above"),
    Case("dcon-testbed", 4, ["--burstFlowSize=18446744073709551616"],
         error=r"--burstFlowSize: got '18446744073709551616'"),
    Case("dcon-large-scale", 4, ["--leaves=65536", "--hostsPerLeaf=65536"],
         error=r"65536 leaves x 65536 hosts per leaf = 4294967296 hosts"),
    Case("dcon-large-scale", 4, ["--spines=4294967295"],
         error=r"4294967295 spines .* more than 4294967295 \(node ids are 32-bit\)"),
    Case("dcon-large-scale", 4, ["--seed=4294967296"], error=r"--seed: got '4294967296'"),
    Case("dcon-bench", 4, ["--topo={topo}", "--flows={hugeflow}"],
         error=r"size 18446744073709551615 B", short=False),
    Case("dcon-bench", 4, ["--topo={topo}", "--flows={lateflow}"],
         error=r"beyond half of ns-3's time range.*got '9223372.036854'", short=False),
    Case("dcon-bench", 4, ["--topo={longlink}", "--flows={flows}"],
         error=r"switch 4: the PFC headroom .* above 4294967295 B", short=False),
    Case("dcon-ibcc-share", 4, ["--weight1=4294967296", "--mode=tenant", "--phase=4",
                                "--tenantFlows=1"],
         error=r"CCTI_Increase .* above 4294967295", short=False),
    Case("dcon-ibcc-share", 4, ["--duration=4294967296"], error=r"--duration: got '4294967296'"),
    Case("dcon-rttpid-incast", 4, ["--scale=1e300"], error=r"--scale: got '1e300'"),
    Case("dcon-rttpid-incast", 4, ["--qcnmFanOut=4294967296", "--cc=dcon"],
         error=r"--qcnmFanOut: got '4294967296'"),
    Case("dcon-floor-bench", 4, ["--frameHops=18446744073709551616"],
         error=r"--frameHops: got '18446744073709551616'"),
    Case("dcon-floor-bench", 4, ["--inFlight=4294967296"], error=r"--inFlight: got '4294967296'"),
    # ---------------------------------------------------------------- 5: lost, mislabelled
    Case("dcon-testbed", 5, ["--RngSeed=7", "--RngRun=3", "--outdir={out}"],
         check=all_of(expect_json("run.json", "rng_seed", 7), expect_json("run.json", "rng_run", 3))),
    Case("dcon-testbed", 5, ["--outdir={out}"],
         check=stale(["testbed-9-9.pcap", "node-work-links.csv", "summary.json", "notes.txt"]),
         stdout=r"removed 3 file\(s\) of an earlier run.*also holds 1 entry"),
    Case("dcon-testbed", 5, ["--outdir=/proc/dcon-hostile/out"], error=r"cannot create the folder"),
    Case("dcon-large-scale", 5, ["--seed=5", "--outdir={out}"],
         check=all_of(expect_json("run.json", "rng_run", 5), expect_json("run.json", "seed", 5))),
    Case("dcon-large-scale", 5, ["--seed=5", "--RngRun=3"], error=r"RngRun.*use --seed"),
    Case("dcon-large-scale", 5, ["--flowFile={lsflows}", "--load=0.5"],
         error=r"--load does not apply: --flowFile"),
    Case("dcon-large-scale", 5, ["--flowFile={lsflows}", "--outdir={out}"], short=False,
         check=all_of(expect_json("run.json", "load", None),
                      expect_json("run.json", "arrival_start_s", 0.001))),
    Case("dcon-bench", 5, ["--stopAt=2.0000001s", "--outdir={out}"],
         check=expect_json("summary.json", "complete", False)),
    Case("dcon-bench", 5, ["--safetyStop=-1s"], error=r"--safetyStop: got '-1s'"),
    Case("dcon-bench", 5, ["--outdir={out}"],
         check=all_of(expect_keys("run.json", ["command_line", "ns3_version", "rng_seed",
                                               "rng_run"]),
                      expect_json("summary.json", "complete", True))),
    Case("dcon-ibcc-share", 5, ["--outdir=/proc/dcon-hostile/out"], error=r"cannot create"),
    Case("dcon-ibcc-share", 5, ["--outdir={out}"],
         check=expect_files(present=["run.json", "ibcc-ratio.csv", "ibcc-tenant.csv"])),
    Case("dcon-rttpid-incast", 5, ["--rttTrace=/dev/full"], error=r"'/dev/full' is a character"),
    Case("dcon-rttpid-incast", 5, ["--outdir={out}", "--RngRun=4"],
         check=all_of(expect_json("run.json", "rng_run", 4), expect_files(["summary.json"]))),
    Case("dcon-floor-bench", 5, ["--outdir={out}"],
         check=all_of(expect_files(["run.json", "summary.json"]),
                      expect_json("summary.json", "frame_hops", 2000))),
    Case("dcon-floor-bench", 5, ["--outdir=/proc/dcon-hostile/out"], error=r"cannot create"),
    # ---------------------------------------------------------------- 6: errors name it
    Case("dcon-testbed", 6, ["--burstFlowSize=\ufeff3"], error=r"got '\\ufeff3'"),
    Case("dcon-testbed", 6, ["--stopTime=1e999ms"], error=r"got '1e999ms', beyond ns-3's time"),
    Case("dcon-testbed", 6, ["--cc=dcqcn\u00a0"], error=r"got 'dcqcn\\u00a0'"),
    Case("dcon-large-scale", 6, ["--load=1e-12"], error=r"load 1e-12 .*gives none"),
    Case("dcon-large-scale", 6, ["--scale=tiny", "--flowFile={tmp}"], error=r"is a folder",
         short=False),
    Case("dcon-large-scale", 6, ["--workload=/dev/null"], error=r"character device"),
    Case("dcon-bench", 6, ["--topo={fifo}", "--flows={flows}"], error=r"FIFO", short=False),
    Case("dcon-bench", 6, ["--topo={hugenodes}", "--flows={flows}"],
         error=r"node count is more than the 2 links can connect", short=False),
    Case("dcon-bench", 6, ["--topo={lonelyswitch}", "--flows={flows}"],
         error=r"switch 5 has no link", short=False),
    Case("dcon-ibcc-share", 6, ["--tenantFlows=4294967295"],
         error=r"--tenantFlows: got '4294967295'"),
    Case("dcon-ibcc-share", 6, ["--rate=10Gbps\u00a0"], error=r"got '10Gbps\\u00a0'"),
    Case("dcon-rttpid-incast", 6, ["--predictor={tmp}"], error=r"--predictor: .* is a folder"),
    Case("dcon-rttpid-incast", 6, ["--rttTrace={tmp}"], error=r"--rttTrace: .* is a folder"),
    Case("dcon-floor-bench", 6, ["--nodes=\u00a05"], error=r"got '\\u00a05'"),
    Case("dcon-floor-bench", 6, ["--outdir=/dev/null"],
         error=r"'/dev/null' is a character device, not a folder"),
    # ---------------------------------------------------------------- 7: documented limits
    Case("dcon-testbed", 7, ["--sampleInterval=-1us"], error=r"--sampleInterval: got '-1us'"),
    Case("dcon-testbed", 7, ["--cc=swift", "--ns3::RdmaSwift::BaseTarget=0us", "--outdir={out}"],
         error=r"BaseTarget must be above the base RTT"),
    Case("dcon-large-scale", 7, ["--maxTime=-1ms"], error=r"--maxTime: got '-1ms'"),
    Case("dcon-large-scale", 7, ["--incastShare=-0.1"], error=r"--incastShare: got '-0.1'"),
    Case("dcon-large-scale", 7, ["--cc=swift", "--ns3::RdmaSwift::BaseTarget=25us",
                                 "--outdir={out}"], error=r"BaseTarget must be above"),
    Case("dcon-bench", 7, ["--stopAt=-1s"], error=r"--stopAt: got '-1s'"),
    Case("dcon-bench", 7, ["--alpha=0"], error=r"--alpha: got '0'"),
    Case("dcon-ibcc-share", 7, ["--threshold=16"], error=r"--threshold: got '16'"),
    Case("dcon-ibcc-share", 7, ["--weight2=0"], error=r"--weight2: got '0'"),
    Case("dcon-rttpid-incast", 7, ["--predictor={hugelstm}"],
         error=r"output can reach .* beyond \+-1000"),
    Case("dcon-rttpid-incast", 7, ["--target=0us"], error=r"--target: got '0us'"),
    Case("dcon-floor-bench", 7, ["--frameHops=10", "--inFlight=1000"], short=False,
         stdout=r"frame-hops: 10\n"),
    Case("dcon-floor-bench", 7, ["--nodes=0"], error=r"--nodes: got '0'"),
]


def csv_cell(name, column, row=0, empty=True):
    """CSV file `name`: the cell is empty (a reading not measured) or, with empty=False, not."""
    def check(out, _stdout):
        with open(os.path.join(out, name)) as f:
            rows = list(csv.DictReader(f))
        got = rows[row][column]
        if (got == "") != empty:
            return f"{name}: {column} is {got!r}, expected {'empty' if empty else 'a number'}"
        return None
    return check


DRY = r"dry run: the command line and the inputs are accepted"
TESTBED_THROUGHPUT = ["f0_before_gbps", "f0_during_gbps", "f0_end_gbps", "f1_before_gbps",
                      "f1_during_gbps"]

# The third round (issue 29), by class name.
CASES += [
    # ------------------------------------------------ empty: no verdict from an empty window
    Case("dcon-testbed", "empty", ["--burstFlowsPerHost=0", "--outdir={out}"],
         stdout=r"during not measured \(there is no burst \(--burstFlowsPerHost=0\)\).*"
                r"no burst \(--burstFlowsPerHost=0\)\n  results in",
         check=all_of(expect_not_measured("facts.json", ["f0_during_gbps", "f1_during_gbps",
                                                         "burst_end_s"]),
                      expect_unjudged("f0 collapses during the burst",
                                      "f1 collapses during the burst"))),
    Case("dcon-testbed", "empty", ["--stopTime=2ms", "--sampleInterval=20ms", "--outdir={out}"],
         stdout=r"before burst not measured \(no throughput sample",
         check=all_of(expect_not_measured("facts.json", TESTBED_THROUGHPUT),
                      expect_unjudged("f0 recovers after the burst"),
                      expect_json("facts.json", "verdict", "FAIL"))),
    Case("dcon-testbed", "empty", ["--burstStart=0ms", "--outdir={out}"],
         stdout=r"before burst not measured \(the burst starts at 0 s: no time before it\)",
         check=expect_not_measured("facts.json", ["f0_before_gbps", "f1_before_gbps"])),
    Case("dcon-ibcc-share", "empty", ["--ns=2", "--duration=2", "--mode=ratio", "--outdir={out}"],
         short=False, stdout=r"not measured \(-\): no throughput sample of 0.001 s",
         check=all_of(csv_cell("ibcc-ratio.csv", "gbps_a"),
                      csv_cell("ibcc-ratio.csv", "ratio_a_over_b"))),
    Case("dcon-ibcc-share", "empty", ["--outdir={out}"],
         check=all_of(csv_cell("ibcc-ratio.csv", "ratio_a_over_b", empty=False),
                      csv_cell("ibcc-tenant.csv", "tenant1_share", empty=False))),
    Case("dcon-rttpid-incast", "empty", ["--cc=none", "--outdir={out}"],
         stdout=r"RTT readings not measured: no per-RTT sample",
         check=all_of(expect_not_measured("summary.json", ["mean_rtt_us", "p99_rtt_us",
                                                           "max_rtt_us"]),
                      expect_json("summary.json", "complete", True))),
    Case("dcon-bench", "empty", ["--stopAt=1s"],
         stdout=r"links per packet not measured: no data packet was sent"),
    Case("dcon-large-scale", "empty", ["--cc=dcon", "--load=0.3", "--qecn=300KB",
                                       "--outdir={out}"],
         check=lambda out, _: None if json_field(os.path.join(out, "summary.json"),
                                                 "dcon_queues")["shares_above_qecn"]
         == {"marking": None, "latched": None, "burst": None}
         else "shares_above_qecn of no time above Q_ECN are not null"),
    Case("dcon-floor-bench", "empty", ["--outdir={out}"],
         check=lambda out, _: None if isinstance(
             json_field(os.path.join(out, "summary.json"), "frame_hops_per_wall_second"),
             (float, int, type(None))) else "frame_hops_per_wall_second is not a number or null"),
    # ------------------------------------------------ late: checked before the run
    Case("dcon-bench", "late", ["--cc=none", "--topo={mixedtopo}", "--flows={flows}",
                                "--outdir={out}"], short=False,
         stdout=r"host line rate 25 and 100 Gb/s",
         check=expect_json("summary.json", "complete", True)),
    # (HPCC's queue has no ECN thresholds: none is computed for its 100 kb/s links)
    Case("dcon-bench", "late", ["--cc=hpcc", "--topo={slowtopo}", "--flows={flows}",
                                "--dryRun"], short=False, stdout=DRY),
    Case("dcon-large-scale", "late", ["--cc=hpcc", "--outdir={out}"],
         check=expect_json("run.json", "dcqcn_preset", None)),
    Case("dcon-testbed", "late", ["--dryRun", "--outdir={out}"], stdout=DRY, no_output=True),
    Case("dcon-testbed", "late", ["--dryRun", "--outdir={out}"], stdout=DRY,
         check=all_of(stale(["summary.json", "flows.txt"]),
                      expect_files(present=["summary.json", "flows.txt"]))),
    Case("dcon-large-scale", "late", ["--dryRun", "--outdir={out}"], stdout=DRY,
         no_output=True),
    Case("dcon-bench", "late", ["--dryRun", "--outdir={out}"], stdout=DRY, no_output=True),
    Case("dcon-ibcc-share", "late", ["--dryRun", "--outdir={out}"], stdout=DRY, no_output=True),
    Case("dcon-rttpid-incast", "late", ["--dryRun", "--outdir={out}", "--rttTrace={tmp}/t.csv"],
         stdout=DRY, no_output=True,
         check=expect_files(absent=["../t.csv", "../t.csv.part"])),
    Case("dcon-floor-bench", "late", ["--dryRun", "--outdir={out}"], stdout=DRY,
         no_output=True),
    # (the scenarios are built before the first run: this one is refused before any run)
    Case("dcon-ibcc-share", "late", ["--rate=1000000Gbps", "--ns=1", "--duration=4",
                                     "--phase=4", "--tenantFlows=1"], short=False,
         error=r"Headroom .* exceeds BufferSize"),
    # ------------------------------------------------ unread: settings read or refused
    Case("dcon-testbed", "unread", ["--cc=dcon", "--ns3::RdmaDcqcn::RateIncreaseInterval=5us"],
         error=r"--ns3::RdmaDcqcn::RateIncreaseInterval: ns3::RdmaDcon with Sender=Paper does "
               r"not read RateIncreaseInterval \(Sender=Dcqcn does\)"),
    Case("dcon-testbed", "unread", ["--cc=dcon", "--ns3::RdmaDcon::Sender=Dcqcn",
                                    "--ns3::RdmaDcqcn::RateIncreaseInterval=5us", "--dryRun"],
         stdout=DRY),
    Case("dcon-testbed", "unread", ["--cc=dcon", "--ns3::RdmaDcon::Sender=Dcqcn",
                                    "--ns3::RdmaDcon::CnpPeriod=20us"],
         error=r"Sender=Dcqcn does not read CnpPeriod \(Sender=Paper does\)"),
    Case("dcon-large-scale", "unread", ["--cc=dcon", "--ns3::RdmaDcqcn::CnpInterval=10us"],
         error=r"RdmaDcon with Sender=Paper does not read CnpInterval"),
    Case("dcon-bench", "unread", ["--cc=dcon", "--ns3::RdmaDcqcn::ByteCounter=1000"],
         error=r"does not read ByteCounter \(Sender=Dcqcn does\)"),
    Case("dcon-rttpid-incast", "unread", ["--ns3::RdmaRttPid::LearningRate=0.1"],
         error=r"RdmaRttPid with GainTuning=false does not read LearningRate "
               r"\(GainTuning=true does\)"),
    Case("dcon-rttpid-incast", "unread", ["--gains=initial", "--ns3::RdmaRttPid::Beta=2",
                                          "--dryRun"], stdout=DRY),
    Case("dcon-rttpid-incast", "unread", ["--ns3::RdmaRttPid::TargetAdaptCount=3"],
         error=r"does not read TargetAdaptCount \(TargetAdaptation=true does\)"),
    Case("dcon-testbed", "unread", ["--cc=dcon", "--dcqcnPreset=cx4"],
         error=r"--dcqcnPreset=cx4 does not apply: it changes nothing in this run, as "
               r"ns3::RdmaDcon with Sender=Paper reads, of the values the sets cx4 and paper "
               r"give, only G, InitialAlpha and MinRate"),
    Case("dcon-large-scale", "unread", ["--cc=dcon", "--ns3::RdmaDcon::Sender=Dcqcn",
                                        "--dcqcnPreset=cx4", "--dryRun"], stdout=DRY),
    Case("dcon-testbed", "unread", ["--cc=timely", "--ns3::RdmaTimely::RttRef=100us"],
         error=r"ns3::RdmaTimely with Variant=Original does not read RttRef "
               r"\(Variant=Patched does\)"),
    Case("dcon-testbed", "unread", ["--cc=timely", "--ns3::RdmaTimely::Variant=Patched",
                                    "--ns3::RdmaTimely::RttRef=100us", "--dryRun"], stdout=DRY),
    Case("dcon-bench", "unread", ["--cc=timely", "--ns3::RdmaTimely::Variant=Patched",
                                  "--ns3::RdmaTimely::HaiFactor=3"],
         error=r"Variant=Patched does not read HaiFactor \(Variant=Original does\)"),
    Case("dcon-ibcc-share", "unread", ["--ns3::RdmaDcqcn::RateIncreaseInterval=5us"],
         error=r"not used by this run"),
    Case("dcon-floor-bench", "unread", ["--ns3::RdmaDcon::Sender=Dcqcn"],
         error=r"not used by this run"),
    # ------------------------------------------------ message: the user's option, the cause
    Case("dcon-ibcc-share", "message", ["--rate=1bps"],
         error=r"--rate: got '1bps', expected at least \d+bps: the rates are read from 0.001 s "
               r"throughput samples"),
    Case("dcon-rttpid-incast", "message", ["--predictor={bomlstm}"],
         error=r"--predictor: .*bom-lstm.txt:1: expected header 'dcon-lstm 1 <input> <hidden> <steps>', got "
               r"'\\ufeffdcon-lstm 1 1 16 8'"),
    Case("dcon-rttpid-incast", "message", ["--ns3::RdmaRttPid::PredictorFile={bomlstm}"],
         error=r"--ns3::RdmaRttPid::PredictorFile: .*bom-lstm.txt:1: expected header"),
    Case("dcon-bench", "message", ["--SchedulerType=ns3::RemoteFirstScheduler"],
         error=r"--SchedulerType: got 'ns3::RemoteFirstScheduler', expected another event "
               r"scheduler: .* null-message engine"),
    Case("dcon-bench", "message", ["--topo={slowtopo}", "--flows={flows}"], short=False,
         error=r"--topo: '.*slow.topo' has a link of 100000bps: the switch queues' ECN "
               r"thresholds scale with the link rate .* needs links of 250000bps to"),
    Case("dcon-testbed", "message", ["--sampleInterval=1ps"], short=False,
         error=r"--sampleInterval \(1e-12 s\) gives more than 10000000 samples of each queue "
               r"and flow until --stopTime \(0.06 s\): give at least 6e-09 s"),
    Case("dcon-testbed", "message", ["--bufferSize=1KB"],
         error=r"--xoff \(320000 B\) is above --bufferSize \(1000 B\)"),
    # a buffer too small for the ports' PFC headroom: named as the option, in every program
    Case("dcon-testbed", "message", ["--pfcThreshold=dynamic", "--bufferSize=100KB"],
         error=r"--bufferSize \(100000 B\) cannot hold the PFC headroom every port reserves"),
    Case("dcon-large-scale", "message", ["--xoff=50KB", "--xon=40KB", "--bufferSize=100KB"],
         error=r"--bufferSize \(100000 B\) cannot hold the PFC headroom every port reserves"),
    Case("dcon-collectives", "message", ["--pfcThreshold=dynamic", "--bufferSize=100KB"],
         error=r"--bufferSize \(100000 B\) cannot hold the PFC headroom every port reserves"),
    Case("dcon-large-scale", "message", ["--load=5"],
         error=r"--load: got '5', expected at most [0-9.]+ with --loadType=core"),
    Case("dcon-testbed", "message", ["--burstStart=5ms", "--stopTime=2ms"],
         error=r"--stopTime \(0.002 s\) must be after --burstStart \(0.005 s\)"),
    Case("dcon-rttpid-incast", "message", ["--rate=1Mbps"],
         error=r"--rate: 1000000 bit/s is too slow .* give --rate=\d+bps or more"),
    Case("dcon-testbed", "message", ["--outdir={out}"], fsize=1500,
         error=r"cannot write .*: File too large"),
    Case("dcon-large-scale", "message", ["--outdir={out}"], fsize=100,
         error=r"cannot write .*: File too large"),
    Case("dcon-bench", "message", ["--outdir={out}"], fsize=100,
         error=r"cannot write .*: File too large"),
    Case("dcon-ibcc-share", "message", ["--outdir={out}"], fsize=50,
         error=r"cannot write .*: File too large"),
    Case("dcon-rttpid-incast", "message", ["--outdir={out}"], fsize=100,
         error=r"cannot write .*: File too large"),
    Case("dcon-floor-bench", "message", ["--outdir={out}"], fsize=100,
         error=r"cannot write .*run.json: File too large"),
    # ------------------------------------------------ folder: no file of another run left
    Case("dcon-testbed", "folder", ["--outdir={out}"],
         before=[("dcon-large-scale", ["--outdir={out}", "--spreading"])],
         check=all_of(expect_files(present=["facts.json"],
                                   absent=["flows.txt", "buffer.csv", "fct.txt", "victims.csv"]),
                      expect_no_foreign)),
    Case("dcon-large-scale", "folder", ["--dryRun", "--outdir={out}"],
         before=[("dcon-testbed", ["--outdir={out}", "--spreading", "--pcap"])],
         stdout=r"would remove \d+ file", check=expect_no_foreign),
    Case("dcon-testbed", "folder", ["--dryRun", "--outdir={out}"],
         before=[("dcon-large-scale", ["--outdir={out}", "--spreading", "--nodeWork"])],
         stdout=r"would remove \d+ file", check=expect_no_foreign),
    Case("dcon-ibcc-share", "folder", ["--dryRun", "--outdir={out}"],
         before=[("dcon-bench", ["--outdir={out}", "--spreading", "--nodeWork"])],
         stdout=r"would remove \d+ file", check=expect_no_foreign),
    Case("dcon-rttpid-incast", "folder", ["--dryRun", "--outdir={out}"],
         before=[("dcon-ibcc-share", ["--outdir={out}"])],
         stdout=r"would remove \d+ file", check=expect_no_foreign),
    Case("dcon-floor-bench", "folder", ["--dryRun", "--outdir={out}"],
         before=[("dcon-rttpid-incast", ["--outdir={out}"])],
         stdout=r"would remove \d+ file", check=expect_no_foreign),
    Case("dcon-bench", "folder", ["--dryRun", "--outdir={out}"],
         before=[("dcon-floor-bench", ["--outdir={out}"])],
         stdout=r"would remove \d+ file", check=expect_no_foreign),
    Case("dcon-large-scale", "folder", ["--flowFile={out}/flows.txt", "--outdir={out}"],
         short=False, error=r"--flowFile: .*flows.txt' is in the output folder",
         check=stale({"flows.txt": "2\n0 5 3 100 100000 0.001\n1 9 3 100 100000 0.0015\n"})),
]


def help_defaults(binary):
    """[(option, default)] of a program's --help: each option with the default it shows in
    brackets at the end of its line ("" when it shows none), but --dryRun (every case sets it),
    --list-cc (it prints and exits) and the options marked "(required)"."""
    text = subprocess.run([binary, "--help"], capture_output=True, text=True,
                          timeout=60).stdout
    section = text.split("Program Options:")[1].split("General Arguments:")[0]
    out = []
    for line in section.splitlines():
        m = re.match(r"\s+--([\w-]+):\s+(.*?)(?:\s\[([^\[\]]*)\])?$", line)
        if m and m.group(1) not in ("dryRun", "list-cc") and "(required)" not in m.group(2):
            out.append((m.group(1), m.group(3) or ""))
    return out


# The context a program's default cases need: dcon-bench's required files, dcon-large-scale's
# small fabric (its --scale case builds the full one); an option under test replaces its own.
DEFAULT_CONTEXT = {"dcon-bench": ["--topo={topo}", "--flows={flows}"],
                   "dcon-large-scale": ["--scale=tiny"]}
# A refusal of a default that is not about the value: the option does not apply to the run.
NOT_APPLICABLE = r"does not apply|is not used by this run|applies to .* only"


def default_cases(bindir, programs):
    """The class "default": per option of each program, --OPTION=DEFAULT (its --help's) with
    --dryRun, which must be accepted (or refused only as not applying to the run)."""
    cases = []
    for program in programs:
        binary = os.path.join(bindir, program)
        if not os.path.exists(binary):
            continue
        for option, default in help_defaults(binary):
            context = [a for a in DEFAULT_CONTEXT.get(program, []) if option_name(a) != option]
            c = Case(program, "default", context + [f"--{option}={default}", "--dryRun"],
                     short=False, stdout=DRY)
            c.accept_error = NOT_APPLICABLE
            cases.append(c)
    return cases


def csv_rows(name, rows):
    """A check: the CSV file has this many data rows."""
    def check(out, _stdout):
        with open(os.path.join(out, name)) as f:
            got = sum(1 for _ in f) - 1
        return None if got == rows else f"{name} has {got} rows, expected {rows}"
    return check


# dcon-collectives (issue 30): its options and its job file (--jobs).
CASES += [
    Case("dcon-collectives", 1, ["--ns3::RdmaNic::Mtu=2000"], error=r"Mtu.*use --mtu"),
    Case("dcon-collectives", 1, ["--cc=dcqcn", "--qecn=100KB"],
         error=r"--qecn is not used by this run"),
    Case("dcon-collectives", 1, ["--ns3::RdmaNic::AckInterval=4", "--outdir={out}"],
         base=["--outdir={out}"], differs="collectives.csv"),
    Case("dcon-collectives", 2, ["--size=0"], error=r"--size: got '0'"),
    Case("dcon-collectives", 2, ["--ranks=1"], error=r"at least 2 ranks, got 1"),
    Case("dcon-collectives", 2, ["--linkRate=0bps"], error=r"--linkRate: got '0bps'"),
    Case("dcon-collectives", 3, ["--size=64 KB"], error=r"--size: got '64 KB'"),
    Case("dcon-collectives", 3, ["--hosts=0-3 "], error=r"--hosts: got '0-3 '"),
    Case("dcon-collectives", 3, ["--jobs={jobs}", "extra"], error=r"unexpected argument 'extra'"),
    Case("dcon-collectives", 4, ["--size=2000000GB"], error=r"--size: got '2000000GB'"),
    Case("dcon-collectives", 4, ["--ranks=4294967298"], error=r"--ranks: got '4294967298'"),
    Case("dcon-collectives", 4, ["--jobs={widejobs}"], short=False,
         error=r"wide\.jobs:1: hosts must be node ids and ranges a-b"),
    Case("dcon-collectives", 5, ["--outdir={out}"],
         check=all_of(expect_files(present=["collectives.csv", "steps.csv", "ranks.csv",
                                            "jobs.csv", "jobs.txt", "run.json", "flows.csv",
                                            "summary.json"]),
                      csv_rows("collectives.csv", 1), csv_rows("ranks.csv", 4),
                      # ring all-reduce on 4 ranks: 2 x 3 steps of 4 messages
                      csv_rows("steps.csv", 24), expect_json("summary.json", "complete", True))),
    Case("dcon-collectives", 5, ["--jobs={jobs}", "--outdir={out}"], short=False,
         check=all_of(csv_rows("jobs.csv", 2), csv_rows("collectives.csv", 3))),
    Case("dcon-collectives", 5, ["--maxTime=1us", "--outdir={out}"],
         check=expect_json("summary.json", "complete", False)),
    Case("dcon-collectives", 6, ["--jobs={badjobs}"], short=False,
         error=r"bad\.jobs:3: unknown key 'colour'.*got 'colour=red'"),
    Case("dcon-collectives", 6, ["--jobs={hdjobs}"], short=False,
         error=r"hd\.jobs:1: job 'x': halving-doubling needs a power-of-two number of ranks, "
               r"got 6"),
    Case("dcon-collectives", 6, ["--jobs={fifo}"], error=r"FIFO", short=False),
    Case("dcon-collectives", 6, ["--jobs={tmp}"], error=r"folder", short=False),
    Case("dcon-collectives", 6, ["--ranks=9"], error=r"needs 9 hosts, 4 are free"),
    Case("dcon-collectives", 6, ["--jobs={jobs}", "--iterations=2"], short=False,
         error=r"--iterations.*--jobs gives the jobs"),
    Case("dcon-collectives", 7, ["--algo=hd", "--ranks=3"], error=r"power-of-two.*got 3"),
    Case("dcon-collectives", 7, ["--op=allgather", "--algo=direct"],
         error=r"allgather does not run with the direct algorithm"),
    Case("dcon-collectives", 7, ["--background=websearch", "--backgroundLoad=5"],
         error=r"needs a host-link load of .* > 1"),
    Case("dcon-collectives", 7, ["--backgroundLoad=0.5"],
         error=r"--backgroundLoad.*no background without --background"),
]


def make_fixtures(d):
    """The input files the cases name, in folder d."""
    def write(name, text):
        path = os.path.join(d, name)
        with open(path, "w") as f:
            f.write(text)
        return path
    links = "".join(f"{h} 4 100Gbps 1000ns 0\n" for h in range(4))
    fx = {
        "topo": write("incast.topo", "5 1 4\n4\n" + links),
        "flows": write("incast.flows", "3\n" + "".join(
            f"{h} 3 3 100 2000000 2.0\n" for h in range(3))),
        "hugeflow": write("huge.flows", "1\n0 3 3 100 18446744073709551615 2.0\n"),
        "lateflow": write("late.flows", "1\n0 3 3 100 1000 9223372.036854\n"),
        "longlink": write("long.topo", "5 1 4\n4\n" + links.replace(
            "0 4 100Gbps 1000ns 0", "0 4 100Gbps 171800000000ns 0")),
        "hugenodes": write("hugenodes.topo", "100000000 1 2\n4\n0 4 100Gbps 1000ns 0\n"
                           "1 4 100Gbps 1000ns 0\n"),
        "lonelyswitch": write("lonely.topo", "6 2 4\n4 5\n" + links),
        # 32 hosts of dcon-large-scale's tiny fabric (2 x 4 x 4 = 16 hosts: ids 0..15)
        "lsflows": write("ls.flows", "2\n0 5 3 100 100000 0.001\n1 9 3 100 100000 0.0015\n"),
        # hosts 0 and 1 at 100 Gb/s, 2 and 3 at 25 Gb/s
        "mixedtopo": write("mixed.topo", "5 1 4\n4\n" + "".join(
            f"{h} 4 {'100' if h < 2 else '25'}Gbps 1000ns 0\n" for h in range(4))),
        # hosts 0 and 1 at 100 Gb/s, 2 and 3 at 100 kb/s (too slow for RED's thresholds)
        "slowtopo": write("slow.topo", "5 1 4\n4\n" + "".join(
            f"{h} 4 {'100Gbps' if h < 2 else '100Kbps'} 1000ns 0\n" for h in range(4))),
        # a weight file whose first line starts with a byte-order mark
        "bomlstm": write("bom-lstm.txt", "\ufeffdcon-lstm 1 1 16 8\n"),
        # dcon-collectives' job files (on its short fabric: 2 x 2 x 2, hosts 0-3)
        "jobs": write("two.jobs", "# two jobs\nname=ar op=allreduce size=64KB ranks=2 "
                      "iterations=2 gap=1us\nname=a2a op=alltoall size=32KB ranks=2\n"),
        "badjobs": write("bad.jobs", "op=allreduce size=64KB ranks=2\n\n"
                         "op=allgather size=1KB ranks=2 colour=red\n"),
        "hdjobs": write("hd.jobs", "name=x op=allreduce algo=hd size=64KB ranks=6\n"),
        "widejobs": write("wide.jobs", "op=allreduce size=64KB hosts=0-99999999999\n"),
    }
    weights = open(os.path.join(ROOT, "data", "rtt-predictor", "lstm-weights.txt")).read()
    lines = weights.splitlines()
    i = next(k for k, line in enumerate(lines) if line.startswith("b_lin"))
    lines[i + 1] = "1e307"
    fx["hugelstm"] = write("huge-lstm.txt", "\n".join(lines) + "\n")
    fifo = os.path.join(d, "pipe.topo")
    os.mkfifo(fifo)
    fx["fifo"] = fifo
    return fx


def expand(args, fx, tmp, out):
    return [a.format(tmp=tmp, out=out, **fx) for a in args]


def run(binary, args, cwd, timeout=TIMEOUT, fsize=None):
    """(returncode or a problem, stdout, stderr); run in `cwd` (a default output folder of the
    program goes there); with `fsize`, writes beyond that many bytes of a file fail (EFBIG, as a
    full disk fails them with ENOSPC)."""
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    try:
        p = subprocess.run([binary] + args, capture_output=True, text=True, timeout=timeout,
                           errors="replace", cwd=cwd, preexec_fn=limit if fsize else None)
    except subprocess.TimeoutExpired:
        return f"no answer within {timeout} s (a hang)", "", ""
    if p.returncode < 0:
        return f"killed by signal {signal.Signals(-p.returncode).name}", p.stdout, p.stderr
    return p.returncode, p.stdout, p.stderr


def option_name(arg):
    return arg.lstrip("-").split("=", 1)[0]


def short_prefix(case, args=None):
    """The program's short-run options, less those the case gives itself (an option given
    twice with two values is refused)."""
    given = {option_name(a) for a in (case.args if args is None else args)}
    return [a for a in SHORT[case.program] if option_name(a) not in given]


def run_case(case, bindir, fx, work, index):
    """None if the case behaved, else what went wrong."""
    binary = os.path.abspath(os.path.join(bindir, case.program))
    tmp = os.path.join(work, f"case{index}")
    os.makedirs(tmp)
    out = os.path.join(tmp, "out")
    prefix = short_prefix(case) if case.short else []
    args = expand(prefix + case.args, fx, tmp, out)
    plant = getattr(case.check, "plant", None)
    if plant:
        os.makedirs(out)
        for name, text in plant.items():
            with open(os.path.join(out, name), "w") as f:
                f.write(text.format(tmp=tmp, out=out, **fx) if "{" in text else text)
    for program, before in case.before or []:
        bargs = expand([a for a in SHORT[program] if option_name(a) not in
                        {option_name(b) for b in before}] + before, fx, tmp, out)
        brc, _, berr = run(os.path.abspath(os.path.join(bindir, program)), bargs, tmp)
        if brc != 0:
            return f"the earlier run {program} {' '.join(bargs)} failed: {brc} {berr.strip()[-300:]}"
    rc, stdout, stderr = run(binary, args, tmp, fsize=case.fsize)
    if isinstance(rc, str):
        return rc + (f"; stderr: {stderr.strip()[-300:]}" if stderr else "")
    if case.error:
        if rc not in (1, 2):
            return f"exit status {rc}, expected 1 or 2 and an error matching {case.error!r}"
        if not re.search(case.error, stderr):
            return f"stderr {stderr.strip()[-400:]!r} does not match {case.error!r}"
        if "error" not in stderr:
            return "no 'error' in the message"
        return None
    accept = getattr(case, "accept_error", None)
    if rc in (1, 2) and accept and re.search(accept, stderr):
        return None  # refused as not applying to the run, not for its value
    if rc != 0:
        return f"exit status {rc}: {stderr.strip()[-400:]}"
    if case.no_output and os.path.exists(out):
        return f"the dry run made {out}: {os.listdir(out)}"
    if case.stdout and not re.search(case.stdout, stdout, re.S):
        return f"stdout {stdout.strip()[-400:]!r} does not match {case.stdout!r}"
    if case.differs or case.same:
        base_out = os.path.join(tmp, "base")
        base_args = expand(short_prefix(case, case.base) + case.base, fx, tmp, base_out)
        brc, _, berr = run(binary, base_args, tmp)
        if brc != 0:
            return f"the base run {' '.join(base_args)} failed: {brc} {berr.strip()[-300:]}"
        name = case.differs or case.same
        with open(os.path.join(out, name), "rb") as a, \
                open(os.path.join(base_out, name), "rb") as b:
            equal = a.read() == b.read()
        if case.differs and equal:
            return f"{name} is the same as without the argument: it took no effect"
        if case.same and not equal:
            return (f"{name} differs from the run without the argument, although the value "
                    "given is the program's own")
    if case.check:
        problem = case.check(out, stdout)
        if problem:
            return problem
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "build", "examples"),
                    help="folder of the six programs (default build/examples)")
    ap.add_argument("--program", choices=PROGRAMS, help="only this program's cases")
    ap.add_argument("--class", dest="cls", choices=CLASSES,
                    help="only this class's cases (1-7, or a name of the third round: "
                         + ", ".join(ROUND3) + ")")
    ap.add_argument("--list", action="store_true", help="print the cases, run nothing")
    args = ap.parse_args(argv)
    every = CASES
    if args.cls in (None, "default"):
        every = every + default_cases(args.bin, [args.program] if args.program else PROGRAMS)
    cases = [c for c in every if (args.program in (None, c.program))
             and (args.cls in (None, c.cls))]
    if not cases:
        print("no case selected", file=sys.stderr)
        return 2
    if args.list:
        for c in cases:
            print(c.name())
        return 0
    work = tempfile.mkdtemp(prefix="dcon-hostile-")
    failures = 0
    try:
        fx = make_fixtures(work)
        for i, c in enumerate(cases):
            problem = run_case(c, args.bin, fx, work, i)
            print(("FAIL " if problem else "ok   ") + c.name()
                  + (f"\n     {problem}" if problem else ""), flush=True)
            failures += problem is not None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{len(cases) - failures} of {len(cases)} cases behaved")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

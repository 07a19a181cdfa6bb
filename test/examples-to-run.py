#! /usr/bin/env python3
# In-tree builds: the runs of dcon's examples that ns-3's test.py makes (configured with
# --enable-examples --enable-tests; ./test.py runs them with every other example, and
# ./test.py --example='contrib/dcon/*' only these). Each is a short run (a few seconds at most)
# that must exit with status 0. test.py runs them in testpy-output/<date and time>/, so the
# outputs go there and dcon-bench reads its inputs from ../../contrib/dcon/data/bench.
#
# A tuple: ("program arguments", "run condition", "condition to run it under valgrind").
# An example that is not built (dcon-mpi-check needs ns-3 configured with MPI) is left out by
# test.py. The ctest cases that check an example's output or refuse bad input (examples.*,
# hostile.*), the Python scripts' tests (python.*) and the runs on 2 MPI ranks (mpi.*) stay in
# the standalone build's ctest: test.py only looks at the exit status.

cpp_examples = [
    # The tutorial's examples (doc/usage/examples.rst), as documented.
    ("dcon-first --cc=dcqcn", "True", "True"),
    ("dcon-first --cc=hpcc --rate=100Gbps", "True", "True"),
    (
        "dcon-hpcc-files --topo=../../contrib/dcon/data/examples/leaf-spine-8.topo"
        " --flows=../../contrib/dcon/data/examples/mixed-8.flows --outdir=dcon-hpcc-files",
        "True",
        "True",
    ),
    ("dcon-spreading --outdir=dcon-spreading", "True", "True"),
    ("dcon-own-algorithm --set=gentle", "True", "True"),
    # The DCON paper's testbed scenario: all of Fig. 2's facts for DCQCN (--validate: exit 1
    # if one fails), and all of Fig. 6's facts for DCON with the 230 us burst (doc/validation/testbed.rst).
    ("dcon-testbed --cc=dcqcn --validate --outdir=dcon-testbed-dcqcn", "True", "False"),
    (
        "dcon-testbed --cc=dcon --burstInterval=230us --validate --outdir=dcon-testbed-dcon",
        "True",
        "False",
    ),
    # The paper's large-scale scenario on the small fabric (4 spines, 4 leaves, 12 hosts each),
    # 1 ms of WebSearch arrivals at core load 0.8, with DCON and with DCQCN.
    (
        "dcon-large-scale --scale=small --duration=1ms --outdir=dcon-large-scale-dcon",
        "True",
        "True",
    ),
    (
        "dcon-large-scale --scale=small --duration=1ms --cc=dcqcn"
        " --outdir=dcon-large-scale-dcqcn",
        "True",
        "True",
    ),
    # The speed benchmark on the HPCC simulator's 320-host fat-tree and its 2 ms flow file,
    # stopped 0.3 ms after the first flow start.
    (
        "dcon-bench --topo=../../contrib/dcon/data/bench/fat-tree-320.topo"
        " --flows=../../contrib/dcon/data/bench/websearch-30pct-2ms.flows --stopAt=2.0003s"
        " --outdir=dcon-bench-2ms",
        "True",
        "False",
    ),
    # IB CC sharing: one 1:2 ratio run and the tenant phases up to 2 flows, short.
    (
        "dcon-ibcc-share --ns=2 --duration=40 --phase=20 --tenantFlows=2"
        " --outdir=dcon-ibcc-share",
        "True",
        "True",
    ),
    # The RTT-PID incast with the shipped LSTM weights, flow sizes x 0.05.
    ("dcon-rttpid-incast --scale=0.05", "True", "True"),
    # The event-loop floor benchmark, 20,000 frame-hops.
    ("dcon-floor-bench --frameHops=20000 --inFlight=200 --nodes=50", "True", "True"),
    # The cross-rank frame check, run sequentially (one MPI rank, no mpirun): built only when
    # ns-3 is configured with MPI (scripts/setup-mpi.sh).
    ("dcon-mpi-check --out=dcon-mpi-check.txt", "True", "True"),
]

python_examples = []

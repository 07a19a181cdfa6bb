"""The large-scale figures of the DCON paper (Fig. 9-12) and their sensitivity runs: per figure,
its title, workload, scheme variants (scripts/variants.py), loads, kind of plot and the simulator
arguments every run of it adds. Shared by large_sweep.py, which runs them, and plot_large.py,
which draws them.
"""
import collections

Figure = collections.namedtuple("Figure", "title workload variants loads kind tag args",
                                defaults=("", ()))
# kind "lines": panels against load; "bars": grouped bars at the figure's load(s).
# loads None = the sweep's loads (--loads, default large_sweep.LOADS). tag, args: simulator arguments every
# run of the figure adds (e.g. a measurement), and the suffix they add to the run names.
FIGURES = collections.OrderedDict([
    ("fig9", Figure("Fig. 9: WebSearch", "websearch",
                    ["dcon", "dcqcn", "swift", "pcn", "dcon-raises"], None, "lines")),
    ("fig10", Figure("Fig. 10: DataMining", "datamining",
                     ["dcon", "dcqcn", "swift", "pcn", "dcon-raises"], None, "lines")),
    ("fig11", Figure("Fig. 11: WebSearch, DCON, Q_CNM", "websearch",
                     ["dcon-q0.4", "dcon-q0.6", "dcon"], None, "lines")),
    ("fig12", Figure("Fig. 12: WebSearch, DCON, CNM window T", "websearch",
                     ["dcon-T2", "dcon", "dcon-T4"], None, "lines")),
    ("sens", Figure("DCON's readings one at a time (sensitivity), WebSearch", "websearch",
                    ["dcon", "dcon-listing", "dcon-raises", "dcon-cnmrateonly",
                     "dcon-tlastport", "dcon-hyper", "dcon-m1", "dcon-m2", "dcon-mdesign",
                     "dcon-mqecn", "dcon-dynpfc", "dcon-dynpfc-m2", "dcon-markinburst",
                     "dcon-dcqcnsender",
                     "dcon-prev", "dcqcn", "dcqcn-dynpfc"], [0.8], "bars")),
    ("spread", Figure("Congestion spreading, WebSearch", "websearch",
                      ["dcon", "dcqcn", "swift", "pcn", "dcon-raises"], [0.8], "bars",
                      "spread", ("--spreading=true",))),
    ("swift", Figure("Swift settings, WebSearch", "websearch",
                     ["swift", "swift-t100", "swift-line", "swift-t100-line"], None, "bars")),
])
FIG_NAMES = list(FIGURES)

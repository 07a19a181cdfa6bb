/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Weighted bandwidth sharing with InfiniBand congestion control (--cc=ibcc) and per-QP
// CCTI_Increase, the claim of the IB partitioning paper ("Differentiated transport-layer
// bandwidth partitioning for InfiniBand data centers", NUDT; its Theorem 1 and tenant
// experiment):
//
// (a) two long flows from two hosts to a third through one switch (a 10 Gb/s bottleneck), flow
//     A with CCTI_Increase 1 and flow B with N: the paper says their rates converge to N : 1.
//     Prints the table of measured rate ratios A/B and BECN counts for each N.
// (b) tenants: tenant 1 has one flow; tenant 2 has 1, then 2, then 3 flows (one joins per
//     phase). A tenant manager sets each flow's CCTI_Increase = its tenant's flow count x
//     (largest weight / the tenant's weight), so each tenant keeps its weighted share whatever
//     its flow count. Prints tenant 1's share per phase and the BECNs of tenant 2's first flow
//     per 100 ms, next to the paper's hardware numbers (tenant 1 about 3.4 Gb/s of 10 Gb/s;
//     BECN 790 / 480 / 320 with 1 / 2 / 3 tenant-2 flows).
//
// Writes ibcc-ratio.csv, ibcc-tenant.csv and ibcc-tenant-series.csv (1 ms throughput samples)
// and run.json (the command line, the ns-3 version and the seeds) to --outdir, after removing
// those of an earlier run; scripts/plot_ibcc.py draws them. Every option is read whole and
// checked (doc/usage/command-line.rst).
#include "ns3/atomic-output-file.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/fabric-monitor.h"
#include "ns3/leaf-spine-helper.h"
#include "ns3/program-frame.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-ibcc.h"
#include "ns3/rdma-nic.h"
#include "ns3/scenario-attributes.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-queue-settings.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
uint32_t Increase(uint32_t flows, double wmax, double weight);

/// What the runs share.
struct Setup
{
    DataRate rate{"10Gbps"};              //!< every link
    Time delay{MicroSeconds(1)};          //!< every link
    uint32_t threshold{15};               //!< IbFecnQueueDisc::Threshold
    uint32_t markingRate{30};             //!< IbFecnQueueDisc::MarkingRate
    uint64_t flowBytes{1000000000000ULL}; //!< every flow's size: more than it can send in a run
};

/// The throughput sampling interval of every run (the rates are means of these samples).
const Time SAMPLE = MilliSeconds(1);

/// The network: one switch, \p hosts hosts; the last host receives.
struct Net
{
    Ptr<RdmaFabric> fabric;
    Ptr<RdmaFlowHelper> flows;
    Ptr<FabricMonitor> monitor;
    std::vector<uint32_t> hosts;
};

Net
Build(const Setup& s, uint32_t hosts)
{
    LeafSpineHelper ls(1, 1, hosts);
    ls.SetHostLink(s.rate, s.delay);
    ls.SetFabricLink(s.rate, s.delay);
    RdmaFabricHelper fh;
    fh.SetCongestionControl("ibcc");
    SwitchQueueSettings sw;
    sw.Apply(fh, "ibcc", s.delay, s.rate);
    fh.SetQueueDiscAttribute("Threshold", UintegerValue(s.threshold));
    fh.SetQueueDiscAttribute("MarkingRate", UintegerValue(s.markingRate));
    Net n;
    n.fabric = fh.Build(ls.GetTopology());
    n.flows = Create<RdmaFlowHelper>(n.fabric);
    n.flows->SetStopWhenDone(false);
    for (uint32_t i = 0; i < hosts; ++i)
    {
        n.hosts.push_back(ls.GetHost(0, i));
    }
    return n;
}

/// BECNs of a flow's sender so far (0 if the flow is not running).
uint64_t
Becns(const Net& n, uint32_t flowId, uint32_t src)
{
    Ptr<RdmaIbcc> cc = DynamicCast<RdmaIbcc>(n.fabric->GetNic(src)->GetSenderCongestionOps(flowId));
    return cc ? cc->GetBecnCount() : 0;
}

/// One row of the ratio table.
struct RatioRow
{
    uint32_t n;
    Reading a; //!< flow A's Gb/s over the run's second half
    Reading b; //!< flow B's
    uint64_t becnA;
    uint64_t becnB;
};

RatioRow
RunRatio(const Setup& s, uint32_t n, Time duration)
{
    Net net = Build(s, 3);
    const uint64_t size = s.flowBytes; // runs past the end
    uint32_t fa = net.flows->AddFlow(net.hosts[0], net.hosts[2], size, Time(0));
    uint32_t fb = net.flows->AddFlow(net.hosts[1], net.hosts[2], size, Time(0));
    net.flows->SetCcAttributes(fa, {{"CctiIncrease", "1"}});
    net.flows->SetCcAttributes(fb, {{"CctiIncrease", std::to_string(n)}});
    net.monitor = Create<FabricMonitor>(net.fabric, net.flows);
    net.monitor->AddThroughputFlow(fa);
    net.monitor->AddThroughputFlow(fb);
    net.monitor->Start(SAMPLE, duration);
    const Time from = duration / 2;
    uint64_t becnA0 = 0;
    uint64_t becnB0 = 0;
    Simulator::Schedule(from,
                        [&]
                        {
                            becnA0 = Becns(net, fa, net.hosts[0]);
                            becnB0 = Becns(net, fb, net.hosts[1]);
                        });
    RatioRow r{n, Reading(), Reading(), 0, 0};
    Simulator::Schedule(duration - NanoSeconds(1),
                        [&]
                        {
                            r.becnA = Becns(net, fa, net.hosts[0]) - becnA0;
                            r.becnB = Becns(net, fb, net.hosts[1]) - becnB0;
                        });
    Simulator::Stop(duration);
    Simulator::Run();
    r.a = net.monitor->MeasureThroughput(fa, from, duration);
    r.b = net.monitor->MeasureThroughput(fb, from, duration);
    Simulator::Destroy();
    return r;
}

/// One phase of the tenant run.
struct TenantRow
{
    uint32_t flows2;     //!< tenant 2's flows
    uint32_t inc2;       //!< their CCTI_Increase
    Reading tenant1;     //!< Gb/s
    Reading tenant2;     //!< Gb/s, all its flows
    double becnPer100ms; //!< of tenant 2's first flow
};

std::vector<TenantRow>
RunTenants(const Setup& s,
           uint32_t maxFlows2,
           double weight1,
           double weight2,
           Time phase,
           std::vector<std::vector<double>>& series)
{
    Net net = Build(s, maxFlows2 + 2);
    const uint32_t dst = net.hosts.back();
    const uint64_t size = s.flowBytes; // runs past the end
    const double wmax = std::max(weight1, weight2);
    auto increase = [wmax](uint32_t flows, double weight)
    {
        return Increase(flows, wmax, weight);
    };
    std::vector<uint32_t> ids;
    std::vector<uint32_t> srcs;
    ids.push_back(net.flows->AddFlow(net.hosts[0], dst, size, Time(0)));
    srcs.push_back(net.hosts[0]);
    net.flows->SetCcAttributes(ids[0], {{"CctiIncrease", std::to_string(increase(1, weight1))}});
    for (uint32_t k = 0; k < maxFlows2; ++k)
    {
        Time start = phase * static_cast<int64_t>(k);
        uint32_t id = net.flows->AddFlow(net.hosts[1 + k], dst, size, start);
        ids.push_back(id);
        srcs.push_back(net.hosts[1 + k]);
        net.flows->SetCcAttributes(id,
                                   {{"CctiIncrease", std::to_string(increase(k + 1, weight2))}});
        if (k > 0)
        {
            // The tenant manager: when tenant 2's (k+1)-th flow joins, its running flows take
            // the new CCTI_Increase too.
            Simulator::Schedule(start,
                                [&net, ids, srcs, k, inc = increase(k + 1, weight2)]
                                {
                                    for (uint32_t j = 1; j <= k; ++j)
                                    {
                                        Ptr<RdmaCongestionOps> cc
                                            = net.fabric->GetNic(srcs[j])->GetSenderCongestionOps(
                                                ids[j]);
                                        cc->SetAttribute("CctiIncrease", UintegerValue(inc));
                                    }
                                });
        }
    }
    const Time stop = phase * static_cast<int64_t>(maxFlows2);
    net.monitor = Create<FabricMonitor>(net.fabric, net.flows);
    for (uint32_t id : ids)
    {
        net.monitor->AddThroughputFlow(id);
    }
    net.monitor->Start(SAMPLE, stop);
    // BECNs of tenant 2's first flow over the second half of each phase
    std::vector<uint64_t> becnMarks(2 * maxFlows2, 0);
    for (uint32_t k = 0; k < maxFlows2; ++k)
    {
        for (uint32_t e = 0; e < 2; ++e)
        {
            Time at = phase * static_cast<int64_t>(k) + phase / 2 * static_cast<int64_t>(e + 1)
                      - NanoSeconds(e);
            Simulator::Schedule(at,
                                [&becnMarks, &net, &ids, &srcs, k, e]
                                {
                                    becnMarks[2 * k + e] = Becns(net, ids[1], srcs[1]);
                                });
        }
    }
    Simulator::Stop(stop);
    Simulator::Run();
    std::vector<TenantRow> rows;
    for (uint32_t k = 0; k < maxFlows2; ++k)
    {
        Time from = phase * static_cast<int64_t>(k) + phase / 2;
        Time to = phase * static_cast<int64_t>(k + 1);
        TenantRow r;
        r.flows2 = k + 1;
        r.inc2 = increase(k + 1, weight2);
        r.tenant1 = net.monitor->MeasureThroughput(ids[0], from, to);
        r.tenant2 = Reading::Of(0);
        for (uint32_t j = 1; j <= k + 1 && r.tenant2.IsMeasured(); ++j)
        {
            const Reading x = net.monitor->MeasureThroughput(ids[j], from, to);
            r.tenant2 = x.IsMeasured() ? Reading::Of(*r.tenant2.value + *x.value) : x;
        }
        double seconds = (to - from).GetSeconds();
        r.becnPer100ms = (becnMarks[2 * k + 1] - becnMarks[2 * k]) * 0.1 / seconds;
        rows.push_back(r);
    }
    series.clear();
    std::vector<std::map<int64_t, double>> tp; // per flow: sample time (ps) -> Gb/s
    for (uint32_t id : ids)
    {
        std::map<int64_t, double> m;
        for (const auto& [t, gbps] : net.monitor->GetThroughput(id))
        {
            m[t.GetPicoSeconds()] = gbps;
        }
        tp.push_back(m);
    }
    for (const auto& [t, gbps] : tp[0])
    {
        std::vector<double> row{t * 1e-9};
        for (const auto& f : tp)
        {
            auto it = f.find(t);
            row.push_back(it == f.end() ? 0.0 : it->second);
        }
        series.push_back(row);
    }
    Simulator::Destroy();
    return rows;
}

/// A reading in a table: the number with 2 decimals, or "-" when not measured (its reason is
/// printed below the tables).
std::string
Cell(const Reading& r)
{
    if (!r.IsMeasured())
    {
        return "-";
    }
    std::ostringstream os;
    os << std::fixed << std::setprecision(2) << *r.value;
    return os.str();
}

/// A reading in a CSV file: the number, or an empty field when not measured.
std::string
CsvCell(const Reading& r)
{
    if (!r.IsMeasured())
    {
        return "";
    }
    std::ostringstream os;
    os << *r.value;
    return os.str();
}

/// Parse "1,2,3,4" (each in 1..1000), the whole text: any other character is refused.
std::vector<uint32_t>
ParseNs(const std::string& text)
{
    std::vector<uint32_t> ns;
    std::stringstream ss(text);
    std::string tok;
    while (std::getline(ss, tok, ','))
    {
        std::optional<uint64_t> v = ReadDecimalUnsigned(tok, 1000);
        if (!v || *v < 1)
        {
            throw std::invalid_argument("--ns: N must be an integer in 1..1000, got "
                                        + QuoteText(tok) + " in " + QuoteText(text));
        }
        ns.push_back(static_cast<uint32_t>(*v));
    }
    if (ns.empty() || text.back() == ',')
    {
        throw std::invalid_argument(
            "--ns: expected N values separated by commas (e.g. 1,2,3,4), got " + QuoteText(text));
    }
    return ns;
}

/// CCTI_Increase = flows x (largest weight / weight), refused above the attribute's range.
uint32_t
Increase(uint32_t flows, double wmax, double weight)
{
    const double v = std::round(flows * wmax / weight);
    if (!(v <= std::numeric_limits<uint32_t>::max()))
    {
        std::ostringstream oss;
        oss << "the tenant weights give " << flows << " flow(s) of weight " << weight
            << " a CCTI_Increase of " << flows << " x " << wmax << " / " << weight << " = " << v
            << ", above 4294967295 (ns3::RdmaIbcc::CctiIncrease is 32-bit): use closer weights";
        throw std::invalid_argument(oss.str());
    }
    return std::max<uint32_t>(1, static_cast<uint32_t>(v));
}
} // namespace

int
main(int argc, char* argv[])
{
    ProgramFrame frame("dcon-ibcc-share", __FILE__);
    try
    {
        std::vector<uint32_t> nList{1, 2, 3, 4};
        uint32_t durationMs = 100;
        uint32_t phaseMs = 60;
        uint32_t tenantFlows = 3;
        double weight1 = 1;
        double weight2 = 1;
        std::string cct;
        bool timerReset = false;
        std::string mode = "all";
        std::string outdir = "ibcc-share";
        std::string rate = "10Gbps";
        Setup s;
        frame.AddOption(
            "ns",
            "CCTI_Increase of flow B in the ratio runs (flow A: 1), e.g. 1,2,3,4",
            [&nList](const std::string& text)
            {
                nList = ParseNs(text);
            },
            "1,2,3,4");
        frame.AddUnsigned("duration",
                          "Length of each ratio run in ms (rates over its 2nd half), 2..3600000",
                          durationMs,
                          2u,
                          3600000u);
        frame.AddUnsigned("phase",
                          "Length of each tenant phase in ms (shares over its 2nd half), "
                          "2..3600000",
                          phaseMs,
                          2u,
                          3600000u);
        frame.AddUnsigned(
            "tenantFlows", "Tenant 2's largest flow count, 1..1000", tenantFlows, 1u, 1000u);
        frame.AddDouble("weight1", "Tenant 1's weight (> 0)", weight1, 0, 1e300, true);
        frame.AddDouble("weight2", "Tenant 2's weight (> 0)", weight2, 0, 1e300, true);
        frame.AddOption(
            "rate",
            "Rate of every link",
            [&rate, &s](const std::string& text)
            {
                s.rate = ReadDataRateText(text, "--rate");
                if (s.rate.GetBitRate() == 0)
                {
                    throw std::invalid_argument("--rate: got " + QuoteText(text)
                                                + ", expected a rate > 0");
                }
                rate = text;
            },
            rate);
        frame.AddUnsigned("threshold", "Switch FECN threshold, 0..15", s.threshold, 0u, 15u);
        frame.AddUnsigned("markingRate",
                          "Switch marking rate (packets let through between marks)",
                          s.markingRate);
        frame.AddOption(
            "cct",
            "CC table: IRDs in us, ascending, separated by commas or spaces (empty: the IB "
            "partitioning paper's 14 i^2/1062 us)",
            [&cct](const std::string& text)
            {
                if (!text.empty())
                {
                    RdmaIbcc::ParseCct(text); // throws naming the bad entry
                }
                cct = text;
            },
            "");
        frame.AddFlag("timerReset",
                      "A BECN restarts the CCTI timer (the IB partitioning paper's Algorithm "
                      "1; default: IBA's periodic timer)",
                      timerReset);
        frame.AddChoice("mode", "all, ratio or tenant", mode, {"all", "ratio", "tenant"});
        frame.AddString("outdir", "Directory for the CSV files and run.json", outdir);
        // What the program sets itself: the switch settings of the scenarios, the queue's
        // threshold and marking rate, the per-flow CCTI_Increase.
        OwnScenarioAttributes(frame, "dcon-ibcc-share's switches use the scenarios' settings");
        frame.SetOwned("ns3::RdmaNic::CongestionControl", "dcon-ibcc-share runs --cc=ibcc");
        frame.SetOwned("ns3::IbFecnQueueDisc::Threshold", "use --threshold");
        frame.SetOwned("ns3::IbFecnQueueDisc::MarkingRate", "use --markingRate");
        frame.SetOwned("ns3::IbFecnQueueDisc::ThresholdStep",
                       "--cc=ibcc sets it per port rate (its registration)");
        frame.SetOwned(
            "ns3::RdmaIbcc::CctiIncrease",
            "each flow's is set from --ns and the tenant weights (--weight1, --weight2)");
        frame.Parse(argc, argv);
        frame.CheckUse(RdmaFabricHelper::GetCreatedTypes("ibcc", "ns3::IbFecnQueueDisc"),
                       "--cc=ibcc with ns3::IbFecnQueueDisc");
        if (mode == "tenant")
        {
            frame.RefuseGiven({"ns", "duration"}, "--mode=tenant runs no ratio run");
        }
        if (mode == "ratio")
        {
            frame.RefuseGiven({"phase", "tenantFlows", "weight1", "weight2"},
                              "--mode=ratio runs no tenant run");
        }
        const double wmax = std::max(weight1, weight2);
        Increase(1, wmax, weight1);
        for (uint32_t k = 1; k <= tenantFlows; ++k)
        {
            Increase(k, wmax, weight2);
        }
        if (!cct.empty())
        {
            frame.SetDefault("ns3::RdmaIbcc::Cct", StringValue(cct), "cct");
        }
        frame.SetDefault("ns3::RdmaIbcc::TimerResetOnBecn", BooleanValue(timerReset), "timerReset");
        // --rate, checked before any run: its flows must outlast the longest run (twice what the
        // line carries in it, at least 1 TB), and a reading needs a data frame per throughput
        // sample.
        const uint64_t longestMs
            = std::max<uint64_t>(mode != "tenant" ? durationMs : 0,
                                 mode != "ratio" ? uint64_t(phaseMs) * tenantFlows : 0);
        const long double need = static_cast<long double>(s.rate.GetBitRate()) / 8
                                 * static_cast<long double>(longestMs) / 1000 * 2;
        const long double maxFlow = static_cast<long double>(uint64_t(1) << 60);
        if (need > maxFlow)
        {
            std::ostringstream oss;
            oss << "--rate: got " << QuoteText(rate) << ", expected at most "
                << static_cast<uint64_t>(maxFlow * 8 * 1000 / 2
                                         / static_cast<long double>(longestMs))
                << "bps: the flows must outlast the longest run (" << longestMs
                << " ms) and the simulator holds flows of at most " << (uint64_t(1) << 60) << " B";
            throw std::invalid_argument(oss.str());
        }
        s.flowBytes = std::max<uint64_t>(s.flowBytes, static_cast<uint64_t>(std::ceil(need)));
        {
            // The scenarios are built once before any run (a setting they refuse is refused
            // now, not after the ratio runs): the network of the tenant run (the larger), whose
            // hosts give the size of a data frame on the wire.
            Net probe = Build(s, mode != "ratio" ? tenantFlows + 2 : 3);
            const Ptr<RdmaNic> nic = probe.fabric->GetNic(probe.hosts[0]);
            const uint64_t frameBits = uint64_t(nic->GetDataWireBytes(nic->GetMtu())) * 8;
            Simulator::Destroy();
            const uint64_t lowest = static_cast<uint64_t>(
                std::ceil(static_cast<double>(frameBits) / SAMPLE.GetSeconds()));
            if (s.rate.GetBitRate() < lowest)
            {
                throw std::invalid_argument(
                    "--rate: got " + QuoteText(rate) + ", expected at least "
                    + std::to_string(lowest) + "bps: the rates are read from " + FormatTime(SAMPLE)
                    + " throughput samples, and a slower link carries less than one "
                    + std::to_string(frameBits / 8) + "-byte data frame per sample");
            }
        }
        frame.PrepareOutputFolder(
            outdir, {"ibcc-ratio.csv", "ibcc-tenant.csv", "ibcc-tenant-series.csv", "run.json"});
        frame.ReadyToRun(std::string(mode == "tenant"  ? "the tenant run"
                                     : mode == "ratio" ? "the ratio runs"
                                                       : "the ratio runs and the tenant run")
                         + " at " + rate);
        std::cout << std::fixed << std::setprecision(2);
        std::vector<std::string> notes; // why readings were not measured ("-" in the tables)
        std::vector<std::unique_ptr<AtomicOutputFile>> files;
        if (mode != "tenant")
        {
            files.push_back(std::make_unique<AtomicOutputFile>(outdir + "/ibcc-ratio.csv"));
            std::ostream& csv = files.back()->Stream();
            csv.unsetf(std::ios::floatfield);
            csv << "n,inc_a,inc_b,gbps_a,gbps_b,ratio_a_over_b,becn_a,becn_b\n";
            std::cout << "Two flows, CCTI_Increase 1 : N, " << rate << " bottleneck, rates over ["
                      << durationMs / 2.0 << ", " << durationMs << ") ms\n";
            std::cout << "   N   A Gb/s   B Gb/s   A/B (claim N)   BECN A   BECN B\n";
            for (uint32_t n : nList)
            {
                RatioRow r = RunRatio(s, n, MilliSeconds(durationMs));
                // A/B over B's rate: not measured when a rate was not, or B sent nothing.
                Reading ratio = !r.a.IsMeasured()   ? r.a
                                : !r.b.IsMeasured() ? r.b
                                : *r.b.value > 0
                                    ? Reading::Of(*r.a.value / *r.b.value)
                                    : Reading::NotMeasured("flow B sent nothing in the window");
                std::cout << std::setw(4) << n << std::setw(9) << Cell(r.a) << std::setw(9)
                          << Cell(r.b) << std::setw(16) << Cell(ratio) << std::setw(9) << r.becnA
                          << std::setw(9) << r.becnB << "\n";
                csv << n << ",1," << n << "," << CsvCell(r.a) << "," << CsvCell(r.b) << ","
                    << CsvCell(ratio) << "," << r.becnA << "," << r.becnB << "\n";
                for (const Reading* x : std::initializer_list<const Reading*>{&r.a, &r.b, &ratio})
                {
                    if (!x->IsMeasured()
                        && std::find(notes.begin(), notes.end(), x->reason) == notes.end())
                    {
                        notes.push_back(x->reason);
                    }
                }
            }
        }
        if (mode != "ratio")
        {
            std::vector<std::vector<double>> series;
            std::vector<TenantRow> rows
                = RunTenants(s, tenantFlows, weight1, weight2, MilliSeconds(phaseMs), series);
            files.push_back(std::make_unique<AtomicOutputFile>(outdir + "/ibcc-tenant.csv"));
            std::ostream& csv = files.back()->Stream();
            csv.unsetf(std::ios::floatfield);
            csv << "tenant2_flows,tenant2_inc,tenant1_gbps,tenant2_gbps,tenant1_share,"
                   "becn_first_tenant2_flow_per_100ms,seed_becn_per_100ms\n";
            const double paperBecn[] = {790, 480, 320};
            std::cout << "Tenants (weights " << weight1 << " : " << weight2 << "), " << phaseMs
                      << " ms phases, shares over each phase's 2nd half\n";
            std::cout << "  tenant-2 flows  CCTI_Inc  tenant 1 Gb/s  tenant 2 Gb/s  tenant 1 share"
                         "  BECN/100ms (paper)\n";
            for (const TenantRow& r : rows)
            {
                // Tenant 1's share: not measured when a rate was not, or nothing was sent.
                Reading share
                    = !r.tenant1.IsMeasured()   ? r.tenant1
                      : !r.tenant2.IsMeasured() ? r.tenant2
                      : *r.tenant1.value + *r.tenant2.value > 0
                          ? Reading::Of(*r.tenant1.value / (*r.tenant1.value + *r.tenant2.value))
                          : Reading::NotMeasured("no tenant sent anything in the window");
                std::string paper = r.flows2 <= 3
                                        ? std::to_string(static_cast<int>(paperBecn[r.flows2 - 1]))
                                        : "-";
                std::cout << std::setw(16) << r.flows2 << std::setw(10) << r.inc2 << std::setw(15)
                          << Cell(r.tenant1) << std::setw(15) << Cell(r.tenant2) << std::setw(16)
                          << Cell(share) << std::setw(12) << r.becnPer100ms << " (" << paper
                          << ")\n";
                csv << r.flows2 << "," << r.inc2 << "," << CsvCell(r.tenant1) << ","
                    << CsvCell(r.tenant2) << "," << CsvCell(share) << "," << r.becnPer100ms << ","
                    << (r.flows2 <= 3 ? paper : "") << "\n";
                for (const Reading* x :
                     std::initializer_list<const Reading*>{&r.tenant1, &r.tenant2, &share})
                {
                    if (!x->IsMeasured()
                        && std::find(notes.begin(), notes.end(), x->reason) == notes.end())
                    {
                        notes.push_back(x->reason);
                    }
                }
            }
            std::cout << "paper (10 Gb/s hardware): tenant 1 about 3.4 Gb/s throughout\n";
            files.push_back(std::make_unique<AtomicOutputFile>(outdir + "/ibcc-tenant-series.csv"));
            std::ostream& ts = files.back()->Stream();
            ts.unsetf(std::ios::floatfield);
            ts << "time_ms,tenant1";
            for (uint32_t k = 0; k < tenantFlows; ++k)
            {
                ts << ",tenant2_flow" << k + 1;
            }
            ts << "\n";
            for (const auto& row : series)
            {
                for (size_t i = 0; i < row.size(); ++i)
                {
                    ts << (i ? "," : "") << row[i];
                }
                ts << "\n";
            }
        }
        frame.WriteRunJson(outdir, "  \"cc\": \"ibcc\",\n  \"mode\": " + JsonString(mode));
        for (auto& f : files)
        {
            f->Commit(); // throws naming the file if it could not be written
        }
        for (const std::string& why : notes)
        {
            std::cout << "not measured (-): " << why << "\n";
        }
        std::cout << "CSV files in " << outdir << "\n";
    }
    catch (const std::exception& e)
    {
        return ProgramFrame::Fail(e);
    }
    return 0;
}

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The RTT-PID thesis's incast test (its 4.1.2): 20 senders -> 1 switch -> 1 receiver, 100 Gb/s
// links; sender 0..2 send 200, 200 and 150 MB, senders 3..19 send 5 MB each, all from t = 0. Prints
// the statistics of the thesis's tables 4 and 6 (mean / 99th / max of the per-RTT samples, mean
// rate = sum of sizes / sum of FCTs (eq. 30), mean FCT (eq. 32), finish time (eq. 33)) next to its
// numbers for LSTM+PID at rtt_target 5 us. --rttTrace writes the per-RTT samples of every
// flow as CSV (for scripts/train_rtt_predictor.py); --outdir writes run.json and summary.json
// (the table). Every option is read whole and checked (doc/usage/command-line.rst).
//
//   build/examples/dcon-rttpid-incast                       # LSTM + PID, shipped weights
//   build/examples/dcon-rttpid-incast --predictor=none      # PID on the measured RTT
//   build/examples/dcon-rttpid-incast --scale=0.05          # sizes x 0.05 (quick)
//   build/examples/dcon-rttpid-incast --cc=timely --rttTrace=timely.csv
#include "ns3/atomic-output-file.h"
#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/input-file.h"
#include "ns3/lstm-predictor.h"
#include "ns3/output-files.h"
#include "ns3/program-frame.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/rdma-rtt-pid.h"
#include "ns3/scenario-attributes.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/switch-queue-settings.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

using namespace ns3;

namespace
{
#ifdef DCON_EXAMPLE_DATA_DIR
const std::string kDefaultWeights
    = std::string(DCON_EXAMPLE_DATA_DIR) + "/rtt-predictor/lstm-weights.txt";
#else
const std::string kDefaultWeights = "data/rtt-predictor/lstm-weights.txt";
#endif

/// Per-RTT samples of one flow, taken from the NIC's per-ACK samples the way the RTT-PID thesis
/// (3.2) times packets: a sample counts if its packet was sent after the previous counted sample
/// arrived (send time = now - rtt).
struct RttCollector
{
    uint32_t flow{0};
    Ptr<RdmaRttPid> pid; //!< the flow's controller (--cc=rttpid)
    Time lastSample{Time(-1)};
    std::vector<double>* all{nullptr}; //!< every counted sample, us
    std::ofstream* csv{nullptr};

    void
    OnSample(Time rtt)
    {
        Time now = Simulator::Now();
        if (lastSample.IsPositive() && now - rtt < lastSample)
        {
            return;
        }
        lastSample = now;
        all->push_back(rtt.GetSeconds() * 1e6);
        if (csv)
        {
            *csv << flow << "," << now.GetPicoSeconds() / 1000 << "," << rtt.GetPicoSeconds() / 1000
                 << "\n";
        }
    }
};
} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);
    RdmaFabricHelper::UseFastScheduler();
    ProgramFrame frame("dcon-rttpid-incast", __FILE__);
    try
    {
        std::string cc = "rttpid";
        std::string predictor = kDefaultWeights;
        std::string gains = "tuned";
        std::string rttTrace;
        std::string outdir;
        double scale = 1.0;
        Time target = MicroSeconds(5);
        Time linkDelay = MicroSeconds(1);
        DataRate rate("100Gbps");
        SwitchQueueSettings sw;
        sw.bufferSize = QueueSize("32MB");
        frame.AddCcOptions(cc);
        frame.AddOption(
            "predictor",
            "rttpid: LSTM weight file, or 'none' for the PID on the measured RTT",
            [&predictor](const std::string& text)
            {
                if (text != "none")
                {
                    CheckInputFile(text, "--predictor");
                }
                predictor = text;
            },
            predictor);
        frame.AddChoice(
            "gains",
            "rttpid: 'tuned' = the RTT-PID thesis's trained gains [-0.358, -0.060, 0.040] "
            "fixed (its incast runs); 'initial' = the attribute defaults with online tuning",
            gains,
            {"tuned", "initial"});
        frame.AddTime("target",
                      "rttpid: RTT target (> 0)",
                      target,
                      Time(0),
                      ProgramFrame::GetMaxRunTime(),
                      true);
        for (const char* o : {"predictor", "gains", "target"})
        {
            frame.SetOptionTypes(o, {"ns3::RdmaRttPid"});
        }
        frame.AddDouble(
            "scale",
            "Multiply every flow size by this, in (0, 1000] (1 = the RTT-PID thesis's sizes)",
            scale,
            0,
            1000,
            true);
        frame.AddTime(
            "linkDelay", "One-way delay of each link (>= 0)", linkDelay, Time(0), Seconds(1));
        frame.AddDataRate("rate", "Link rate (> 0)", rate, DataRate(1));
        frame.AddOption(
            "rttTrace",
            "Write the per-RTT samples as CSV flow,time_ns,rtt_ns",
            [&rttTrace](const std::string& text)
            {
                CheckOutputFile(text, "--rttTrace");
                rttTrace = text;
            },
            "");
        frame.AddString(
            "outdir", "If set, write run.json and summary.json (the table below) here", outdir);
        sw.AddCommandLineOptions(frame);
        OwnScenarioAttributes(frame);
        frame.Parse(argc, argv);
        sw.explicitOptions = frame.GetGivenOptions();
        const std::string queue = sw.GetQueueDisc(cc);
        frame.CheckUse(RdmaFabricHelper::GetCreatedTypes(cc, queue),
                       "--cc=" + cc + " with " + queue);
        const TypeId tid = RdmaCongestionOps::LookupTypeId(cc);
        const bool pid = tid == RdmaRttPid::GetTypeId();
        if (pid)
        {
            frame.SetDefault("ns3::RdmaRttPid::Target", TimeValue(target), "target");
            frame.SetDefault("ns3::RdmaRttPid::PredictorFile",
                             StringValue(predictor == "none" ? "" : predictor),
                             "predictor");
        }
        // The algorithm's parameter set: RTT-PID's from --gains, DCQCN's "paper" (the first
        // set of an algorithm that has sets) for the others; applied to the NICs' factories,
        // where a --ns3:: argument the user gives wins.
        const RdmaCcEntry entry = RdmaCcRegistry::Lookup(cc);
        const std::string parameterSet
            = pid ? gains : (entry.parameterSets.empty() ? "" : entry.parameterSets.front().name);
        if (!outdir.empty())
        {
            frame.PrepareOutputFolder(outdir, {"run.json", "summary.json"});
        }
        if (pid)
        {
            // What runs: the parameter set, the user's --ns3:: arguments, the defaults.
            const auto setValues = entry.GetParameterValues(parameterSet, rate);
            auto value = [&setValues](const std::string& name)
            {
                TypeId tid = RdmaRttPid::GetTypeId();
                for (const auto& [attribute, text] : setValues)
                {
                    if (attribute == name && !IsUserAttribute(tid, name))
                    {
                        return text;
                    }
                }
                TypeId::AttributeInformation info;
                tid.LookupAttributeByName(name, &info);
                return info.initialValue->SerializeToString(info.checker);
            };
            const std::string file = value("PredictorFile");
            std::cout << "rttpid: predictor "
                      << (file.empty() ? "none (the PID runs on the measured RTT)" : file)
                      << "; gains " << value("Kp") << " " << value("Ki") << " " << value("Kd")
                      << (value("GainTuning") == "true" ? ", tuned online" : ", fixed")
                      << "; target " << Time(value("Target")).As(Time::US) << "\n";
            if (!file.empty())
            {
                LstmPredictor::LoadCached(file); // refused here, naming the file, before the run
            }
        }
        // 20 senders (0..19), the receiver (20), the switch (21).
        TopologySpec topo;
        topo.nNodes = 22;
        topo.isSwitch.assign(22, false);
        topo.isSwitch[21] = true;
        for (uint32_t h = 0; h <= 20; ++h)
        {
            topo.links.push_back({h, 21, rate, linkDelay});
        }
        RdmaFabricHelper fh;
        fh.SetCongestionControl(cc, parameterSet);
        sw.Apply(fh, cc, linkDelay, rate);
        Ptr<RdmaFabric> f = fh.Build(topo);
        Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
        const uint64_t mb = 1000000;
        std::vector<uint64_t> sizes{200 * mb, 200 * mb, 150 * mb};
        sizes.resize(20, 5 * mb);
        for (auto& s : sizes)
        {
            s = std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(s * scale)));
        }
        std::vector<double> rtts;
        std::unique_ptr<AtomicOutputFile> trace;
        if (!rttTrace.empty())
        {
            trace = std::make_unique<AtomicOutputFile>(rttTrace); // throws naming the file
            trace->Stream().unsetf(std::ios::floatfield);
            trace->Stream() << "flow,time_ns,rtt_ns\n";
        }
        std::vector<RttCollector> collectors(20);
        for (uint32_t h = 0; h < 20; ++h)
        {
            collectors[h].flow = flows->AddFlow(h, 20, sizes[h], Time(0));
            collectors[h].all = &rtts;
            collectors[h].csv = trace ? &trace->Stream() : nullptr;
        }
        for (uint32_t h = 0; h < 20; ++h)
        {
            f->GetNic(h)->TraceConnectWithoutContext(
                "FlowStart",
                MakeBoundCallback(
                    +[](RttCollector* c, uint32_t id, Ptr<RdmaFlowState> s)
                    {
                        if (id == c->flow)
                        {
                            c->pid = s->GetObject<RdmaRttPid>();
                            s->TraceConnectWithoutContext("RttSample",
                                                          MakeCallback(&RttCollector::OnSample, c));
                        }
                    },
                    &collectors[h]));
        }
        std::vector<double> fcts(20, 0);
        uint32_t done = 0;
        std::pair<std::vector<double>*, uint32_t*> sink(&fcts, &done);
        for (uint32_t h = 0; h < 20; ++h)
        {
            f->GetNic(h)->TraceConnectWithoutContext(
                "FlowComplete",
                MakeBoundCallback(
                    +[](std::pair<std::vector<double>*, uint32_t*>* p, const RdmaFlowRecord& r)
                    {
                        (*p->first)[r.flowId] = (r.end - r.start).GetSeconds();
                        (*p->second)++;
                    },
                    &sink));
        }
        Simulator::Stop(Seconds(10));
        Simulator::Run();
        uint64_t pauses = 0;
        for (const auto& l : f->GetLinks())
        {
            pauses += l.devA->GetStats().pauseSent + l.devB->GetStats().pauseSent;
        }
        std::ostringstream gainText;
        if (pid && gains == "initial")
        {
            gainText << "gains at the end (Kp Ki Kd):";
            for (uint32_t i : {0u, 1u, 2u, 3u})
            {
                std::vector<double> g = collectors[i].pid->GetGains();
                gainText << " flow " << i << " [" << g[0] << " " << g[1] << " " << g[2] << "] ("
                         << collectors[i].pid->GetSamples() << " samples)" << (i < 3 ? ";" : "\n");
            }
        }
        for (auto& c : collectors)
        {
            c.pid = nullptr;
        }
        Simulator::Destroy();
        if (done != 20)
        {
            throw std::runtime_error("only " + std::to_string(done)
                                     + " of 20 flows completed by 10 s");
        }
        double sumSize = 0;
        double sumFct = 0;
        double maxFct = 0;
        for (uint32_t i = 0; i < 20; ++i)
        {
            sumSize += static_cast<double>(sizes[i]);
            sumFct += fcts[i];
            maxFct = std::max(maxFct, fcts[i]);
        }
        std::sort(rtts.begin(), rtts.end());
        double mean = 0;
        for (double r : rtts)
        {
            mean += r;
        }
        auto pct = [&rtts](double p)
        {
            if (rtts.empty())
            {
                return 0.0;
            }
            size_t i = static_cast<size_t>(std::ceil(p * static_cast<double>(rtts.size()))) - 1;
            return rtts[std::min(i, rtts.size() - 1)];
        };
        char line[512];
        std::cout << "cc " << cc << ", sizes x " << scale << ", link delay "
                  << linkDelay.As(Time::US) << ", " << rtts.size() << " per-RTT samples, " << pauses
                  << " PAUSE frames\n";
        std::printf("%-22s %10s %10s\n", "", "this run", "thesis");
        std::snprintf(line,
                      sizeof line,
                      "%-22s %10.3f %10s\n",
                      "mean RTT (us)",
                      rtts.empty() ? 0.0 : mean / static_cast<double>(rtts.size()),
                      "5.03");
        std::cout << line;
        std::snprintf(line, sizeof line, "%-22s %10.3f %10s\n", "99th RTT (us)", pct(0.99), "6.28");
        std::cout << line;
        std::snprintf(line,
                      sizeof line,
                      "%-22s %10.3f %10s\n",
                      "max RTT (us)",
                      rtts.empty() ? 0.0 : rtts.back(),
                      "21.1");
        std::cout << line;
        std::snprintf(line,
                      sizeof line,
                      "%-22s %10.3f %10s\n",
                      "mean rate (Gb/s)",
                      sumSize * 8 / sumFct / 1e9,
                      "21.2");
        std::cout << line;
        std::snprintf(
            line, sizeof line, "%-22s %10.3f %10s\n", "mean FCT (ms)", sumFct / 20 * 1e3, "11.99");
        std::cout << line;
        std::snprintf(
            line, sizeof line, "%-22s %10.3f %10s\n", "finish time (ms)", maxFct * 1e3, "53.76");
        std::cout << line;
        double smallSum = 0;
        double smallMax = 0;
        for (uint32_t i = 3; i < 20; ++i)
        {
            smallSum += fcts[i];
            smallMax = std::max(smallMax, fcts[i]);
        }
        std::snprintf(line,
                      sizeof line,
                      "FCT (ms): flows 0-2 %.3f %.3f %.3f; flows 3-19 mean %.3f, max %.3f\n",
                      fcts[0] * 1e3,
                      fcts[1] * 1e3,
                      fcts[2] * 1e3,
                      smallSum / 17 * 1e3,
                      smallMax * 1e3);
        std::cout << line << gainText.str();
        if (trace)
        {
            trace->Commit(); // throws naming the file if it could not be written
            std::cout << "per-RTT samples in " << rttTrace << "\n";
        }
        if (!outdir.empty())
        {
            std::ostringstream json;
            json.precision(12);
            json << "{\n  \"cc\": " << JsonString(cc) << ",\n  \"scale\": " << scale
                 << ",\n  \"samples\": " << rtts.size() << ",\n  \"pause_frames\": " << pauses
                 << ",\n  \"mean_rtt_us\": "
                 << (rtts.empty() ? 0.0 : mean / static_cast<double>(rtts.size()))
                 << ",\n  \"p99_rtt_us\": " << pct(0.99)
                 << ",\n  \"max_rtt_us\": " << (rtts.empty() ? 0.0 : rtts.back())
                 << ",\n  \"mean_rate_gbps\": " << sumSize * 8 / sumFct / 1e9
                 << ",\n  \"mean_fct_ms\": " << sumFct / 20 * 1e3
                 << ",\n  \"finish_time_ms\": " << maxFct * 1e3 << ",\n  \"fct_ms\": [";
            for (uint32_t i = 0; i < 20; ++i)
            {
                json << (i ? ", " : "") << fcts[i] * 1e3;
            }
            json << "]\n}\n";
            frame.WriteRunJson(outdir, "  \"cc\": " + JsonString(cc));
            WriteTextFile(outdir + "/summary.json", json.str()); // last: the run is complete
            std::cout << "results in " << outdir << "\n";
        }
    }
    catch (const std::exception& e)
    {
        return ProgramFrame::Fail(e);
    }
    return 0;
}

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
#include "ns3/fabric-monitor.h"
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
#include <tuple>
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

/// The run stops at this time whatever happens (every flow normally completes long before).
const Time RUN_LIMIT = Seconds(10);

/// Per-RTT samples of one flow, taken from the NIC's per-ACK samples the way the RTT-PID thesis
/// (3.2) times packets: a sample counts if its packet was sent after the previous counted sample
/// arrived (send time = now - rtt).
struct RttCollector
{
    uint32_t flow{0};
    Ptr<RdmaRttPid> pid; //!< the flow's controller (--cc=rttpid)
    Time lastSample{Time(-1)};
    std::vector<double>* all{nullptr}; //!< every counted sample, us
    std::ostream* csv{nullptr};

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
            "Write the per-RTT samples as CSV flow,time_ns,rtt_ns (empty: none)",
            [&rttTrace](const std::string& text)
            {
                if (!text.empty()) // (empty, the default: no trace)
                {
                    CheckOutputFile(text, "--rttTrace");
                }
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
                // Refused here, before the run, naming the option that gave the file.
                try
                {
                    LstmPredictor::LoadCached(file);
                }
                catch (const std::invalid_argument& e)
                {
                    const std::string prefix = "LstmPredictor: ";
                    std::string what = e.what();
                    if (what.compare(0, prefix.size(), prefix) == 0)
                    {
                        what.erase(0, prefix.size());
                    }
                    throw std::invalid_argument(
                        (IsUserAttribute(RdmaRttPid::GetTypeId(), "PredictorFile")
                             ? "--ns3::RdmaRttPid::PredictorFile: "
                             : "--predictor: ")
                        + what);
                }
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
        // The run stops at 10 s: every byte reaches the receiver over its one link, so the
        // flows cannot finish before total bytes / --rate. Refused before the run when that is
        // beyond the stop (naming the lowest --rate, or the --scale, that fits).
        {
            long double total = 0;
            for (uint64_t sz : sizes)
            {
                total += static_cast<long double>(sz);
            }
            const long double seconds = total * 8 / static_cast<long double>(rate.GetBitRate());
            if (seconds > static_cast<long double>(RUN_LIMIT.GetSeconds()))
            {
                const auto lowest = static_cast<uint64_t>(
                    std::ceil(total * 8 / static_cast<long double>(RUN_LIMIT.GetSeconds())));
                std::ostringstream oss;
                oss << "--rate: " << rate.GetBitRate()
                    << " bit/s is too slow for this run: its 20 flows ("
                    << static_cast<double>(total) << " bytes at --scale=" << FormatNumber(scale)
                    << ") all go to one receiver over one link, which takes at least "
                    << static_cast<double>(seconds) << " s, beyond the run's limit of "
                    << FormatTime(RUN_LIMIT) << ": give --rate=" << lowest
                    << "bps or more (or a smaller --scale)";
                throw std::invalid_argument(oss.str());
            }
        }
        std::vector<double> rtts;
        std::vector<RttCollector> collectors(20);
        for (uint32_t h = 0; h < 20; ++h)
        {
            collectors[h].flow = flows->AddFlow(h, 20, sizes[h], Time(0));
            collectors[h].all = &rtts;
        }
        if (!outdir.empty())
        {
            frame.PrepareOutputFolder(outdir, {"run.json", "summary.json"});
        }
        frame.ReadyToRun("the incast of 20 flows with --cc=" + cc);
        std::unique_ptr<AtomicOutputFile> trace;
        if (!rttTrace.empty())
        {
            trace = std::make_unique<AtomicOutputFile>(rttTrace); // throws naming the file
            trace->Stream().unsetf(std::ios::floatfield);
            trace->Stream() << "flow,time_ns,rtt_ns\n";
            for (RttCollector& c : collectors)
            {
                c.csv = &trace->Stream();
            }
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
        Simulator::Stop(RUN_LIMIT);
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
        // The readings: over the per-RTT samples, and over the flows' FCTs (those that need
        // every flow are not measured when one did not complete by the stop).
        const bool complete = done == 20;
        const std::string unfinished = std::to_string(20 - done)
                                       + " of the 20 flows did not "
                                         "complete by "
                                       + FormatTime(RUN_LIMIT);
        std::vector<Reading> fct(20);
        for (uint32_t i = 0; i < 20; ++i)
        {
            fct[i] = fcts[i] > 0
                         ? Reading::Of(fcts[i] * 1e3)
                         : Reading::NotMeasured("flow " + std::to_string(i)
                                                + " did not complete by " + FormatTime(RUN_LIMIT));
        }
        std::sort(rtts.begin(), rtts.end());
        const std::string noSample = "no per-RTT sample was taken";
        Reading meanRtt = Reading::NotMeasured(noSample);
        Reading p99Rtt = Reading::NotMeasured(noSample);
        Reading maxRtt = Reading::NotMeasured(noSample);
        if (!rtts.empty())
        {
            double sum = 0;
            for (double r : rtts)
            {
                sum += r;
            }
            meanRtt = Reading::Of(sum / static_cast<double>(rtts.size()));
            size_t i = static_cast<size_t>(std::ceil(0.99 * static_cast<double>(rtts.size()))) - 1;
            p99Rtt = Reading::Of(rtts[std::min(i, rtts.size() - 1)]);
            maxRtt = Reading::Of(rtts.back());
        }
        Reading meanRate = Reading::NotMeasured(unfinished);
        Reading meanFct = Reading::NotMeasured(unfinished);
        Reading finish = Reading::NotMeasured(unfinished);
        Reading smallMean = Reading::NotMeasured(unfinished);
        Reading smallMax = Reading::NotMeasured(unfinished);
        if (complete)
        {
            double sumSize = 0;
            double sumFct = 0;
            double maxFct = 0;
            for (uint32_t i = 0; i < 20; ++i)
            {
                sumSize += static_cast<double>(sizes[i]);
                sumFct += fcts[i];
                maxFct = std::max(maxFct, fcts[i]);
            }
            double sSum = 0;
            double sMax = 0;
            for (uint32_t i = 3; i < 20; ++i)
            {
                sSum += fcts[i];
                sMax = std::max(sMax, fcts[i]);
            }
            meanRate = Reading::Of(sumSize * 8 / sumFct / 1e9);
            meanFct = Reading::Of(sumFct / 20 * 1e3);
            finish = Reading::Of(maxFct * 1e3);
            smallMean = Reading::Of(sSum / 17 * 1e3);
            smallMax = Reading::Of(sMax * 1e3);
        }
        // A number with 3 decimals, or "not measured" (its reason printed below the table).
        auto cell = [](const Reading& r)
        {
            char buf[64];
            if (r.IsMeasured())
            {
                std::snprintf(buf, sizeof buf, "%.3f", *r.value);
            }
            else
            {
                std::snprintf(buf, sizeof buf, "%s", "-");
            }
            return std::string(buf);
        };
        char line[512];
        std::cout << "cc " << cc << ", sizes x " << scale << ", link delay "
                  << linkDelay.As(Time::US) << ", " << rtts.size() << " per-RTT samples, " << pauses
                  << " PAUSE frames\n";
        std::printf("%-22s %10s %10s\n", "", "this run", "thesis");
        for (const auto& [name, r, thesis] :
             std::vector<std::tuple<const char*, const Reading*, const char*>>{
                 {"mean RTT (us)", &meanRtt, "5.03"},
                 {"99th RTT (us)", &p99Rtt, "6.28"},
                 {"max RTT (us)", &maxRtt, "21.1"},
                 {"mean rate (Gb/s)", &meanRate, "21.2"},
                 {"mean FCT (ms)", &meanFct, "11.99"},
                 {"finish time (ms)", &finish, "53.76"}})
        {
            std::snprintf(line, sizeof line, "%-22s %10s %10s\n", name, cell(*r).c_str(), thesis);
            std::cout << line;
        }
        std::cout << "FCT (ms): flows 0-2 " << cell(fct[0]) << " " << cell(fct[1]) << " "
                  << cell(fct[2]) << "; flows 3-19 mean " << cell(smallMean) << ", max "
                  << cell(smallMax) << "\n"
                  << gainText.str();
        if (rtts.empty())
        {
            std::cout << "RTT readings not measured: " << noSample << "\n";
        }
        if (!complete)
        {
            std::cout << "FCT readings not measured: " << unfinished << "\n";
        }
        if (trace)
        {
            trace->Commit(); // throws naming the file and the reason if it could not be written
            std::cout << "per-RTT samples in " << rttTrace << "\n";
        }
        if (!outdir.empty())
        {
            // A reading that was not measured is null, its reason in "not_measured".
            std::ostringstream json;
            json << "{\n  \"cc\": " << JsonString(cc) << ",\n  \"scale\": " << FormatNumber(scale)
                 << ",\n  \"complete\": " << (complete ? "true" : "false")
                 << ",\n  \"flows_completed\": " << done << ",\n  \"samples\": " << rtts.size()
                 << ",\n  \"pause_frames\": " << pauses
                 << ",\n  \"mean_rtt_us\": " << meanRtt.ToJson(12)
                 << ",\n  \"p99_rtt_us\": " << p99Rtt.ToJson(12)
                 << ",\n  \"max_rtt_us\": " << maxRtt.ToJson(12)
                 << ",\n  \"mean_rate_gbps\": " << meanRate.ToJson(12)
                 << ",\n  \"mean_fct_ms\": " << meanFct.ToJson(12)
                 << ",\n  \"finish_time_ms\": " << finish.ToJson(12) << ",\n  \"fct_ms\": [";
            for (uint32_t i = 0; i < 20; ++i)
            {
                json << (i ? ", " : "") << fct[i].ToJson(12);
            }
            json << "],\n  \"not_measured\": {";
            bool first = true;
            for (const auto& [key, r] :
                 std::vector<std::pair<const char*, const Reading*>>{{"mean_rtt_us", &meanRtt},
                                                                     {"p99_rtt_us", &p99Rtt},
                                                                     {"max_rtt_us", &maxRtt},
                                                                     {"mean_rate_gbps", &meanRate},
                                                                     {"mean_fct_ms", &meanFct},
                                                                     {"finish_time_ms", &finish}})
            {
                if (!r->IsMeasured())
                {
                    json << (first ? "" : ", ") << "\"" << key << "\": " << JsonString(r->reason);
                    first = false;
                }
            }
            json << "}\n}\n";
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

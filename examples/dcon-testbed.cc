/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */

// The DCON paper's testbed burst scenario (Hu et al., Acta Electronica Sinica 2023): Fig. 1/2
// with DCQCN, Fig. 6 with DCON.
//
//                 S0            S1          every leaf links to every spine;
//           L0          L1          L2      every link 40 Gb/s, 5 us (base RTT about 40 us)
//   H0 H2 .. H14   H1 H3 .. H15    R0  R1
//
// f0 = H0 -> R0 and f1 = H1 -> R1 run from t = 0, pinned through S1, so they share L2's
// ingress from S1 (P1/L2); they start at their fair share (20 Gb/s on the wire;
// --longFlowStartRate=0: at line rate, converging by running). At --burstStart (30 ms),
// H2..H15 each send 35 flows of 64 KB to R1, one every 15 us (--burstInterval; the paper's
// Fig. 7 default; 230us spreads them over the paper's "8 ms"), each at line rate, spread over
// both spines by ECMP (--burstViaS0 pins the burst through S0). The placement is our reading of
// the paper's text (see experiments/dcon-testbed.h and doc/cc/dcon.rst). Switches: 22 MB shared
// buffer, static PFC pause threshold 320 KB per ingress port; DCQCN's RED 5/200 KB, 1%; DCON's
// Q_ECN 200 KB (the paper's "ECN threshold 200 KB").
//
// Expected with --cc=dcqcn (Fig. 2): L2's egress to R1 (P2/L2) fills, L2's ingress from S1
// (P1/L2) reaches the PFC threshold, L2 pauses S1 and S1 pauses L0 and L1 (congestion
// spreading); f0 and f1 collapse during the burst and recover after it. With --cc=dcon
// (Fig. 6): f1 is throttled by CNMs; f0 is far less hurt and recovers; L2 still pauses S1 with
// the 15 us burst through both spines (doc/validation/testbed.rst).
//
// Output (--outdir, default results/testbed-<cc>): flows.csv, pfc.csv, queues.csv,
// throughput.csv, drops.csv, facts.json (the readings and Fig. 2's and Fig. 6's facts), with
// DCON cnm.csv, run.json (the command line, ns-3 version and seeds) and summary.json (last);
// the files of an earlier run in the folder are removed first. scripts/plot_testbed.py draws
// the figure. Every option is read whole and checked (doc/usage/command-line.rst).
// --validate checks the expected facts above and exits non-zero if one does not hold.

#include "ns3/dcon-testbed.h"

#include "ns3/atomic-output-file.h"
#include "ns3/core-module.h"
#include "ns3/dcon-recorder.h"
#include "ns3/parallel-options.h"
#include "ns3/parallel-run.h"
#include "ns3/pfc-helper.h"
#include "ns3/program-frame.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/scenario-attributes.h"
#include "ns3/value-text.h"

#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    ParallelRun::Init(&argc, &argv); // MPI builds: mpirun -np N runs one simulation on N ranks
    Time::SetResolution(Time::PS);
    RdmaFabricHelper::UseFastScheduler(); // before Parse: --SchedulerType overrides
    ProgramFrame frame("dcon-testbed", __FILE__);
    try
    {
        DconTestbedConfig cfg;
        bool validate = false;
        frame.AddCcOptions(cfg.cc);
        frame.AddChoice(
            "dcqcnPreset", "DCQCN parameter set: paper or cx4", cfg.dcqcnPreset, {"paper", "cx4"});
        frame.SetOptionTypes("dcqcnPreset", ParameterSetUsers("paper"));
        frame.AddString("outdir", "Output directory (default results/testbed-<cc>)", cfg.outdir);
        frame.AddTime("burstStart", "Start of the burst", cfg.burstStart, Time(0));
        frame.AddUnsigned("burstFlowsPerHost",
                          "Burst flows per sender (at most 1000000)",
                          cfg.burstFlowsPerHost,
                          0u,
                          1000000u);
        frame.AddUnsigned("burstFlowSize", "Bytes per burst flow", cfg.burstFlowSize, uint64_t(1));
        frame.AddTime(
            "burstInterval", "Spacing of one sender's burst flows", cfg.burstInterval, Time(0));
        frame.AddTime("stopTime",
                      "End of the run (a limit with --runToCompletion)",
                      cfg.stopTime,
                      Time(0),
                      ProgramFrame::GetMaxRunTime(),
                      true);
        frame.AddFlag("runToCompletion", "Stop when every flow has completed", cfg.runToCompletion);
        frame.AddUnsigned("longFlowSize", "Bytes of f0 and f1", cfg.longFlowSize, uint64_t(1));
        frame.AddDataRate("longFlowStartRate",
                          "Rate f0 and f1 start at (default 20Gbps, the fair share; 0 = line rate)",
                          cfg.longFlowStartRate);
        frame.AddTime("sampleInterval",
                      "Queue/throughput sampling interval (> 0)",
                      cfg.sampleInterval,
                      Time(0),
                      ProgramFrame::GetMaxRunTime(),
                      true);
        cfg.sw.AddCommandLineOptions(frame);
        frame.AddFlag(
            "burstViaS0", "Pin the burst through S0 (false: per-flow ECMP)", cfg.burstViaS0);
        frame.AddFlag("burstStagger",
                      "Offset the senders' flows evenly within one burst interval",
                      cfg.burstStagger);
        frame.AddDouble("cnmWindowRtts",
                        "DCON window T in base RTTs, in (0, 1000000]",
                        cfg.cnmWindowRtts,
                        0,
                        1e6,
                        true);
        frame.SetOptionTypes("cnmWindowRtts", SwitchAgentWindowQueues());
        frame.AddFlag("pcap", "Write pcap files of L2's ports", cfg.pcap);
        frame.AddFlag("spreading",
                      "Measure congestion spreading: victims.csv, pause-trees.csv, "
                      "pause-events.csv and summary.json's spreading (sequential runs)",
                      cfg.spreading);
        frame.AddFlag(
            "validate", "Check the expected result and exit 1 if it does not hold", validate);
        ParallelOptions par;
        par.AddTo(frame, "leaf", false);
        frame.SetParallel(true);
        OwnScenarioAttributes(frame);
        frame.Parse(argc, argv);
        cfg.sw.explicitOptions = frame.GetGivenOptions();
        cfg.attributeArgs = frame.GetAttributeArguments();
        if (cfg.outdir.empty())
        {
            cfg.outdir = "results/testbed-" + cfg.cc;
        }
        cfg.partitionFile = par.partitionFile;
        const std::string queue = cfg.sw.GetQueueDisc(cfg.cc);
        frame.CheckUse(RdmaFabricHelper::GetCreatedTypes(cfg.cc, queue),
                       "--cc=" + cfg.cc + " with " + queue);
        if (frame.IsGiven("dcqcnPreset"))
        {
            RefuseUnreadParameterSet("dcqcnPreset",
                                     cfg.cc,
                                     cfg.dcqcnPreset,
                                     {"paper", "cx4"},
                                     LeafSpineHelper::DconTestbed().GetFabricLinkRate());
        }

        ParallelRun::Start();
        DconTestbed tb(cfg);
        if (ParallelRun::IsRoot())
        {
            std::vector<std::string> kinds = FabricMonitor::GetOutputKinds();
            kinds.insert(kinds.end(),
                         {"facts.json", "run.json", "parallel.json", "testbed-*.pcap"});
            frame.PrepareOutputFolder(cfg.outdir, kinds);
        }
        frame.ReadyToRun("the testbed with --cc=" + cfg.cc + " ("
                         + std::to_string(tb.GetFlowCount()) + " flows) until "
                         + FormatTime(cfg.stopTime));
        PfcHelper pcap;
        if (cfg.pcap)
        {
            Ptr<RdmaFabric> f = tb.GetFabric();
            // (in a parallel run, the rank that runs L2 writes its files)
            for (uint32_t p = 0; f->IsLocal(tb.L(2)) && p < f->GetSwitch(tb.L(2))->GetNPorts(); ++p)
            {
                pcap.EnablePcap(cfg.outdir + "/testbed", f->GetSwitch(tb.L(2))->GetDevice(p));
            }
        }
        double wall = tb.Run();
        pcap.CloseAndCheck(); // (the pcap writer reports a failed write only when asked)
        if (ParallelRun::IsEnabled())
        {
            std::string report = ParallelRun::RankReport(wall);
            wall = ParallelRun::MaxAll(wall);
            if (!ParallelRun::IsRoot())
            {
                Simulator::Destroy();
                ParallelRun::Finish();
                return 0; // rank 0 holds every rank's results and writes them
            }
            WriteTextFile(cfg.outdir + "/parallel.json", report);
        }
        Ptr<FabricMonitor> m = tb.GetMonitor();
        if (cfg.runToCompletion && m->GetRecords().size() < tb.GetFlowCount())
        {
            m->SetIncomplete("stop time reached with flows unfinished (--runToCompletion)");
        }
        DconTestbedFacts f = tb.GetFacts();
        f.WriteJson(cfg.outdir + "/facts.json", cfg.cc);
        frame.WriteRunJson(cfg.outdir,
                           "  \"cc\": " + JsonString(cfg.cc)
                               + ",\n  \"queue_disc\": " + JsonString(queue)
                               + ",\n  \"flows\": " + std::to_string(tb.GetFlowCount()));
        m->Write(cfg.outdir, wall); // summary.json last: the run is complete
        std::cout << "cc=" << cfg.cc << " wall=" << wall << "s"
                  << "\n  PAUSE frames L2->S1 " << f.pausesL2S1 << ", S1->L0 " << f.pausesS1L0
                  << ", S1->L1 " << f.pausesS1L1 << "\n  f0 throughput (Gb/s): before burst "
                  << f.f0Before.ToText() << ", during " << f.f0During.ToText() << ", end of run "
                  << f.f0After.ToText() << "\n  f1 throughput (Gb/s): before burst "
                  << f.f1Before.ToText() << ", during " << f.f1During.ToText();
        if (m->GetExtension<DconRecorder>())
        {
            std::cout << "\n  CNMs sent for f0 " << f.cnmsF0 << ", for f1 " << f.cnmsF1 << " ("
                      << f.cnmsAppliedF1 << " applied), for burst flows " << f.cnmsBurst;
        }
        if (f.burst)
        {
            std::cout << "\n  burst from " << cfg.burstStart.As(Time::MS) << " to "
                      << f.burstEnd.As(Time::MS) << " (its last flow's completion)";
        }
        else
        {
            std::cout << "\n  no burst (--burstFlowsPerHost=0)";
        }
        std::cout << "\n  results in " << cfg.outdir << "\n";
        if (validate)
        {
            // DCQCN against the paper's Fig. 2, DCON against its Fig. 6; the paper shows no
            // testbed run of the other schemes.
            // A fact that compares a reading that was not measured is neither held nor failed:
            // the validation is then not judged (exit status 1, as it did not pass).
            std::vector<DconTestbedFact> facts = f.ExpectedFacts(cfg.cc);
            for (const auto& fact : facts)
            {
                std::cout << "  "
                          << (!fact.judged ? "----"
                              : fact.holds ? "PASS"
                                           : "FAIL")
                          << "  " << fact.name
                          << (fact.judged ? "" : " (not judged: " + fact.reason + ")") << "\n";
            }
            const std::string verdict = f.Verdict(cfg.cc);
            bool ok = verdict == "PASS" || verdict == "none";
            std::cout << (verdict == "none" ? "VALIDATION: no published expectation for this scheme"
                          : verdict == "PASS" ? "VALIDATION PASSED"
                          : verdict == "FAIL"
                              ? "VALIDATION FAILED"
                              : "VALIDATION NOT JUDGED: a fact depends on a reading "
                                "that was not measured")
                      << "\n";
            Simulator::Destroy();
            ParallelRun::Finish();
            return ok ? 0 : 1;
        }
    }
    catch (const std::exception& e)
    {
        return ProgramFrame::Fail(e);
    }
    Simulator::Destroy();
    ParallelRun::Finish();
    return 0;
}

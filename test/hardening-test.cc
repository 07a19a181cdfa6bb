/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// The third hardening round (issue 29): a setting the algorithm's mode does not read is
// refused (RdmaCongestionOps::GetModalAttributes), a failed write names the system's reason
// (AtomicOutputFile), a dry run changes no folder (PrepareOutputFolderFor), every program's
// output kinds are known (ProgramFrame::GetProgramOutputKinds), an option accepts its own
// default, and the null-message engine's queue orders same-time events the same way whenever
// messages arrive (RemoteFirstScheduler). Each test is its own process (ctest).

#include "ns3/atomic-output-file.h"
#include "ns3/attribute-text.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/event-impl.h"
#include "ns3/object-factory.h"
#include "ns3/output-files.h"
#include "ns3/program-frame.h"
#include "ns3/rank-transport.h"
#include "ns3/rdma-dcon.h"
#include "ns3/rdma-rtt-pid.h"
#include "ns3/rdma-timely.h"
#include "ns3/remote-first-scheduler.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{
/// The message \p f throws (std::invalid_argument or std::runtime_error), or "".
template <typename F>
std::string
Refusal(F f)
{
    try
    {
        f();
    }
    catch (const std::exception& e)
    {
        return e.what();
    }
    return "";
}

/// Parse \p args (without the program name) with \p frame.
void
Parse(ProgramFrame& frame, std::vector<std::string> args)
{
    args.insert(args.begin(), "prog");
    std::vector<char*> argv;
    for (std::string& a : args)
    {
        argv.push_back(a.data());
    }
    frame.Parse(static_cast<int>(argv.size()), argv.data());
}
} // namespace

// DCON's sender inherits DCQCN's attributes; with Sender=Paper (the default) it reads only G,
// InitialAlpha and MinRate of them: the others are refused when the user gives them, naming
// Sender=Dcqcn, which reads them; with Sender=Dcqcn its own Paper-only attributes are refused.
TEST(UnreadAttributes, DconSenderModes)
{
    Ptr<RdmaDcon> paper = CreateObject<RdmaDcon>();
    std::vector<std::string> unread;
    for (const auto& u : paper->GetUnreadAttributes())
    {
        unread.push_back(u.attribute);
        EXPECT_EQ(u.inUse, "Sender=Paper");
        EXPECT_EQ(u.readers, std::vector<std::string>{"Sender=Dcqcn"}) << u.attribute;
    }
    EXPECT_EQ(unread.size(), 9u);
    EXPECT_NE(std::find(unread.begin(), unread.end(), "RateIncreaseInterval"), unread.end());
    EXPECT_EQ(std::find(unread.begin(), unread.end(), "G"), unread.end());

    SetUserAttributePaths({"ns3::RdmaDcqcn::RateIncreaseInterval", "ns3::RdmaDcqcn::G"});
    const std::string why = Refusal(
        [&]
        {
            paper->RefuseUnreadUserAttributes();
        });
    EXPECT_NE(why.find("--ns3::RdmaDcqcn::RateIncreaseInterval: ns3::RdmaDcon with Sender=Paper "
                       "does not read RateIncreaseInterval (Sender=Dcqcn does)"),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("give --ns3::RdmaDcon::Sender=Dcqcn"), std::string::npos) << why;

    Ptr<RdmaDcon> dcqcn = CreateObject<RdmaDcon>();
    dcqcn->SetAttribute("Sender", EnumValue(RdmaDcon::DCQCN));
    EXPECT_EQ(Refusal(
                  [&]
                  {
                      dcqcn->RefuseUnreadUserAttributes();
                  }),
              "");
    SetUserAttributePaths({"ns3::RdmaDcon::CnpPeriod"});
    EXPECT_NE(Refusal(
                  [&]
                  {
                      dcqcn->RefuseUnreadUserAttributes();
                  })
                  .find("Sender=Dcqcn does not read CnpPeriod (Sender=Paper does)"),
              std::string::npos);
    SetUserAttributePaths({});
}

// RTT-PID's tuning attributes are read only while it tunes its gains, TargetAdaptCount only
// with TargetAdaptation.
TEST(UnreadAttributes, RttPidTuning)
{
    Ptr<RdmaRttPid> pid = CreateObject<RdmaRttPid>(); // GainTuning true by default
    SetUserAttributePaths({"ns3::RdmaRttPid::LearningRate", "ns3::RdmaRttPid::TargetAdaptCount"});
    EXPECT_NE(Refusal(
                  [&]
                  {
                      pid->RefuseUnreadUserAttributes();
                  })
                  .find("TargetAdaptation=false does not read TargetAdaptCount"),
              std::string::npos);
    pid->SetAttribute("TargetAdaptation", BooleanValue(true));
    EXPECT_EQ(Refusal(
                  [&]
                  {
                      pid->RefuseUnreadUserAttributes();
                  }),
              "");
    pid->SetAttribute("GainTuning", BooleanValue(false));
    EXPECT_NE(Refusal(
                  [&]
                  {
                      pid->RefuseUnreadUserAttributes();
                  })
                  .find("GainTuning=false does not read LearningRate (GainTuning=true does)"),
              std::string::npos);
    SetUserAttributePaths({});
}

// TIMELY's variants: RttRef is read by Patched only, the hyper-active increase (HaiThreshold,
// HaiFactor) by Original only.
TEST(UnreadAttributes, TimelyVariants)
{
    Ptr<RdmaTimely> original = CreateObject<RdmaTimely>(); // Variant=Original by default
    std::vector<std::string> unread;
    for (const auto& u : original->GetUnreadAttributes())
    {
        unread.push_back(u.attribute);
    }
    EXPECT_EQ(unread, std::vector<std::string>{"RttRef"});
    SetUserAttributePaths({"ns3::RdmaTimely::RttRef", "ns3::RdmaTimely::HaiFactor"});
    EXPECT_NE(Refusal(
                  [&]
                  {
                      original->RefuseUnreadUserAttributes();
                  })
                  .find("--ns3::RdmaTimely::RttRef: ns3::RdmaTimely with Variant=Original does "
                        "not read RttRef (Variant=Patched does)"),
              std::string::npos);
    Ptr<RdmaTimely> patched = CreateObject<RdmaTimely>();
    patched->SetAttribute("Variant", EnumValue(RdmaTimely::PATCHED));
    EXPECT_NE(Refusal(
                  [&]
                  {
                      patched->RefuseUnreadUserAttributes();
                  })
                  .find("Variant=Patched does not read HaiFactor (Variant=Original does)"),
              std::string::npos);
    SetUserAttributePaths({"ns3::RdmaTimely::RttRef"});
    EXPECT_EQ(Refusal(
                  [&]
                  {
                      patched->RefuseUnreadUserAttributes();
                  }),
              "");
    SetUserAttributePaths({});
}

// A write that fails (here the file size limit, as a full disk would) is reported with the
// system's reason, and no file is left under the real name or as a part file.
TEST(WriteFailures, NameTheReason)
{
    const std::string dir = testing::TempDir() + "dcon-write-" + std::to_string(getpid());
    std::filesystem::create_directories(dir);
    const std::string path = dir + "/big.txt";
    std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit old;
    getrlimit(RLIMIT_FSIZE, &old);
    struct rlimit small = old;
    small.rlim_cur = 100;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    const std::string why = Refusal(
        [&]
        {
            AtomicOutputFile f(path);
            f.Stream() << std::string(100000, 'x');
            f.Commit();
        });
    setrlimit(RLIMIT_FSIZE, &old);
    EXPECT_NE(why.find("cannot write " + path + ": File too large"), std::string::npos) << why;
    EXPECT_FALSE(std::filesystem::exists(path));
    EXPECT_FALSE(std::filesystem::exists(path + ".part"));
    // an unopenable file: the reason too
    const std::string none = Refusal(
        []
        {
            AtomicOutputFile f("/proc/dcon-no-such-folder/x.txt");
        });
    EXPECT_NE(none.find("cannot write /proc/dcon-no-such-folder/x.txt: No such file or directory"),
              std::string::npos)
        << none;
    std::filesystem::remove_all(dir);
}

// A dry run changes nothing: a missing folder is not made, an earlier run's files stay (and are
// listed as what a run would remove).
TEST(OutputFolders, DryRunChangesNothing)
{
    const std::string dir = testing::TempDir() + "dcon-dry-" + std::to_string(getpid());
    std::filesystem::remove_all(dir);
    OutputFolderReport r = PrepareOutputFolderFor(dir + "/new", {"run.json"}, true);
    EXPECT_TRUE(r.created);
    EXPECT_FALSE(std::filesystem::exists(dir));
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/flows.txt") << "old\n";
    std::ofstream(dir + "/notes.txt") << "mine\n";
    r = PrepareOutputFolderFor(dir, ProgramFrame::GetProgramOutputKinds(), true);
    EXPECT_EQ(r.removed, std::vector<std::string>{"flows.txt"});
    EXPECT_EQ(r.foreign, std::vector<std::string>{"notes.txt"});
    EXPECT_TRUE(std::filesystem::exists(dir + "/flows.txt"));
    EXPECT_NE(Refusal(
                  []
                  {
                      PrepareOutputFolderFor("/proc/dcon-no-such/out", {}, true);
                  })
                  .find("cannot create the folder"),
              std::string::npos);
    std::filesystem::remove_all(dir);
}

// Every kind of file of the six programs is one that PrepareOutputFolder removes.
TEST(OutputFolders, EveryProgramsKinds)
{
    const std::vector<std::string> kinds = ProgramFrame::GetProgramOutputKinds();
    for (const char* name : {"run.json",
                             "summary.json",
                             "parallel.json",
                             "facts.json",
                             "flows.txt",
                             "fct.txt",
                             "flows.csv",
                             "buffer.csv",
                             "throughput.csv",
                             "cnm.csv",
                             "node-work-nodes.csv",
                             "victims.csv",
                             "testbed-21-1.pcap",
                             "ibcc-ratio.csv",
                             "ibcc-tenant.csv",
                             "ibcc-tenant-series.csv"})
    {
        EXPECT_TRUE(std::any_of(kinds.begin(),
                                kinds.end(),
                                [name](const std::string& k)
                                {
                                    return MatchesKind(name, k);
                                }))
            << name;
    }
}

// An option accepts its own default: an empty default accepts the empty value; --dryRun is
// every frame's.
TEST(Defaults, EmptyDefaultAccepted)
{
    ProgramFrame frame("prog", __FILE__);
    std::string outdir;
    std::string named = "x";
    frame.AddString("outdir", "a folder", outdir);
    frame.AddString("named", "a name", named);
    Parse(frame, {"--outdir=", "--dryRun"});
    EXPECT_TRUE(frame.IsDryRun());
    EXPECT_EQ(outdir, "");
    ProgramFrame other("prog", __FILE__);
    other.AddString("named", "a name", named);
    EXPECT_NE(Refusal(
                  [&]
                  {
                      Parse(other, {"--named="});
                  })
                  .find("--named: got an empty value"),
              std::string::npos);
}

namespace
{
/// An event that records its number when run.
class Mark : public EventImpl
{
public:
    Mark(std::vector<int>* log, int n)
        : m_log(log)
        , m_n(n)
    {
    }

    void
    Notify() override
    {
        m_log->push_back(m_n);
    }

private:
    std::vector<int>* m_log;
    int m_n;
};

/// An event of \p n at time \p ts with id \p uid.
Scheduler::Event
Ev(std::vector<int>* log, int n, uint64_t ts, uint32_t uid)
{
    Scheduler::Event ev;
    ev.impl = new Mark(log, n);
    ev.key.m_ts = ts;
    ev.key.m_uid = uid;
    ev.key.m_context = 0;
    return ev;
}
} // namespace

// The null-message engine's queue: at one time, the events of messages from other ranks first,
// by sending rank and by each rank's sending order, then the rank's own by id, whenever the
// messages arrived (here: rank 2's first, and between the rank's own events).
TEST(RemoteFirstScheduler, SameOrderWheneverMessagesArrive)
{
    RankTransport::Enable(0, 3, false); // null messages, 3 ranks
    ObjectFactory f;
    f.SetTypeId(RemoteFirstScheduler::GetTypeId());
    Ptr<Scheduler> q = f.Create<Scheduler>();
    std::vector<int> log;
    q->Insert(Ev(&log, 10, 100, 5));   // own, id 5
    RankTransport::MessageReceived(2); // from rank 2 (received first)
    q->Insert(Ev(&log, 22, 100, 6));   // its delivery
    q->Insert(Ev(&log, 11, 100, 7));   // own, id 7 (the message's insert was taken)
    RankTransport::MessageReceived(1); // from rank 1
    q->Insert(Ev(&log, 21, 100, 8));   // its delivery at the same time
    RankTransport::MessageReceived(1); // rank 1's next message
    q->Insert(Ev(&log, 23, 100, 9));   //
    RankTransport::MessageReceived(2); // a null message: no insert
    RankTransport::NoMessage();        // the poll finds nothing more
    q->Insert(Ev(&log, 12, 100, 10));  // own
    q->Insert(Ev(&log, 1, 50, 11));    // own, earlier
    std::vector<uint32_t> uids;
    while (!q->IsEmpty())
    {
        Scheduler::Event ev = q->RemoveNext();
        uids.push_back(ev.key.m_uid);
        ev.impl->Invoke();
        ev.impl->Unref();
    }
    EXPECT_EQ(log, (std::vector<int>{1, 21, 23, 22, 10, 11, 12}));
    // (a message's event runs with the id below every event's: the engine then takes the
    // rank's own events of that time, with their larger ids, for ones that have not run)
    EXPECT_EQ(uids, (std::vector<uint32_t>{11, 3, 3, 3, 5, 7, 10}));
    // A message for a time this rank already ran is an error (the engine's guarantee broken),
    // not a silent reordering.
    RankTransport::MessageReceived(1);
    Scheduler::Event late = Ev(&log, 30, 100, 12);
    EXPECT_NE(Refusal(
                  [&]
                  {
                      q->Insert(late);
                  })
                  .find("a message from rank 1 for time step 100 arrived after this rank ran "
                        "time step 100"),
              std::string::npos);
    late.impl->Unref();
    RankTransport::Disable();
}

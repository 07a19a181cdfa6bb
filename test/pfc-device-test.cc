/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// Physics of PfcNetDevice + PfcChannel: serialization and propagation times, minimum-frame
// padding, and 802.1Qbb PAUSE / RESUME timing, with the sending side's owner played by the test.
//
// Common setup: two devices A (sender) and B (receiver) on one PfcChannel, 40 Gb/s, 1 us.
// Wire bytes of a frame = 14 (Ethernet header) + payload padded to 46 + 4 (FCS)
//                         + 20 (preamble/SFD 8 + IFG 12, if IncludePreambleAndIfg).
//   1000 B payload: 14 + 1000 + 4 + 20 = 1038 B -> 1038 x 8 / 40e9 s = 207.6 ns = 207,600 ps
//   PFC frame (46 B MAC control PDU): 14 + 46 + 4 + 20 = 84 B -> 672 / 40e9 s = 16.8 ns
//   1 pause quantum = 512 bit times = 512 / 40e9 s = 12.8 ns
// Time resolution is 1 ps (test-main.cc), so all the times below are exact integers of ps.

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/ethernet-header.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pfc-channel.h"
#include "ns3/pfc-header.h"
#include "ns3/pfc-net-device.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

constexpr int64_t PS_PER_NS = 1000;
constexpr int64_t DELAY_PS = 1000000;  // 1 us propagation
constexpr int64_t TX_1000_PS = 207600; // 1038 B at 40 Gb/s
constexpr int64_t TX_PFC_PS = 16800;   // 84 B at 40 Gb/s
constexpr int64_t QUANTUM_PS = 12800;  // 512 bits at 40 Gb/s
constexpr uint16_t ETH_IPV4 = 0x0800;

/// The owner of the sending device: per-priority FIFOs of fixed-size packets, strict priority
/// (7 first) among the unpaused priorities. Records every frame it hands out.
struct Sender
{
    std::deque<PfcTxFrame> queues[8];
    struct Start
    {
        int64_t ps;       // when the device pulled the frame (= serialization start)
        uint8_t priority; // its priority
        uint8_t paused;   // the paused mask the device passed
    };
    std::vector<Start> starts;

    void
    Add(uint8_t priority, uint32_t payload, uint32_t count)
    {
        for (uint32_t i = 0; i < count; ++i)
        {
            queues[priority].push_back(PfcTxFrame{Create<Packet>(payload), ETH_IPV4, priority});
        }
    }

    bool
    Pull(uint8_t paused, PfcTxFrame& frame)
    {
        for (int p = 7; p >= 0; --p)
        {
            if (((paused >> p) & 1u) || queues[p].empty())
            {
                continue;
            }
            frame = queues[p].front();
            queues[p].pop_front();
            starts.push_back({Simulator::Now().GetPicoSeconds(), static_cast<uint8_t>(p), paused});
            return true;
        }
        return false;
    }
};

/// The owner of the receiving device: records arrivals.
struct Receiver
{
    struct Arrival
    {
        int64_t ps;
        uint32_t bytes; // packet size after the Ethernet header was removed
        uint16_t protocol;
    };
    std::vector<Arrival> arrivals;

    void
    Rx(Ptr<PfcNetDevice> dev, Ptr<Packet> p, uint16_t protocol)
    {
        arrivals.push_back({Simulator::Now().GetPicoSeconds(), p->GetSize(), protocol});
    }
};

/// Trace recorder for PfcTx / PfcRx / PauseState.
struct PfcLog
{
    struct Event
    {
        int64_t ps;
        uint8_t priority;
        uint32_t value; // quanta, or 1/0 for paused/resumed
    };
    std::vector<Event> tx;
    std::vector<Event> rx;
    std::vector<Event> state;

    void
    Tx(uint8_t p, uint16_t q)
    {
        tx.push_back({Simulator::Now().GetPicoSeconds(), p, q});
    }

    void
    Rx(uint8_t p, uint16_t q)
    {
        rx.push_back({Simulator::Now().GetPicoSeconds(), p, q});
    }

    void
    State(uint8_t p, bool paused)
    {
        state.push_back({Simulator::Now().GetPicoSeconds(), p, paused ? 1u : 0u});
    }
};

/// A and B on one channel; A's owner is \p sender, B's is \p receiver.
struct Link
{
    Ptr<PfcNetDevice> a;
    Ptr<PfcNetDevice> b;

    Link(Sender& sender, Receiver& receiver, bool preambleIfg = true)
    {
        Ptr<Node> na = CreateObject<Node>();
        Ptr<Node> nb = CreateObject<Node>();
        Ptr<PfcChannel> ch = CreateObject<PfcChannel>();
        ch->SetAttribute("Delay", TimeValue(MicroSeconds(1)));
        a = CreateObject<PfcNetDevice>();
        b = CreateObject<PfcNetDevice>();
        for (auto dev : {a, b})
        {
            dev->SetAttribute("DataRate", DataRateValue(DataRate("40Gbps")));
            dev->SetAttribute("IncludePreambleAndIfg", BooleanValue(preambleIfg));
        }
        na->AddDevice(a);
        nb->AddDevice(b);
        a->Attach(ch);
        b->Attach(ch);
        a->SetPullCallback(MakeCallback(&Sender::Pull, &sender));
        b->SetFrameReceiveCallback(MakeCallback(&Receiver::Rx, &receiver));
    }

    /// Let A start pulling at t = 0.
    void
    StartAtZero()
    {
        Simulator::ScheduleWithContext(
            a->GetNode()->GetId(), Time(0), &PfcNetDevice::NotifyTxReady, a);
    }
};

/// Schedule B->SendPfc(priority, quanta) at \p ps.
void
SendPfcAt(Ptr<PfcNetDevice> dev, int64_t ps, uint8_t priority, uint16_t quanta)
{
    Simulator::ScheduleWithContext(
        dev->GetNode()->GetId(), PicoSeconds(ps), &PfcNetDevice::SendPfc, dev, priority, quanta);
}

/// Fixture: destroys the simulator after every test, also when an ASSERT ended it early, so
/// that tests stay independent when run together in one process.
class PfcDevice : public ::testing::Test
{
protected:
    void
    TearDown() override
    {
        Simulator::Destroy();
    }
};

} // namespace

TEST_F(PfcDevice, WireBytes)
{
    Ptr<PfcNetDevice> d = CreateObject<PfcNetDevice>();
    // 14 + 1000 + 4 + 20 = 1038
    EXPECT_EQ(d->GetWireBytes(1000), 1038u);
    // 10 B payload: 14 + 10 = 24 < 60 -> padded to 60, + 4 + 20 = 84
    EXPECT_EQ(d->GetWireBytes(10), 84u);
    // 46 B is the largest payload that still fits the 60 B minimum: 84; 47 B: 14 + 47 + 24 = 85
    EXPECT_EQ(d->GetWireBytes(46), 84u);
    EXPECT_EQ(d->GetWireBytes(47), 85u);
    d->SetAttribute("IncludePreambleAndIfg", BooleanValue(false));
    // 14 + 1000 + 4 = 1018
    EXPECT_EQ(d->GetWireBytes(1000), 1018u);
    EXPECT_EQ(d->GetWireBytes(10), 64u);
    d->Dispose();
    Simulator::Destroy();
}

TEST_F(PfcDevice, FirstFrameArrivalAndBackToBack)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    s.Add(3, 1000, 3);
    link.StartAtZero();
    Simulator::Run();

    ASSERT_EQ(s.starts.size(), 3u);
    // back-to-back serialization: starts at 0, 207.6 ns, 415.2 ns
    EXPECT_EQ(s.starts[0].ps, 0);
    EXPECT_EQ(s.starts[1].ps, TX_1000_PS);
    EXPECT_EQ(s.starts[2].ps, 2 * TX_1000_PS);
    ASSERT_EQ(r.arrivals.size(), 3u);
    // arrival = end of serialization + 1 us = 207.6 ns + 1000 ns = 1207.6 ns
    EXPECT_EQ(r.arrivals[0].ps, 1207600);
    EXPECT_EQ(r.arrivals[1].ps, 1207600 + TX_1000_PS); // 1415.2 ns
    EXPECT_EQ(r.arrivals[2].ps, 1207600 + 2 * TX_1000_PS);
    // the owner gets the L3 packet back (header removed, no padding needed) and its EtherType
    EXPECT_EQ(r.arrivals[0].bytes, 1000u);
    EXPECT_EQ(r.arrivals[0].protocol, ETH_IPV4);
    // stats: 3 frames of 14 + 1000 = 1014 B (FCS/preamble/IFG not counted)
    EXPECT_EQ(link.a->GetStats().txFrames, 3u);
    EXPECT_EQ(link.a->GetStats().txBytes, 3u * 1014u);
    EXPECT_EQ(link.b->GetStats().rxFrames, 3u);
    EXPECT_FALSE(link.a->IsBusy());
    Simulator::Destroy();
}

/// A PfcDeviceOwner on both ends: pulls from a Sender, records into a Receiver, and notes the
/// port numbers the devices pass back.
struct DirectOwner : public PfcDeviceOwner
{
    Sender* sender{nullptr};
    Receiver* receiver{nullptr};
    std::vector<uint32_t> ports;

    bool
    PullFrame(uint32_t port, uint8_t pausedMask, PfcTxFrame& frame) override
    {
        ports.push_back(port);
        return sender && sender->Pull(pausedMask, frame);
    }

    void
    ReceiveFrame(uint32_t port, const Ptr<Packet>& packet, uint16_t protocol) override
    {
        ports.push_back(port);
        receiver->Rx(nullptr, packet, protocol);
    }
};

TEST_F(PfcDevice, OwnerAndCallbacksReplaceEachOther)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    // The owner replaces the callbacks on both devices: same timing as through the callbacks.
    Sender ownedSender;
    Receiver ownedReceiver;
    DirectOwner tx;
    tx.sender = &ownedSender;
    DirectOwner rx;
    rx.receiver = &ownedReceiver;
    link.a->SetOwner(&tx, 5);
    link.b->SetOwner(&rx, 9);
    ownedSender.Add(3, 1000, 2);
    s.Add(3, 1000, 7); // never pulled while the owner is set
    link.StartAtZero();
    Simulator::Run();
    EXPECT_TRUE(s.starts.empty());
    EXPECT_TRUE(r.arrivals.empty());
    ASSERT_EQ(ownedReceiver.arrivals.size(), 2u);
    EXPECT_EQ(ownedReceiver.arrivals[0].ps, 1207600);
    EXPECT_EQ(ownedReceiver.arrivals[1].ps, 1207600 + TX_1000_PS);
    EXPECT_EQ(ownedReceiver.arrivals[0].bytes, 1000u);
    for (uint32_t port : tx.ports)
    {
        EXPECT_EQ(port, 5u);
    }
    EXPECT_EQ(rx.ports, (std::vector<uint32_t>{9, 9}));

    // Setting the callbacks again replaces the owner.
    link.a->SetPullCallback(MakeCallback(&Sender::Pull, &s));
    link.b->SetFrameReceiveCallback(MakeCallback(&Receiver::Rx, &r));
    ownedSender.Add(3, 1000, 1);
    Simulator::ScheduleWithContext(
        link.a->GetNode()->GetId(), Time(0), &PfcNetDevice::NotifyTxReady, link.a);
    Simulator::Run();
    EXPECT_EQ(s.starts.size(), 7u);
    EXPECT_EQ(r.arrivals.size(), 7u);
    EXPECT_EQ(ownedReceiver.arrivals.size(), 2u);
    EXPECT_EQ(ownedSender.queues[3].size(), 1u);
    Simulator::Destroy();
}

// Lowering the channel delay while frames are on the wire: frames sent afterwards take the new
// delay but never overtake the ones ahead of them (a link does not reorder).
TEST_F(PfcDevice, DelayChangeDoesNotReorder)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    s.Add(3, 1000, 1); // 1038 B on the wire: 207.6 ns
    s.Add(3, 500, 1);  // 538 B: 107.6 ns
    s.Add(3, 200, 1);  // 238 B: 47.6 ns
    link.StartAtZero();
    Ptr<Channel> ch = link.a->GetChannel();
    // after the first frame has started (1 us delay), the second and third see 0.1 us
    Simulator::Schedule(NanoSeconds(100),
                        [ch]()
                        {
                            ch->SetAttribute("Delay", TimeValue(NanoSeconds(100)));
                        });
    Simulator::Run();
    ASSERT_EQ(r.arrivals.size(), 3u);
    EXPECT_EQ(r.arrivals[0].ps, 1207600); // 207.6 ns + 1 us
    EXPECT_EQ(r.arrivals[0].bytes, 1000u);
    // second frame: sent 207.6..315.2 ns, would arrive at 415.2 ns; held behind the first
    EXPECT_EQ(r.arrivals[1].ps, 1207600);
    EXPECT_EQ(r.arrivals[1].bytes, 500u);
    // third: 315.2..362.8 ns + 0.1 us = 462.8 ns, also behind the first
    EXPECT_EQ(r.arrivals[2].ps, 1207600);
    EXPECT_EQ(r.arrivals[2].bytes, 200u);
    Simulator::Destroy();
}

// Frames still on the wire when the simulation ends are dropped with the simulator's events.
TEST_F(PfcDevice, FramesOnTheWireAtTheEnd)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    s.Add(3, 1000, 5);
    link.StartAtZero();
    Simulator::Stop(NanoSeconds(1300)); // first frame in at 1207.6 ns, four still on the way
    Simulator::Run();
    EXPECT_EQ(r.arrivals.size(), 1u);
    link.a->GetChannel()->Dispose();
    Simulator::Destroy();
}

/// Ethernet headers of the frames a MacTx/MacRx trace sees.
struct FrameLog
{
    struct Seen
    {
        Mac48Address src;
        Mac48Address dst;
        uint16_t type;
        uint32_t bytes; // frame bytes (header, payload, padding; no FCS)
    };
    std::vector<Seen> frames;

    void
    Frame(Ptr<const Packet> p)
    {
        EthernetHeader eth(false);
        p->PeekHeader(eth);
        frames.push_back(
            {eth.GetSource(), eth.GetDestination(), eth.GetLengthType(), p->GetSize()});
    }
};

// What a capture shows: data frames from one device to the other, PFC frames to the PFC
// multicast address, padded to the 60-byte minimum, on the sending and the receiving side.
TEST_F(PfcDevice, TracedFramesHaveTheirEthernetHeaders)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    FrameLog aTx, aRx, bTx, bRx;
    link.a->TraceConnectWithoutContext("MacTx", MakeCallback(&FrameLog::Frame, &aTx));
    link.a->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Frame, &aRx));
    link.b->TraceConnectWithoutContext("MacTx", MakeCallback(&FrameLog::Frame, &bTx));
    link.b->TraceConnectWithoutContext("MacRx", MakeCallback(&FrameLog::Frame, &bRx));
    s.Add(3, 1000, 1);
    link.StartAtZero();
    SendPfcAt(link.b, 0, 3, 100);
    Simulator::Run();
    Mac48Address a = Mac48Address::ConvertFrom(link.a->GetAddress());
    Mac48Address b = Mac48Address::ConvertFrom(link.b->GetAddress());
    ASSERT_EQ(aTx.frames.size(), 1u);
    ASSERT_EQ(bRx.frames.size(), 1u);
    for (const auto& f : {aTx.frames[0], bRx.frames[0]})
    {
        EXPECT_EQ(f.src, a);
        EXPECT_EQ(f.dst, b);
        EXPECT_EQ(f.type, 0x0800);
        EXPECT_EQ(f.bytes, 1014u);
    }
    ASSERT_EQ(bTx.frames.size(), 1u);
    ASSERT_EQ(aRx.frames.size(), 1u);
    for (const auto& f : {bTx.frames[0], aRx.frames[0]})
    {
        EXPECT_EQ(f.src, b);
        EXPECT_EQ(f.dst, Mac48Address("01:80:c2:00:00:01"));
        EXPECT_EQ(f.type, 0x8808);
        EXPECT_EQ(f.bytes, 60u);
    }
    Simulator::Destroy();
}

// A link with one device: sending on it is an error that names the problem.
TEST_F(PfcDevice, SendingOnAHalfLinkThrows)
{
    Sender s;
    Ptr<Node> n = CreateObject<Node>();
    Ptr<PfcChannel> ch = CreateObject<PfcChannel>();
    Ptr<PfcNetDevice> a = CreateObject<PfcNetDevice>();
    n->AddDevice(a);
    a->Attach(ch);
    a->SetPullCallback(MakeCallback(&Sender::Pull, &s));
    s.Add(3, 1000, 1);
    // Called directly, not from a scheduled event: ns-3's event loop does not release an event
    // that throws, so the event (and the device it holds) would leak (LeakSanitizer).
    try
    {
        a->NotifyTxReady();
        ADD_FAILURE() << "no exception";
    }
    catch (const std::logic_error& e)
    {
        EXPECT_NE(std::string(e.what()).find("other end has no device"), std::string::npos)
            << e.what();
    }
    Simulator::Destroy();
}

TEST_F(PfcDevice, MinimumFramePadding)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    s.Add(3, 10, 2);
    link.StartAtZero();
    Simulator::Run();

    ASSERT_EQ(r.arrivals.size(), 2u);
    // 10 B payload -> 60 B frame + 4 + 20 = 84 wire bytes -> 16.8 ns; arrival 1016.8 ns
    EXPECT_EQ(r.arrivals[0].ps, TX_PFC_PS + DELAY_PS);
    EXPECT_EQ(r.arrivals[0].ps, 1016800);
    EXPECT_EQ(r.arrivals[1].ps, 1016800 + 16800);
    // the padding stays in the packet: 60 - 14 = 46 B after the Ethernet header
    EXPECT_EQ(r.arrivals[0].bytes, 46u);
    EXPECT_EQ(link.a->GetStats().txBytes, 2u * 60u);
    Simulator::Destroy();
}

TEST_F(PfcDevice, NoPreambleAndIfg)
{
    Sender s;
    Receiver r;
    Link link(s, r, false);
    s.Add(3, 1000, 2);
    link.StartAtZero();
    SendPfcAt(link.b, 0, 3, 1);
    Simulator::Run();

    ASSERT_EQ(r.arrivals.size(), 2u);
    // 14 + 1000 + 4 = 1018 B -> 8144 / 40e9 s = 203.6 ns; arrival 1203.6 ns
    EXPECT_EQ(r.arrivals[0].ps, 1203600);
    EXPECT_EQ(r.arrivals[1].ps, 1203600 + 203600);
    // the PFC frame is 60 + 4 = 64 B -> 12.8 ns: it reaches A at 12.8 ns + 1 us = 1012.8 ns,
    // after both frames started (0 and 203.6 ns), so it delays nothing; A saw it at 1012.8 ns.
    ASSERT_EQ(s.starts.size(), 2u);
    EXPECT_EQ(s.starts[1].ps, 203600);
    EXPECT_EQ(link.a->GetStats().pauseReceived, 1u);
    Simulator::Destroy();
}

// PAUSE for priority 3 with q = 100 quanta (100 x 12.8 ns = 1280 ns), sent by B at 500 ns.
//   The reverse wire is idle, so the PFC frame arrives at A at 500 + 16.8 + 1000 = 1516.8 ns.
//   A's frames start every 207.6 ns: frame 7 started at 7 x 207.6 = 1453.2 ns and ends at
//   1660.8 ns, so it is in flight when the PAUSE arrives and completes; frame 8 must wait until
//   the pause expires at 1516.8 + 1280 = 2796.8 ns; frame 9 follows at 2796.8 + 207.6 = 3004.4.
TEST_F(PfcDevice, PauseTiming)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    PfcLog aLog;
    PfcLog bLog;
    link.a->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcLog::Rx, &aLog));
    link.a->TraceConnectWithoutContext("PauseState", MakeCallback(&PfcLog::State, &aLog));
    link.b->TraceConnectWithoutContext("PfcTx", MakeCallback(&PfcLog::Tx, &bLog));
    s.Add(3, 1000, 12);
    link.StartAtZero();
    SendPfcAt(link.b, 500 * PS_PER_NS, 3, 100);
    Simulator::Run();

    const int64_t pauseArrival = 500 * PS_PER_NS + TX_PFC_PS + DELAY_PS;
    EXPECT_EQ(pauseArrival, 1516800);
    const int64_t pauseEnd = pauseArrival + 100 * QUANTUM_PS;
    EXPECT_EQ(pauseEnd, 2796800);
    ASSERT_EQ(s.starts.size(), 12u);
    for (uint32_t k = 0; k <= 7; ++k)
    {
        EXPECT_EQ(s.starts[k].ps, k * TX_1000_PS) << "frame " << k;
    }
    // (a) frame 7 (in flight at 1516.8 ns) completed: it arrives at 1660.8 + 1000 ns
    ASSERT_GE(r.arrivals.size(), 8u);
    EXPECT_EQ(r.arrivals[7].ps, 8 * TX_1000_PS + DELAY_PS);
    // (b) nothing of priority 3 starts during the pause; (c) it restarts exactly at the expiry
    for (const auto& st : s.starts)
    {
        EXPECT_FALSE(st.ps > pauseArrival && st.ps < pauseEnd) << "start at " << st.ps;
        EXPECT_EQ(st.paused, 0u); // the device never asks for a frame while 3 is paused
    }
    EXPECT_EQ(s.starts[8].ps, 2796800);
    EXPECT_EQ(s.starts[9].ps, 2796800 + TX_1000_PS);
    // (f) traces: B sent (3, 100) at 500 ns, A received it at 1516.8 ns, paused 3 then, and
    // the pause expired at 2796.8 ns
    ASSERT_EQ(bLog.tx.size(), 1u);
    EXPECT_EQ(bLog.tx[0].ps, 500 * PS_PER_NS);
    EXPECT_EQ(bLog.tx[0].priority, 3u);
    EXPECT_EQ(bLog.tx[0].value, 100u);
    ASSERT_EQ(aLog.rx.size(), 1u);
    EXPECT_EQ(aLog.rx[0].ps, pauseArrival);
    EXPECT_EQ(aLog.rx[0].value, 100u);
    ASSERT_EQ(aLog.state.size(), 2u);
    EXPECT_EQ(aLog.state[0].ps, pauseArrival);
    EXPECT_EQ(aLog.state[0].priority, 3u);
    EXPECT_EQ(aLog.state[0].value, 1u);
    EXPECT_EQ(aLog.state[1].ps, pauseEnd);
    EXPECT_EQ(aLog.state[1].value, 0u);
    // stats: B sent one PAUSE (and 1 frame), A received one; A sent 12 data frames
    EXPECT_EQ(link.b->GetStats().pauseSent, 1u);
    EXPECT_EQ(link.b->GetStats().resumeSent, 0u);
    EXPECT_EQ(link.b->GetStats().txFrames, 1u);
    EXPECT_EQ(link.b->GetStats().txBytes, 60u);
    EXPECT_EQ(link.a->GetStats().pauseReceived, 1u);
    EXPECT_EQ(link.a->GetStats().resumeReceived, 0u);
    EXPECT_EQ(link.a->GetStats().txFrames, 12u);
    EXPECT_EQ(link.a->GetStats().rxFrames, 1u);
    Simulator::Destroy();
}

// (d) RESUME: B pauses 3 for the maximum time (65535 x 12.8 ns = 838.848 us) at 500 ns and
//   resumes it (q = 0) at 5000 ns. The PAUSE arrives at 1516.8 ns (as above, frame 7 completes
//   at 1660.8 ns); the RESUME arrives at 5000 + 16.8 + 1000 = 6016.8 ns and frame 8 starts then.
TEST_F(PfcDevice, ResumeRestartsAtOnce)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    PfcLog aLog;
    link.a->TraceConnectWithoutContext("PauseState", MakeCallback(&PfcLog::State, &aLog));
    link.a->TraceConnectWithoutContext("PfcRx", MakeCallback(&PfcLog::Rx, &aLog));
    s.Add(3, 1000, 10);
    link.StartAtZero();
    SendPfcAt(link.b, 500 * PS_PER_NS, 3, 65535);
    SendPfcAt(link.b, 5000 * PS_PER_NS, 3, 0);
    Simulator::Run();

    ASSERT_EQ(s.starts.size(), 10u);
    EXPECT_EQ(s.starts[7].ps, 7 * TX_1000_PS);
    EXPECT_EQ(s.starts[8].ps, 6016800);
    EXPECT_EQ(s.starts[9].ps, 6016800 + TX_1000_PS);
    ASSERT_EQ(aLog.state.size(), 2u);
    EXPECT_EQ(aLog.state[0].value, 1u);
    EXPECT_EQ(aLog.state[1].ps, 6016800);
    EXPECT_EQ(aLog.state[1].value, 0u);
    ASSERT_EQ(aLog.rx.size(), 2u);
    EXPECT_EQ(aLog.rx[1].value, 0u);
    EXPECT_FALSE(link.a->IsPaused(3));
    EXPECT_EQ(link.b->GetStats().pauseSent, 1u);
    EXPECT_EQ(link.b->GetStats().resumeSent, 1u);
    EXPECT_EQ(link.a->GetStats().pauseReceived, 1u);
    EXPECT_EQ(link.a->GetStats().resumeReceived, 1u);
    Simulator::Destroy();
}

// (e) Priority 3 paused, priority 1 keeps flowing. The owner serves 3 before 1. Same PAUSE as in
//   PauseTiming (100 quanta, arrives 1516.8 ns, expires 2796.8 ns): frames 0..7 are priority 3,
//   then priority-1 frames start back to back at 1660.8 + j x 207.6 ns; the one that starts at
//   j = 5 (2698.8 ns) is in flight at the expiry and ends at 2906.4 ns, when priority 3 is
//   served again.
TEST_F(PfcDevice, OtherPriorityFlowsDuringPause)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    s.Add(3, 1000, 20);
    s.Add(1, 1000, 20);
    link.StartAtZero();
    SendPfcAt(link.b, 500 * PS_PER_NS, 3, 100);
    Simulator::Run();

    ASSERT_EQ(s.starts.size(), 40u);
    for (uint32_t k = 0; k < 8; ++k)
    {
        EXPECT_EQ(s.starts[k].priority, 3u);
    }
    for (uint32_t j = 0; j < 6; ++j)
    {
        EXPECT_EQ(s.starts[8 + j].priority, 1u) << j;
        EXPECT_EQ(s.starts[8 + j].ps, 8 * TX_1000_PS + j * TX_1000_PS) << j;
        EXPECT_EQ(s.starts[8 + j].paused, 1u << 3); // the device told the owner 3 is paused
    }
    EXPECT_EQ(s.starts[13].ps, 2698800);
    EXPECT_EQ(s.starts[14].priority, 3u);
    EXPECT_EQ(s.starts[14].ps, 2906400);
    // no idle time at all: 40 frames back to back, the last arrives 40 x 207.6 ns + 1 us
    EXPECT_EQ(r.arrivals.back().ps, 40 * TX_1000_PS + DELAY_PS);
    Simulator::Destroy();
}

// A PFC frame goes ahead of queued data but waits for the frame being serialized. A and B both
// send data; B is asked to pause A at 300 ns, while B's frame 1 (207.6 .. 415.2 ns) is on the
// wire: the PFC frame starts at 415.2 ns (before B's frame 2), arrives at A at 415.2 + 16.8 +
// 1000 = 1432 ns, during A's frame 6 (1245.6 .. 1453.2 ns); A's next frame starts at the expiry
// 1432 + 10 x 12.8 = 1560 ns. B's frame 2 starts after the PFC frame, at 432 ns.
TEST_F(PfcDevice, PfcFrameGoesAheadOfData)
{
    Sender sa;
    Receiver ra;
    Sender sb;
    Receiver rb;
    Link link(sa, rb);
    link.b->SetPullCallback(MakeCallback(&Sender::Pull, &sb));
    link.a->SetFrameReceiveCallback(MakeCallback(&Receiver::Rx, &ra));
    sa.Add(3, 1000, 10);
    sb.Add(3, 1000, 5);
    link.StartAtZero();
    Simulator::ScheduleWithContext(
        link.b->GetNode()->GetId(), Time(0), &PfcNetDevice::NotifyTxReady, link.b);
    SendPfcAt(link.b, 300 * PS_PER_NS, 3, 10);
    Simulator::Run();

    ASSERT_EQ(sb.starts.size(), 5u);
    EXPECT_EQ(sb.starts[1].ps, TX_1000_PS);
    EXPECT_EQ(sb.starts[2].ps, 2 * TX_1000_PS + TX_PFC_PS); // 432 ns
    ASSERT_EQ(sa.starts.size(), 10u);
    EXPECT_EQ(sa.starts[6].ps, 6 * TX_1000_PS);
    EXPECT_EQ(sa.starts[7].ps, 1560000);
    // A got 5 data frames and 1 PFC frame (the PFC frame is not passed to the owner)
    EXPECT_EQ(ra.arrivals.size(), 5u);
    EXPECT_EQ(link.a->GetStats().rxFrames, 6u);
    Simulator::Destroy();
}

// A second PAUSE while paused restarts the timer with the new time (no new PauseState event).
//   PAUSE 1 (q = 100) sent at 500 ns arrives at 1516.8 ns and would expire at 2796.8 ns;
//   PAUSE 2 (q = 200) sent at 1500 ns arrives at 1500 + 16.8 + 1000 = 2516.8 ns, before that,
//   so the pause now lasts until 2516.8 + 200 x 12.8 = 5076.8 ns.
TEST_F(PfcDevice, RepeatedPauseExtends)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    PfcLog aLog;
    link.a->TraceConnectWithoutContext("PauseState", MakeCallback(&PfcLog::State, &aLog));
    s.Add(3, 1000, 10);
    link.StartAtZero();
    SendPfcAt(link.b, 500 * PS_PER_NS, 3, 100);
    SendPfcAt(link.b, 1500 * PS_PER_NS, 3, 200);
    Simulator::Run();

    ASSERT_EQ(s.starts.size(), 10u);
    EXPECT_EQ(s.starts[8].ps, 2516800 + 200 * QUANTUM_PS);
    EXPECT_EQ(s.starts[8].ps, 5076800);
    ASSERT_EQ(aLog.state.size(), 2u);
    EXPECT_EQ(aLog.state[0].ps, 1516800);
    EXPECT_EQ(aLog.state[1].ps, 5076800);
    EXPECT_EQ(link.a->GetStats().pauseReceived, 2u);
    Simulator::Destroy();
}

// A RESUME asked for while its PAUSE still waits behind a frame being sent (the ingress
// crossed X_off and fell back under X_on within one frame time) cancels the PAUSE: nothing is
// sent. B is busy with back-to-back 1000 B frames (216.4 ns each); PAUSE at 100 ns and RESUME
// at 150 ns: no PFC frame. PAUSE at 1000 ns, sent at the end of the current frame (1082 ns),
// then RESUME at 1300 ns: both sent, since the upstream was paused by the first.
TEST_F(PfcDevice, ResumeBeforeItsPauseWentOutCancelsBoth)
{
    Sender sa;
    Receiver ra;
    Sender sb;
    Receiver rb;
    Link link(sa, rb);
    link.b->SetPullCallback(MakeCallback(&Sender::Pull, &sb));
    link.a->SetFrameReceiveCallback(MakeCallback(&Receiver::Rx, &ra));
    sb.Add(3, 1000, 20);
    link.StartAtZero();
    Simulator::ScheduleWithContext(
        link.b->GetNode()->GetId(), Time(0), &PfcNetDevice::NotifyTxReady, link.b);
    PfcLog log;
    link.b->TraceConnectWithoutContext("PfcTx", MakeCallback(&PfcLog::Tx, &log));
    SendPfcAt(link.b, 100 * PS_PER_NS, 3, 100);
    SendPfcAt(link.b, 150 * PS_PER_NS, 3, 0);
    uint64_t sentBy900 = 99;
    Simulator::Schedule(NanoSeconds(900),
                        [&sentBy900, &link]()
                        {
                            sentBy900
                                = link.b->GetStats().pauseSent + link.b->GetStats().resumeSent;
                        });
    SendPfcAt(link.b, 1000 * PS_PER_NS, 3, 100);
    SendPfcAt(link.b, 1300 * PS_PER_NS, 3, 0);
    Simulator::Run();
    EXPECT_EQ(sentBy900, 0u);
    EXPECT_EQ(link.b->GetStats().pauseSent, 1u);
    EXPECT_EQ(link.b->GetStats().resumeSent, 1u);
    ASSERT_EQ(log.tx.size(), 2u);
    EXPECT_EQ(log.tx[0].value, 100u);
    EXPECT_EQ(log.tx[1].value, 0u);
    Simulator::Destroy();
}

TEST_F(PfcDevice, BadPriorityThrows)
{
    Sender s;
    Receiver r;
    Link link(s, r);
    try
    {
        link.b->SendPfc(8, 1);
        FAIL() << "SendPfc(8, 1) did not throw";
    }
    catch (const std::invalid_argument& e)
    {
        EXPECT_NE(std::string(e.what()).find("priority 8"), std::string::npos) << e.what();
    }
    EXPECT_EQ(link.b->GetStats().pauseSent, 0u);
    Simulator::Destroy();
}

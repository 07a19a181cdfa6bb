/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
// RdmaNic receiver details seen through the receiver role of congestion control.
#include "ns3/leaf-spine-helper.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-flow-helper.h"
#include "ns3/simulator.h"

#include <gtest/gtest.h>

#include <tuple>
#include <utility>
#include <vector>

using namespace ns3;

namespace
{
/// Records the payload size of every data packet the receiver role sees.
class RecordingCc : public RdmaNoCc
{
public:
    static std::vector<uint32_t> g_payloads;

    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DconTestRecordingCc")
                                .SetParent<RdmaNoCc>()
                                .SetGroupName("Dcon")
                                .AddConstructor<RecordingCc>();
        return tid;
    }

    void
    OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt) override
    {
        g_payloads.push_back(pkt.payloadBytes);
    }
};

std::vector<uint32_t> RecordingCc::g_payloads;

/// Records the RTT samples the sender role gets.
class RttRecordingCc : public RdmaNoCc
{
public:
    static std::vector<Time> g_rtts;

    static TypeId
    GetTypeId()
    {
        static TypeId tid = TypeId("ns3::DconTestRttRecordingCc")
                                .SetParent<RdmaNoCc>()
                                .SetGroupName("Dcon")
                                .AddConstructor<RttRecordingCc>();
        return tid;
    }

    bool
    WantsRttSamples() const override
    {
        return true;
    }

    void
    OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack) override
    {
        g_rtts.push_back(ack.rtt);
    }
};

std::vector<Time> RttRecordingCc::g_rtts;
} // namespace

// Messages of 1 and 1500 bytes (MTU 1000): the receiver sees payloads 1, then 1000 and 500.
// A 1-byte message makes a 14 + 20 + 8 + 12 + 1 + 4 = 59-byte frame, below the 60-byte minimum, so
// the frame carries 1 byte of Ethernet padding, which must not count as payload (it did).
TEST(RdmaNic, PayloadExcludesEthernetPadding)
{
    RecordingCc::GetTypeId();
    RecordingCc::g_payloads.clear();
    LeafSpineHelper ls(1, 2, 1);
    RdmaFabricHelper fh;
    fh.SetCongestionControl("ns3::DconTestRecordingCc");
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(1, 0), 1, Time(0));
    flows->AddFlow(ls.GetHost(0, 0), ls.GetHost(1, 0), 1500, MicroSeconds(100));
    Simulator::Run();
    EXPECT_EQ(flows->GetNCompleted(), 2u);
    EXPECT_EQ(RecordingCc::g_payloads, (std::vector<uint32_t>{1, 1000, 500}));
    Simulator::Destroy();
}

// A one-packet message on an idle path: its RTT is exactly the fabric's base RTT (propagation
// both ways, the data frame serialized on each hop, the ACK on each hop back); a 3-packet
// message gives one sample per ACK, the later ones one packet time later each at most.
TEST(RdmaNic, RttSampleOfIdlePathIsBaseRtt)
{
    RttRecordingCc::GetTypeId();
    RttRecordingCc::g_rtts.clear();
    LeafSpineHelper ls(1, 2, 1);
    RdmaFabricHelper fh;
    fh.SetCongestionControl("ns3::DconTestRttRecordingCc");
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    uint32_t a = ls.GetHost(0, 0);
    uint32_t b = ls.GetHost(1, 0);
    flows->AddFlow(a, b, 1000, Time(0));
    flows->AddFlow(a, b, 3000, MicroSeconds(100));
    Simulator::Run();
    ASSERT_EQ(RttRecordingCc::g_rtts.size(), 4u);
    EXPECT_EQ(RttRecordingCc::g_rtts[0], f->GetBaseRtt(a, b));
    EXPECT_EQ(RttRecordingCc::g_rtts[1], f->GetBaseRtt(a, b));
    // Packets 2 and 3 of the second message leave right behind the one before (40 Gb/s host
    // links, LeafSpineHelper's default): at least the base RTT, and at most one full-frame time
    // per packet ahead of them in the message longer.
    Time frame = DataRate("40Gbps").CalculateBytesTxTime(f->GetNic(a)->GetDataWireBytes(1000));
    for (int i = 2; i < 4; ++i)
    {
        EXPECT_GE(RttRecordingCc::g_rtts[i], f->GetBaseRtt(a, b));
        EXPECT_LE(RttRecordingCc::g_rtts[i], f->GetBaseRtt(a, b) + frame * (i - 1)) << i;
    }
    Simulator::Destroy();
}

// Receiver state is freed when a message is complete: after two messages to one host, the
// receiver keeps no per-flow state, and both completed.
TEST(RdmaNic, ReceiverStateFreedAfterMessage)
{
    LeafSpineHelper ls(1, 2, 1);
    RdmaFabricHelper fh;
    fh.SetCongestionControl("dcqcn");
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    uint32_t rx = ls.GetHost(1, 0);
    flows->AddFlow(ls.GetHost(0, 0), rx, 50000, Time(0));
    flows->AddFlow(ls.GetHost(0, 0), rx, 1, MicroSeconds(50));
    Simulator::Run();
    EXPECT_EQ(flows->GetNCompleted(), 2u);
    EXPECT_EQ(f->GetNic(rx)->GetNReceivingFlows(), 0u);
    Simulator::Destroy();
}

// The two completion signals of a message on an idle path (40 Gb/s, 5 us on each of the four
// links host - leaf - spine - leaf - host): FlowSent when the sender hands the last packet to the
// device for the first time (a 3-packet message: two frame times after it started),
// MessageReceived when the receiver has its last byte (that packet serialized on four links
// and propagated over them), with the sender's address, the flow's UDP port, the message's bytes;
// FlowComplete when the ACK of the last byte is back (four ACK frames and four delays later).
TEST(RdmaNic, SentAndReceivedSignals)
{
    LeafSpineHelper ls(1, 2, 1);
    RdmaFabricHelper fh;
    fh.SetCongestionControl("none");
    Ptr<RdmaFabric> f = fh.Build(ls.GetTopology());
    Ptr<RdmaFlowHelper> flows = Create<RdmaFlowHelper>(f);
    const uint32_t a = ls.GetHost(0, 0);
    const uint32_t b = ls.GetHost(1, 0);
    const Time t0 = MicroSeconds(10);
    flows->AddFlow(a, b, 3000, t0, 3, 4242);
    std::vector<std::pair<uint32_t, Time>> sent;
    std::vector<std::tuple<Ipv4Address, uint16_t, uint64_t, Time>> received;
    Time completed;
    f->GetNic(a)->TraceConnectWithoutContext("FlowSent",
                                             Callback<void, uint32_t>(
                                                 [&sent](uint32_t id)
                                                 {
                                                     sent.emplace_back(id, Simulator::Now());
                                                 }));
    f->GetNic(b)->TraceConnectWithoutContext(
        "MessageReceived",
        Callback<void, Ipv4Address, uint16_t, uint32_t, uint64_t>(
            [&received](Ipv4Address src, uint16_t sport, uint32_t, uint64_t bytes)
            {
                received.emplace_back(src, sport, bytes, Simulator::Now());
            }));
    f->GetNic(a)->TraceConnectWithoutContext("FlowComplete",
                                             Callback<void, const RdmaFlowRecord&>(
                                                 [&completed](const RdmaFlowRecord& r)
                                                 {
                                                     completed = r.end;
                                                 }));
    Simulator::Run();
    const DataRate rate("40Gbps");
    const Time frame = rate.CalculateBytesTxTime(f->GetNic(a)->GetDataWireBytes(1000));
    const Time ack = rate.CalculateBytesTxTime(f->GetNic(a)->GetAckWireBytes());
    ASSERT_EQ(sent.size(), 1u);
    EXPECT_EQ(sent[0].first, 0u);
    EXPECT_EQ(sent[0].second, t0 + 2 * frame);
    ASSERT_EQ(received.size(), 1u);
    EXPECT_EQ(std::get<0>(received[0]), f->GetAddress(a));
    EXPECT_EQ(std::get<1>(received[0]), 4242);
    EXPECT_EQ(std::get<2>(received[0]), 3000u);
    EXPECT_EQ(std::get<3>(received[0]), sent[0].second + 4 * (frame + MicroSeconds(5)));
    EXPECT_EQ(completed, std::get<3>(received[0]) + 4 * (ack + MicroSeconds(5)));
    Simulator::Destroy();
}

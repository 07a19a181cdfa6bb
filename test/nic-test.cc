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

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(RdmaNoCc);

TypeId
RdmaCongestionOps::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaCongestionOps").SetParent<Object>().SetGroupName("Dcon");
    return tid;
}

RdmaCongestionOps::~RdmaCongestionOps() {}

void
RdmaCongestionOps::Init(Ptr<RdmaFlowState> flow)
{
    const DataRate start = flow->m_startRate.GetBitRate() ? flow->m_startRate : flow->m_lineRate;
    flow->m_rate = start;
    flow->m_targetRate = start;
}

void
RdmaCongestionOps::DoDispose()
{
    m_sendCnp = SendCnpCallback();
    Object::DoDispose();
}

void
RdmaCongestionOps::OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes)
{
}

void
RdmaCongestionOps::OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack)
{
}

void
RdmaCongestionOps::OnNack(Ptr<RdmaFlowState> flow)
{
}

void
RdmaCongestionOps::OnCnp(Ptr<RdmaFlowState> flow, const RdmaCnpInfo& cnp)
{
}

void
RdmaCongestionOps::OnCnm(Ptr<RdmaFlowState> flow, const RdmaCnmInfo& cnm)
{
}

void
RdmaCongestionOps::Stop()
{
}

bool
RdmaCongestionOps::WantsRttSamples() const
{
    return false;
}

void
RdmaCongestionOps::InitReceiver(Ptr<RdmaRxFlowState> rx, SendCnpCallback sendCnp)
{
    m_sendCnp = sendCnp;
}

void
RdmaCongestionOps::OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt)
{
}

TypeId
RdmaCongestionOps::LookupTypeId(const std::string& name)
{
    // Short names are the lower-case class names without the "ns3::Rdma" prefix.
    static const std::pair<const char*, const char*> shortNames[] = {
        {"none", "ns3::RdmaNoCc"},
        {"dcqcn", "ns3::RdmaDcqcn"},
        {"dcon", "ns3::RdmaDcon"},
        {"pcn", "ns3::RdmaPcn"},
        {"swift", "ns3::RdmaSwift"},
        {"timely", "ns3::RdmaTimely"},
    };
    std::string full = name;
    for (const auto& [s, f] : shortNames)
    {
        if (name == s)
        {
            full = f;
        }
    }
    TypeId tid;
    if (TypeId::LookupByNameFailSafe(full, &tid) && tid.IsChildOf(RdmaCongestionOps::GetTypeId()))
    {
        return tid;
    }
    std::ostringstream known;
    for (uint16_t i = 0; i < TypeId::GetRegisteredN(); ++i)
    {
        TypeId t = TypeId::GetRegistered(i);
        if (t.IsChildOf(RdmaCongestionOps::GetTypeId()) && t.HasConstructor())
        {
            known << " " << t.GetName();
        }
    }
    throw std::invalid_argument("unknown congestion control '" + name
                                + "'; known algorithms:" + known.str()
                                + " (short names: none, dcqcn, dcon, pcn, swift, timely)");
}

TypeId
RdmaNoCc::GetTypeId()
{
    static TypeId tid = TypeId("ns3::RdmaNoCc")
                            .SetParent<RdmaCongestionOps>()
                            .SetGroupName("Dcon")
                            .AddConstructor<RdmaNoCc>();
    return tid;
}

std::string
RdmaNoCc::GetName() const
{
    return "none";
}

} // namespace ns3

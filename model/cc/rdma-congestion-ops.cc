/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "rdma-congestion-ops.h"

#include "ns3/abort.h"
#include "ns3/attribute-text.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "rdma-cc-registry.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionOps");
NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionOps);
NS_OBJECT_ENSURE_REGISTERED(RdmaNoCc);

namespace
{
/// "none": line rate, no reaction; the queue is DCQCN's RED-ECN (marks that nobody reads), as
/// before the registry.
const RdmaCcRegistry::Registration g_noCcRegistration(
    {"none",
     &RdmaNoCc::GetTypeId,
     "no congestion control: line rate (PFC only)",
     "ns3::RedEcnQueueDisc"});
} // namespace

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

std::vector<RdmaCongestionOps::ModalAttribute>
RdmaCongestionOps::GetModalAttributes() const
{
    return {};
}

std::vector<RdmaCongestionOps::UnreadAttribute>
RdmaCongestionOps::GetUnreadAttributes() const
{
    std::vector<UnreadAttribute> out;
    for (const ModalAttribute& m : GetModalAttributes())
    {
        StringValue mode;
        GetAttribute(m.mode, mode); // (an enum or a boolean as its text)
        if (std::find(m.readIn.begin(), m.readIn.end(), mode.Get()) != m.readIn.end())
        {
            continue;
        }
        UnreadAttribute u{m.attribute, m.mode + "=" + mode.Get(), {}};
        for (const std::string& v : m.readIn)
        {
            u.readers.push_back(m.mode + "=" + v);
        }
        out.push_back(u);
    }
    return out;
}

void
RdmaCongestionOps::RefuseUnreadUserAttributes() const
{
    const TypeId tid = GetInstanceTypeId();
    for (const UnreadAttribute& u : GetUnreadAttributes())
    {
        if (!IsUserAttribute(tid, u.attribute))
        {
            continue;
        }
        TypeId owner;
        FindAttributeOwner(tid, u.attribute, &owner);
        std::string msg = "--" + owner.GetName() + "::" + u.attribute + ": " + tid.GetName()
                          + " with " + u.inUse + " does not read " + u.attribute;
        if (u.readers.empty())
        {
            msg += " in any mode: the value would change nothing; leave it out";
        }
        else
        {
            std::string readers;
            for (std::size_t i = 0; i < u.readers.size(); ++i)
            {
                readers += (i ? " or " : "") + u.readers[i];
            }
            msg += " (" + readers + (u.readers.size() == 1 ? " does" : " do")
                   + "): the value would change nothing; give --" + tid.GetName()
                   + "::" + u.readers.front() + " to use it, or leave it out";
        }
        throw std::invalid_argument(msg);
    }
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

bool
RdmaCongestionOps::OnCnm(Ptr<RdmaFlowState> flow, const RdmaCnmInfo& cnm)
{
    return false;
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

bool
RdmaCongestionOps::WantsHopRecords() const
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

void
RdmaCongestionOps::RejectAttribute(TypeId tid,
                                   const std::string& attr,
                                   const std::string& value,
                                   const std::string& rule)
{
    std::string name = tid.GetName();
    const std::string shortName = name.rfind("ns3::", 0) == 0 ? name.substr(5) : name;
    throw std::invalid_argument(shortName + ": " + name + "::" + attr + " must be " + rule
                                + ", got " + value);
}

TypeId
RdmaCongestionOps::LookupTypeId(const std::string& name)
{
    // A short name is looked up in the registry; a TypeId name may be any algorithm class,
    // registered or not (e.g. a subclass written for a test).
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid))
    {
        return RdmaCcRegistry::Lookup(name).typeId(); // throws naming the name
    }
    if (tid.IsChildOf(RdmaCongestionOps::GetTypeId()) && tid.HasConstructor())
    {
        return tid;
    }
    throw std::invalid_argument("unknown congestion control '" + name + "' (" + name
                                + " is not an RdmaCongestionOps with a constructor); known: "
                                + RdmaCcRegistry::GetNameList());
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

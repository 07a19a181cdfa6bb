/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-mmu.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum-accessor.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/trace-callback-registry.h"
#include "ns3/trace-source-accessor.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("SwitchMmu");
NS_OBJECT_ENSURE_REGISTERED(SwitchMmu);
// The signatures of its trace sources, for TraceCallbackRegistry.
DCON_REGISTER_TRACE_CALLBACK(ns3::SwitchMmu::DropTracedCallback);
DCON_REGISTER_TRACE_CALLBACK(ns3::SwitchMmu::PfcTracedCallback);

namespace
{

/**
 * \brief Bytes of a QueueSize attribute, which must be in bytes.
 * \param q the value
 * \param name attribute name for the error message
 * \return bytes
 */
uint64_t
BytesOf(const QueueSize& q, const char* name)
{
    if (q.GetUnit() != QueueSizeUnit::BYTES)
    {
        std::ostringstream os;
        os << "SwitchMmu: attribute " << name << " = " << q << " must be given in bytes (e.g. "
           << "\"100kB\"), not packets";
        throw std::invalid_argument(os.str());
    }
    return q.GetValue();
}

} // namespace

TypeId
SwitchMmu::GetTypeId()
{
    static TypeId tid
        = TypeId("ns3::SwitchMmu")
              .SetParent<Object>()
              .SetGroupName("Dcon")
              .AddConstructor<SwitchMmu>()
              .AddAttribute("BufferSize",
                            "Total shared buffer of the switch, in bytes (\"32MB\" = 32,000,000 B)",
                            QueueSizeValue(QueueSize("32MB")),
                            MakeQueueSizeAccessor(&SwitchMmu::m_bufferSize),
                            MakeQueueSizeChecker())
              .AddAttribute("PfcEnabled",
                            "Whether PFC is on (pause thresholds and headroom); off = lossy buffer",
                            BooleanValue(true),
                            MakeBooleanAccessor(&SwitchMmu::m_pfcEnabled),
                            MakeBooleanChecker())
              .AddAttribute(
                  "ThresholdMode",
                  "STATIC (XOff/XOn) or DYNAMIC (Alpha x free shared pool) pause threshold",
                  EnumValue(SwitchMmu::DYNAMIC),
                  MakeDconEnumAccessor(&SwitchMmu::m_mode),
                  MakeEnumChecker(SwitchMmu::STATIC, "STATIC", SwitchMmu::DYNAMIC, "DYNAMIC"))
              .AddAttribute("XOff",
                            "STATIC mode: pause when the (port, priority) bytes excluding headroom "
                            "reach this (default 320kB = 320,000 B)",
                            QueueSizeValue(QueueSize("320kB")),
                            MakeQueueSizeAccessor(&SwitchMmu::m_xoff),
                            MakeQueueSizeChecker())
              .AddAttribute(
                  "XOn",
                  "STATIC mode: resume when the (port, priority) bytes excluding headroom "
                  "fall to this or below and its headroom is empty (default 300kB)",
                  QueueSizeValue(QueueSize("300kB")),
                  MakeQueueSizeAccessor(&SwitchMmu::m_xon),
                  MakeQueueSizeChecker())
              .AddAttribute("Alpha",
                            "DYNAMIC mode: pause threshold = Alpha x (shared pool - shared in use)",
                            DoubleValue(0.125),
                            MakeDoubleAccessor(&SwitchMmu::m_alpha),
                            MakeDoubleChecker<double>())
              .AddAttribute("ResumeOffset",
                            "DYNAMIC mode: resume when shared(p,c) + ResumeOffset <= threshold",
                            QueueSizeValue(QueueSize("3kB")),
                            MakeQueueSizeAccessor(&SwitchMmu::m_resumeOffset),
                            MakeQueueSizeChecker())
              .AddAttribute("Headroom",
                            "PFC headroom per ingress port, shared by its priorities; size it as "
                            "2 x link delay x rate + 2 MTU + reaction time x rate",
                            QueueSizeValue(QueueSize("100kB")),
                            MakeQueueSizeAccessor(&SwitchMmu::m_headroom),
                            MakeQueueSizeChecker())
              .AddAttribute("Reserved",
                            "Guaranteed bytes per (port, priority) used before the shared pool",
                            QueueSizeValue(QueueSize("0B")),
                            MakeQueueSizeAccessor(&SwitchMmu::m_reserved),
                            MakeQueueSizeChecker())
              .AddTraceSource("Pause",
                              "A (port, priority) became paused: a PAUSE must be sent upstream",
                              MakeTraceSourceAccessor(&SwitchMmu::m_pauseTrace),
                              "ns3::SwitchMmu::PfcTracedCallback")
              .AddTraceSource("Resume",
                              "A (port, priority) was resumed: a RESUME must be sent upstream",
                              MakeTraceSourceAccessor(&SwitchMmu::m_resumeTrace),
                              "ns3::SwitchMmu::PfcTracedCallback")
              .AddTraceSource("Drop",
                              "A packet was refused (port, priority, bytes, reason)",
                              MakeTraceSourceAccessor(&SwitchMmu::m_dropTrace),
                              "ns3::SwitchMmu::DropTracedCallback");
    return tid;
}

SwitchMmu::SwitchMmu()
{
    NS_LOG_FUNCTION(this);
}

SwitchMmu::~SwitchMmu()
{
    NS_LOG_FUNCTION(this);
}

void
SwitchMmu::Configure(uint32_t nPorts, uint32_t nPriorities)
{
    NS_LOG_FUNCTION(this << nPorts << nPriorities);
    if (nPorts == 0)
    {
        throw std::invalid_argument("SwitchMmu::Configure: nPorts = 0, need at least one port");
    }
    if (nPriorities == 0 || nPriorities > 8)
    {
        throw std::invalid_argument("SwitchMmu::Configure: nPriorities = "
                                    + std::to_string(nPriorities)
                                    + ", must be 1..8 (802.1Qbb has 8 priorities)");
    }
    uint64_t buffer = BytesOf(m_bufferSize, "BufferSize");
    uint64_t xoff = BytesOf(m_xoff, "XOff");
    uint64_t xon = BytesOf(m_xon, "XOn");
    uint64_t offset = BytesOf(m_resumeOffset, "ResumeOffset");
    uint64_t headroom = m_pfcEnabled ? BytesOf(m_headroom, "Headroom") : 0;
    uint64_t reserved = BytesOf(m_reserved, "Reserved");

    uint64_t reservedTotal = static_cast<uint64_t>(nPorts) * nPriorities * reserved;
    uint64_t headroomTotal = static_cast<uint64_t>(nPorts) * headroom;
    if (reservedTotal + headroomTotal > buffer)
    {
        std::ostringstream os;
        os << "SwitchMmu::Configure: reserved + headroom = " << nPorts << " ports x " << nPriorities
           << " priorities x Reserved " << reserved << " B + " << nPorts << " ports x Headroom "
           << headroom << " B = " << reservedTotal + headroomTotal << " B exceeds BufferSize "
           << buffer << " B";
        throw BufferTooSmallError(os.str());
    }
    if (m_pfcEnabled && m_mode == STATIC)
    {
        if (xoff == 0)
        {
            throw std::invalid_argument(
                "SwitchMmu::Configure: XOff = 0 B in STATIC mode would pause on every packet");
        }
        if (xon > xoff)
        {
            std::ostringstream os;
            os << "SwitchMmu::Configure: XOn " << xon << " B is larger than XOff " << xoff
               << " B in STATIC mode";
            throw std::invalid_argument(os.str());
        }
    }
    if (m_pfcEnabled && m_mode == DYNAMIC && !(m_alpha > 0))
    {
        std::ostringstream os;
        os << "SwitchMmu::Configure: Alpha = " << m_alpha << " must be > 0 in DYNAMIC mode";
        throw std::invalid_argument(os.str());
    }

    m_nPorts = nPorts;
    m_nPriorities = nPriorities;
    m_bufferBytes = buffer;
    m_xoffBytes = xoff;
    m_xonBytes = xon;
    m_offsetBytes = offset;
    m_headroomBytes = headroom;
    m_reservedBytes = reserved;
    m_poolBytes = buffer - reservedTotal - headroomTotal;

    m_counters.assign(static_cast<std::size_t>(nPorts) * nPriorities, Counters());
    m_portHeadroom.assign(nPorts, 0);
    m_sharedUsed = 0;
    m_totalUsed = 0;
    m_maxTotalUsed = 0;
    m_drops.clear();
    NS_LOG_INFO("buffer " << buffer << " B, pool " << m_poolBytes << " B, headroom/port "
                          << headroom << " B, reserved/(port,prio) " << reserved << " B");
}

void
SwitchMmu::ThrowBadIndex(uint32_t inPort, uint8_t priority, const char* what) const
{
    if (m_counters.empty())
    {
        throw std::invalid_argument(std::string("SwitchMmu::") + what
                                    + ": Configure() has not been called");
    }
    if (inPort >= m_nPorts)
    {
        throw std::invalid_argument(std::string("SwitchMmu::") + what + ": port "
                                    + std::to_string(inPort) + " out of range ("
                                    + std::to_string(m_nPorts) + " ports)");
    }
    // Index() calls this only when the port or the priority is out of range.
    throw std::invalid_argument(std::string("SwitchMmu::") + what + ": priority "
                                + std::to_string(static_cast<unsigned>(priority))
                                + " out of range (" + std::to_string(m_nPriorities)
                                + " priorities)");
}

uint64_t
SwitchMmu::DynamicThreshold() const
{
    return static_cast<uint64_t>(
        std::floor(m_alpha * static_cast<double>(m_poolBytes - m_sharedUsed)));
}

SwitchMmu::AdmitResult
SwitchMmu::Drop(uint32_t inPort, uint8_t priority, uint32_t bytes, const char* reason)
{
    NS_LOG_LOGIC("drop port " << inPort << " prio " << +priority << " " << bytes
                              << " B: " << reason);
    ++m_drops[reason];
    m_dropTrace(inPort, priority, bytes, reason);
    return AdmitResult{false, reason, false};
}

SwitchMmu::AdmitResult
SwitchMmu::Admit(uint32_t inPort, uint8_t priority, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << inPort << +priority << bytes);
    Counters& c = m_counters[Index(inPort, priority, "Admit")];

    // Defensive: the partition below makes this impossible, but never exceed the buffer.
    if (m_totalUsed + bytes > m_bufferBytes)
    {
        return Drop(inPort, priority, bytes, BUFFER_FULL);
    }

    // 1. Reserved part, split if the packet only partly fits.
    uint64_t toReserved = std::min<uint64_t>(bytes, m_reservedBytes - c.reserved);
    uint64_t rest = bytes - toReserved;

    // 2./3. The rest goes to the shared pool or to the port's headroom.
    uint64_t toShared = 0;
    uint64_t toHeadroom = 0;
    if (rest > 0)
    {
        bool useHeadroom = false;
        if (m_pfcEnabled && c.paused)
        {
            useHeadroom = true;
        }
        else if (m_sharedUsed + rest <= m_poolBytes)
        {
            toShared = rest;
        }
        else if (m_pfcEnabled)
        {
            useHeadroom = true;
        }
        else
        {
            return Drop(inPort, priority, bytes, BUFFER_FULL);
        }
        if (useHeadroom)
        {
            if (m_portHeadroom[inPort] + rest > m_headroomBytes)
            {
                return Drop(inPort, priority, bytes, HEADROOM_FULL);
            }
            toHeadroom = rest;
        }
    }

    c.reserved += toReserved;
    c.shared += toShared;
    c.headroom += toHeadroom;
    m_portHeadroom[inPort] += toHeadroom;
    m_sharedUsed += toShared;
    m_totalUsed += bytes;
    m_maxTotalUsed = std::max(m_maxTotalUsed, m_totalUsed);

    // 4. Pause decision.
    bool sendPause = false;
    if (m_pfcEnabled && !c.paused)
    {
        bool over;
        if (m_mode == STATIC)
        {
            over = c.reserved + c.shared >= m_xoffBytes;
        }
        else
        {
            over = c.shared > 0 && c.shared >= DynamicThreshold();
        }
        if (over || c.headroom > 0)
        {
            c.paused = true;
            sendPause = true;
            NS_LOG_LOGIC("pause port " << inPort << " prio " << +priority << ": reserved "
                                       << c.reserved << " shared " << c.shared << " headroom "
                                       << c.headroom << " threshold " << GetPauseThreshold());
            m_pauseTrace(inPort, priority);
        }
    }
    return AdmitResult{true, nullptr, sendPause};
}

bool
SwitchMmu::Release(uint32_t inPort, uint8_t priority, uint32_t bytes)
{
    NS_LOG_FUNCTION(this << inPort << +priority << bytes);
    Counters& c = m_counters[Index(inPort, priority, "Release")];
    uint64_t held = c.reserved + c.shared + c.headroom;
    if (bytes > held)
    {
        std::ostringstream os;
        os << "SwitchMmu::Release: port " << inPort << " priority " << +priority << " releases "
           << bytes << " B but holds only " << held << " B (accounting bug)";
        throw std::logic_error(os.str());
    }

    uint64_t left = bytes;
    uint64_t fromHeadroom = std::min(left, c.headroom);
    c.headroom -= fromHeadroom;
    m_portHeadroom[inPort] -= fromHeadroom;
    left -= fromHeadroom;
    uint64_t fromShared = std::min(left, c.shared);
    c.shared -= fromShared;
    m_sharedUsed -= fromShared;
    left -= fromShared;
    c.reserved -= left;
    m_totalUsed -= bytes;

    if (!c.paused || c.headroom > 0)
    {
        return false;
    }
    bool resume;
    if (m_mode == STATIC)
    {
        resume = c.reserved + c.shared <= m_xonBytes;
    }
    else
    {
        resume = c.shared == 0 || c.shared + m_offsetBytes <= DynamicThreshold();
    }
    if (resume)
    {
        c.paused = false;
        NS_LOG_LOGIC("resume port " << inPort << " prio " << +priority << ": reserved "
                                    << c.reserved << " shared " << c.shared << " threshold "
                                    << GetPauseThreshold());
        m_resumeTrace(inPort, priority);
    }
    return resume;
}

bool
SwitchMmu::IsPaused(uint32_t inPort, uint8_t priority) const
{
    return m_counters[Index(inPort, priority, "IsPaused")].paused;
}

uint64_t
SwitchMmu::GetIngressBytes(uint32_t inPort, uint8_t priority) const
{
    const Counters& c = m_counters[Index(inPort, priority, "GetIngressBytes")];
    return c.reserved + c.shared + c.headroom;
}

uint64_t
SwitchMmu::GetReservedBytes(uint32_t inPort, uint8_t priority) const
{
    return m_counters[Index(inPort, priority, "GetReservedBytes")].reserved;
}

uint64_t
SwitchMmu::GetSharedBytes(uint32_t inPort, uint8_t priority) const
{
    return m_counters[Index(inPort, priority, "GetSharedBytes")].shared;
}

uint64_t
SwitchMmu::GetHeadroomBytes(uint32_t inPort, uint8_t priority) const
{
    return m_counters[Index(inPort, priority, "GetHeadroomBytes")].headroom;
}

uint64_t
SwitchMmu::GetPortHeadroomBytes(uint32_t inPort) const
{
    Index(inPort, 0, "GetPortHeadroomBytes");
    return m_portHeadroom[inPort];
}

uint64_t
SwitchMmu::GetSharedPoolSize() const
{
    return m_poolBytes;
}

uint64_t
SwitchMmu::GetSharedUsed() const
{
    return m_sharedUsed;
}

uint64_t
SwitchMmu::GetTotalUsed() const
{
    return m_totalUsed;
}

uint64_t
SwitchMmu::GetMaxTotalUsed() const
{
    return m_maxTotalUsed;
}

uint64_t
SwitchMmu::GetPauseThreshold() const
{
    return m_mode == STATIC ? m_xoffBytes : DynamicThreshold();
}

uint64_t
SwitchMmu::GetIngressPauseThresholdAtEmpty() const
{
    if (!m_pfcEnabled)
    {
        return 0;
    }
    return m_mode == STATIC
               ? m_xoffBytes
               : static_cast<uint64_t>(std::floor(m_alpha * static_cast<double>(m_poolBytes)));
}

bool
SwitchMmu::IsPfcEnabled() const
{
    return m_pfcEnabled;
}

uint64_t
SwitchMmu::GetDrops(const std::string& reason) const
{
    auto it = m_drops.find(reason);
    return it == m_drops.end() ? 0 : it->second;
}

const std::map<std::string, uint64_t>&
SwitchMmu::GetDropCounts() const
{
    return m_drops;
}

uint32_t
SwitchMmu::GetNPorts() const
{
    return m_nPorts;
}

uint32_t
SwitchMmu::GetNPriorities() const
{
    return m_nPriorities;
}

} // namespace ns3

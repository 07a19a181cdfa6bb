/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-queue-settings.h"

#include "ns3/boolean.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/program-frame.h"
#include "ns3/rdma-cc-registry.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/rdma-fabric-helper.h"
#include "ns3/rdma-queue-registry.h"
#include "ns3/string.h"
#include "ns3/switch-mmu.h"
#include "ns3/uinteger.h"
#include "ns3/value-text.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

namespace ns3
{

namespace
{

/// "auto" and the registered queues' short names, for --queue.
std::vector<std::string>
QueueChoices()
{
    std::vector<std::string> out{"auto"};
    for (const std::string& n : RdmaQueueRegistry::GetNames())
    {
        out.push_back(n);
    }
    return out;
}

/**
 * \brief The size field of \p s that option \p option sets, if it is one.
 * \param s the settings
 * \param option option name without "--"
 * \return the field, or nullptr
 */
QueueSize*
SizeOption(SwitchQueueSettings& s, const std::string& option)
{
    const std::pair<const char*, QueueSize*> sizes[]
        = {{"kmin", &s.kmin}, {"kmax", &s.kmax}, {"qecn", &s.qecn}};
    for (const auto& [name, field] : sizes)
    {
        if (option == name)
        {
            return field;
        }
    }
    return nullptr;
}

/**
 * \brief The number field of \p s that option \p option sets, if it is one.
 * \param s the settings
 * \param option option name without "--"
 * \return the field, or nullptr
 */
double*
NumberOption(SwitchQueueSettings& s, const std::string& option)
{
    return option == "pmax" ? &s.pmax : nullptr;
}

} // namespace

std::string
SwitchQueueSettings::QueueForCc(const std::string& cc)
{
    RdmaCongestionOps::LookupTypeId(cc); // throws naming an unknown cc
    return RdmaCcRegistry::Lookup(cc).queueDisc;
}

std::string
SwitchQueueSettings::GetQueueDisc(const std::string& ccName) const
{
    if (queue == "auto")
    {
        return QueueForCc(ccName);
    }
    RdmaCongestionOps::LookupTypeId(ccName); // throws naming an unknown cc
    for (const RdmaQueueEntry& e : RdmaQueueRegistry::GetAll())
    {
        if (queue == e.name)
        {
            // The same rule as RdmaFabricHelper::Build's: the queue must give the feedback the
            // algorithm needs (DCQCN over DCON's queue is allowed: it marks ECN).
            const RdmaCcEntry cc = RdmaCcRegistry::Lookup(ccName);
            const std::string problem = cc.GetQueueProblem(TypeId::LookupByName(e.typeName));
            if (!problem.empty())
            {
                const RdmaQueueEntry own = RdmaQueueRegistry::Lookup(cc.queueDisc);
                throw std::invalid_argument("--queue=" + queue + ": " + problem + " (--queue="
                                            + (own.name.empty() ? std::string("auto") : own.name)
                                            + " or --queue=auto)");
            }
            return e.typeName;
        }
    }
    std::string expected;
    const std::vector<std::string> choices = QueueChoices();
    for (std::size_t i = 0; i < choices.size(); ++i)
    {
        expected += (i == 0 ? "" : (i + 1 == choices.size() ? " or " : ", ")) + choices[i];
    }
    throw std::invalid_argument("unknown switch queue '" + queue + "' (expected " + expected + ")");
}

SwitchQueueSettings
SwitchQueueSettings::ForCc(const std::string& cc, DataRate portRate) const
{
    SwitchQueueSettings out = *this;
    const std::string q = GetQueueDisc(cc);
    const RdmaCcEntry entry = RdmaCcRegistry::Lookup(cc);
    if (q != entry.queueDisc)
    {
        return out;
    }
    out.extraQueueAttributes.clear();
    const RdmaQueueEntry queueEntry = RdmaQueueRegistry::Lookup(q);
    for (const auto& [attr, value] : entry.GetQueueAttributes(portRate))
    {
        // The option that feeds this attribute of this queue (its registry entry), if any.
        QueueSize* size = nullptr;
        double* number = nullptr;
        std::string option;
        for (const std::string& o : queueEntry.GetOptions())
        {
            if (queueEntry.GetAttribute(o) == attr)
            {
                option = o;
            }
        }
        if (!option.empty())
        {
            size = SizeOption(out, option);
            number = size ? nullptr : NumberOption(out, option);
            if (!size && !number)
            {
                option.clear(); // not a size or number this code can replace: pass it on
            }
        }
        if (option.empty())
        {
            out.extraQueueAttributes.emplace_back(attr, value);
        }
        else if (!explicitOptions.count(option))
        {
            if (size)
            {
                *size = QueueSize(value);
            }
            else
            {
                *number = std::stod(value);
            }
        }
    }
    return out;
}

void
SwitchQueueSettings::AddCommandLineOptions(ProgramFrame& frame)
{
    frame.AddQueueSize("bufferSize", "Switch buffer", bufferSize, 1);
    frame.AddQueueSize("xoff", "PFC pause threshold (per ingress port and priority)", xoff);
    frame.AddQueueSize("xon", "PFC resume threshold", xon);
    frame.AddQueueSize("kmin", "RED ECN Kmin (DCQCN, Swift, TIMELY; DCQCN paper: 5KB)", kmin);
    frame.AddQueueSize(
        "kmax", "RED ECN Kmax (DCQCN paper: 200KB; kmin = kmax: step marking)", kmax);
    frame.AddDouble("pmax", "RED ECN Pmax (DCQCN paper: 0.01)", pmax, 0, 1);
    frame.AddQueueSize("qecn", "DCON Q_ECN (default 5KB; the testbed: 200KB)", qecn, 1);
    {
        std::string list;
        for (const std::string& c : QueueChoices())
        {
            list += (list.empty() ? "" : ", ") + c;
        }
        frame.AddChoice(
            "queue", "Switch egress queue: " + list + " (auto: from --cc)", queue, QueueChoices());
    }
    frame.AddQueueSize("qcnm", "DCON fixed Q_CNM (0B = dynamic, paper Section 4.4)", qcnm);
    frame.AddDouble("qcnmFraction",
                    "DCON fixed Q_CNM as a fraction of the PFC threshold (0 = not used)",
                    qcnmFraction,
                    0,
                    1);
    frame.AddUnsigned("qcnmFanOut",
                      "M of the dynamic Q_CNM for every ingress port (0 = from --qcnmFanOutMode)",
                      qcnmFanOut);
    frame.AddChoice("qcnmFanOutMode",
                    "M of the dynamic Q_CNM when --qcnmFanOut is 0: live (egress queues holding "
                    "packets of the ingress port now), aboveQecn (the same, other queues counted "
                    "only at or above Q_ECN), design (the egress ports the ingress can reach by "
                    "routing: the paper's worst case)",
                    qcnmFanOutMode,
                    {"live", "aboveQecn", "design"});
    frame.AddChoice("pfcThreshold",
                    "PFC pause threshold: static (--xoff/--xon) or dynamic (--pfcAlpha x free "
                    "shared buffer)",
                    pfcThreshold,
                    {"static", "dynamic"});
    frame.AddDouble("pfcAlpha",
                    "Dynamic PFC threshold: alpha x free shared buffer (--pfcThreshold=dynamic)",
                    pfcAlpha,
                    0,
                    1000,
                    true);
    frame.AddFlag("dconMarkInBurst",
                  "DCON: keep ECN marking in burst congestion (no latch; paper: false)",
                  markInBurst);
    // Options of one queue discipline (every --option its registry entry names): refused
    // (ProgramFrame::CheckUse) when the run uses another.
    std::map<std::string, std::vector<std::string>> types;
    for (const RdmaQueueEntry& e : RdmaQueueRegistry::GetAll())
    {
        for (const RdmaQueueEntry::Setting& st : e.settings)
        {
            for (std::size_t at = st.setter.find("--"); at != std::string::npos;
                 at = st.setter.find("--", at + 2))
            {
                std::size_t end = at + 2;
                while (end < st.setter.size() && std::isalnum(st.setter[end]))
                {
                    ++end;
                }
                std::vector<std::string>& t = types[st.setter.substr(at + 2, end - at - 2)];
                if (std::find(t.begin(), t.end(), e.typeName) == t.end())
                {
                    t.push_back(e.typeName);
                }
            }
        }
    }
    for (const auto& [option, typeNames] : types)
    {
        if (frame.HasOption(option))
        {
            frame.SetOptionTypes(option, typeNames);
        }
    }
}

Ptr<AttributeValue>
SwitchQueueSettings::SettingValue(const std::string& setter, Time linkDelay) const
{
    const QueueSize fixed = GetFixedQcnm();
    const bool dynamic = fixed.GetValue() == 0;
    if (setter == "--kmin")
    {
        return Create<QueueSizeValue>(kmin);
    }
    if (setter == "--kmax")
    {
        return Create<QueueSizeValue>(kmax);
    }
    if (setter == "--pmax")
    {
        return Create<DoubleValue>(pmax);
    }
    if (setter == "--qecn")
    {
        return Create<QueueSizeValue>(qecn);
    }
    if (setter == "--qcnm or --qcnmFraction (0: dynamic)")
    {
        return Create<StringValue>(dynamic ? "Dynamic" : "Fixed");
    }
    if (setter == "--qcnm or --qcnmFraction")
    {
        return Create<QueueSizeValue>(dynamic ? qecn : fixed);
    }
    if (setter == "--qcnmFanOut")
    {
        return Create<UintegerValue>(qcnmFanOut);
    }
    if (setter == "--qcnmFanOutMode")
    {
        return Create<StringValue>(qcnmFanOutMode == "design"      ? "Design"
                                   : qcnmFanOutMode == "aboveQecn" ? "LiveAboveQecn"
                                                                   : "Live");
    }
    if (setter == "none: d is the fabric's link delay")
    {
        return Create<TimeValue>(linkDelay);
    }
    if (setter == "--dconMarkInBurst")
    {
        return Create<BooleanValue>(markInBurst);
    }
    return nullptr;
}

QueueSize
SwitchQueueSettings::GetFixedQcnm() const
{
    if (qcnmFraction > 0)
    {
        return QueueSize(QueueSizeUnit::BYTES,
                         static_cast<uint32_t>(qcnmFraction * xoff.GetValue()));
    }
    return qcnm;
}

QueueSize
SwitchQueueSettings::GetDynamicQcnm(uint32_t m, Time linkDelay, DataRate linkRate) const
{
    return DconQueueDisc::ComputeDynamicQcnm(qecn, xoff, m, linkDelay, linkRate);
}

void
SwitchQueueSettings::Check() const
{
    auto bytes = [](const QueueSize& q)
    {
        return std::to_string(q.GetValue()) + " B";
    };
    for (const auto& [name, q] :
         {std::pair<const char*, const QueueSize&>{"bufferSize", bufferSize},
          {"xoff", xoff},
          {"xon", xon},
          {"kmin", kmin},
          {"kmax", kmax},
          {"qecn", qecn},
          {"qcnm", qcnm}})
    {
        if (q.GetUnit() != QueueSizeUnit::BYTES)
        {
            throw std::invalid_argument(std::string("--") + name + " must be in bytes, got "
                                        + std::to_string(q.GetValue()) + " packets");
        }
    }
    if (pfcThreshold == "dynamic")
    {
        for (const char* opt : {"xoff", "xon", "qcnmFraction"})
        {
            if (explicitOptions.count(opt))
            {
                throw std::invalid_argument(std::string("--") + opt
                                            + " applies to --pfcThreshold=static only (the "
                                              "dynamic threshold is --pfcAlpha x the free "
                                              "shared buffer)");
            }
        }
    }
    else if (explicitOptions.count("pfcAlpha"))
    {
        throw std::invalid_argument("--pfcAlpha applies to --pfcThreshold=dynamic only (the "
                                    "static threshold is --xoff)");
    }
    if (explicitOptions.count("qcnmFanOutMode") && qcnmFanOut > 0)
    {
        throw std::invalid_argument("--qcnmFanOutMode chooses how M is found when --qcnmFanOut "
                                    "is 0; --qcnmFanOut="
                                    + std::to_string(qcnmFanOut) + " fixes M: give one of them");
    }
    for (const char* fixedOpt : {"qcnm", "qcnmFraction"})
    {
        for (const char* mOpt : {"qcnmFanOut", "qcnmFanOutMode"})
        {
            if (explicitOptions.count(fixedOpt) && explicitOptions.count(mOpt))
            {
                throw std::invalid_argument(std::string("--") + mOpt
                                            + " sets M of the dynamic Q_CNM, which --" + fixedOpt
                                            + " replaces by a fixed one: give one of them");
            }
        }
    }
    // (the static threshold only: the dynamic one reads neither --xoff nor --xon)
    if (pfcThreshold == "static" && xon.GetValue() > xoff.GetValue())
    {
        throw std::invalid_argument("--xon (" + bytes(xon) + ") is above --xoff (" + bytes(xoff)
                                    + "): PFC would resume a port above its pause threshold");
    }
    if (pfcThreshold == "static" && xoff.GetValue() > bufferSize.GetValue())
    {
        throw std::invalid_argument("--xoff (" + bytes(xoff) + ") is above --bufferSize ("
                                    + bytes(bufferSize) + "): no ingress could ever pause");
    }
    if (qcnmFanOutMode != "live" && qcnmFanOutMode != "aboveQecn" && qcnmFanOutMode != "design")
    {
        throw std::invalid_argument("unknown qcnmFanOutMode '" + qcnmFanOutMode
                                    + "' (expected live, aboveQecn or design)");
    }
    if (pfcThreshold != "static" && pfcThreshold != "dynamic")
    {
        throw std::invalid_argument("unknown pfcThreshold '" + pfcThreshold
                                    + "' (expected static or dynamic)");
    }
    if (!(pfcAlpha > 0 && pfcAlpha <= 1000))
    {
        throw std::invalid_argument("pfcAlpha must be in (0, 1000], got "
                                    + std::to_string(pfcAlpha));
    }
    if (!(qcnmFraction >= 0 && qcnmFraction <= 1))
    {
        throw std::invalid_argument("qcnmFraction must be in [0, 1] (0 = not used), got "
                                    + std::to_string(qcnmFraction));
    }
    if (qecn.GetValue() == 0 || (pfcThreshold == "static" && qecn.GetValue() > xoff.GetValue()))
    {
        throw std::invalid_argument("--qecn (" + bytes(qecn)
                                    + ") must be > 0 and at most the PFC threshold --xoff ("
                                    + bytes(xoff) + "): Q_ECN <= Q_CNM <= Q_PFC");
    }
    QueueSize fixed = GetFixedQcnm();
    if (fixed.GetValue() > 0
        && (fixed.GetValue() < qecn.GetValue()
            || (pfcThreshold == "static" && fixed.GetValue() > xoff.GetValue())))
    {
        throw std::invalid_argument(
            "DCON's fixed Q_CNM " + bytes(fixed)
            + (qcnmFraction > 0 ? " (--qcnmFraction=" + FormatNumber(qcnmFraction) + " x --xoff)"
                                : std::string(" (--qcnm)"))
            + " is outside [--qecn " + bytes(qecn) + ", --xoff " + bytes(xoff)
            + "]: need Q_ECN <= Q_CNM <= Q_PFC");
    }
}

QueueSize
SwitchQueueSettings::Apply(RdmaFabricHelper& fh,
                           const std::string& cc,
                           Time linkDelay,
                           DataRate linkRate) const
{
    const SwitchQueueSettings s = ForCc(cc, linkRate);
    return s.ApplySettings(fh, s.GetQueueDisc(cc), linkDelay);
}

Ptr<RdmaFabric>
SwitchQueueSettings::Build(const RdmaFabricHelper& fh, const TopologySpec& topo) const
{
    try
    {
        return fh.Build(topo);
    }
    catch (const BufferTooSmallError& e)
    {
        throw std::invalid_argument("--bufferSize (" + std::to_string(bufferSize.GetValue())
                                    + " B) cannot hold the PFC headroom every port reserves: "
                                    + e.what());
    }
}

QueueSize
SwitchQueueSettings::ApplySettings(RdmaFabricHelper& fh, const std::string& q, Time linkDelay) const
{
    Check();
    fh.SetMmuAttribute("BufferSize", QueueSizeValue(bufferSize));
    if (pfcThreshold == "dynamic")
    {
        fh.SetMmuAttribute("ThresholdMode", EnumValue(SwitchMmu::DYNAMIC));
        fh.SetMmuAttribute("Alpha", DoubleValue(pfcAlpha));
    }
    else
    {
        fh.SetMmuAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
        fh.SetMmuAttribute("XOff", QueueSizeValue(xoff));
        fh.SetMmuAttribute("XOn", QueueSizeValue(xon));
    }
    // The queue's attributes that these settings feed, as its registry entry declares them.
    const RdmaQueueEntry entry = RdmaQueueRegistry::Lookup(q);
    fh.SetQueueDisc(q);
    QueueSize fixedQcnm("0B");
    for (const RdmaQueueEntry::Setting& st : entry.settings)
    {
        Ptr<AttributeValue> value = SettingValue(st.setter, linkDelay);
        if (!value)
        {
            throw std::logic_error("SwitchQueueSettings: " + q + "::" + st.attribute
                                   + " is set by '" + st.setter
                                   + "', which these settings do not know");
        }
        fh.SetQueueDiscAttribute(st.attribute, *value);
        if (st.setter.rfind("--qcnm ", 0) == 0)
        {
            fixedQcnm = GetFixedQcnm(); // a queue with Q_CNM: the fixed one (0 = dynamic)
        }
    }
    for (const auto& [name, value] : extraQueueAttributes)
    {
        fh.SetQueueDiscAttribute(name, StringValue(value));
    }
    return fixedQcnm;
}

} // namespace ns3

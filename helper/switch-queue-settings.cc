/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#include "switch-queue-settings.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/dcon-queue-disc.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/rdma-congestion-ops.h"
#include "ns3/switch-mmu.h"
#include "rdma-fabric-helper.h"

#include <stdexcept>

namespace ns3
{

std::string
SwitchQueueSettings::QueueForCc(const std::string& cc)
{
    TypeId tid = RdmaCongestionOps::LookupTypeId(cc);
    if (tid == TypeId::LookupByName("ns3::RdmaDcon"))
    {
        return "dcon";
    }
    if (tid == TypeId::LookupByName("ns3::RdmaPcn"))
    {
        return "npecn";
    }
    return "red";
}

void
SwitchQueueSettings::AddCommandLineOptions(CommandLine& cmd)
{
    cmd.AddValue("bufferSize", "Switch buffer", bufferSize);
    cmd.AddValue("xoff", "PFC pause threshold (per ingress port and priority)", xoff);
    cmd.AddValue("xon", "PFC resume threshold", xon);
    cmd.AddValue("kmin", "ECN Kmin (DCON's Q_ECN)", kmin);
    cmd.AddValue("kmax", "ECN Kmax", kmax);
    cmd.AddValue("pmax", "ECN Pmax", pmax);
    cmd.AddValue("queue", "Switch egress queue: auto (from --cc), red, dcon, npecn", queue);
    cmd.AddValue("qcnm", "DCON Q_CNM (0B = dynamic, paper Section 4.4)", qcnm);
    cmd.AddValue("qcnmFraction",
                 "DCON fixed Q_CNM as a fraction of the PFC threshold (0 = not used)",
                 qcnmFraction);
    cmd.AddValue("qcnmFanOut", "M of the dynamic Q_CNM", qcnmFanOut);
    cmd.AddValue("dconMarkInBurst",
                 "DCON: keep ECN marking in burst congestion (no latch; paper: false)",
                 markInBurst);
}

QueueSize
SwitchQueueSettings::GetQcnm(Time linkDelay, DataRate linkRate) const
{
    if (qcnmFraction < 0 || qcnmFraction > 1)
    {
        throw std::invalid_argument("qcnmFraction must be in [0, 1] (0 = not used), got "
                                    + std::to_string(qcnmFraction));
    }
    if (qcnmFraction > 0)
    {
        return QueueSize(QueueSizeUnit::BYTES,
                         static_cast<uint32_t>(qcnmFraction * xoff.GetValue()));
    }
    if (qcnm.GetValue() > 0)
    {
        return qcnm;
    }
    return DconQueueDisc::ComputeDynamicQcnm(kmin, xoff, qcnmFanOut, linkDelay, linkRate);
}

QueueSize
SwitchQueueSettings::Apply(RdmaFabricHelper& fh,
                           const std::string& cc,
                           Time linkDelay,
                           DataRate linkRate) const
{
    if (xon.GetValue() > xoff.GetValue())
    {
        throw std::invalid_argument("PFC xon " + std::to_string(xon.GetValue())
                                    + " B is above xoff " + std::to_string(xoff.GetValue()) + " B");
    }
    fh.SetMmuAttribute("BufferSize", QueueSizeValue(bufferSize));
    fh.SetMmuAttribute("ThresholdMode", EnumValue(SwitchMmu::STATIC));
    fh.SetMmuAttribute("XOff", QueueSizeValue(xoff));
    fh.SetMmuAttribute("XOn", QueueSizeValue(xon));
    std::string q = queue == "auto" ? QueueForCc(cc) : queue;
    if (q == "red")
    {
        fh.SetQueueDisc("ns3::RedEcnQueueDisc",
                        "Kmin",
                        QueueSizeValue(kmin),
                        "Kmax",
                        QueueSizeValue(kmax),
                        "Pmax",
                        DoubleValue(pmax));
        return QueueSize("0B");
    }
    if (q == "dcon")
    {
        QueueSize qcnmInUse = GetQcnm(linkDelay, linkRate);
        fh.SetQueueDisc("ns3::DconQueueDisc",
                        "QEcn",
                        QueueSizeValue(kmin),
                        "QCnm",
                        QueueSizeValue(qcnmInUse),
                        "MarkInBurst",
                        BooleanValue(markInBurst));
        return qcnmInUse;
    }
    if (q == "npecn")
    {
        fh.SetQueueDisc("ns3::NpEcnQueueDisc");
        return QueueSize("0B");
    }
    throw std::invalid_argument("unknown switch queue '" + queue
                                + "' (expected auto, red, dcon or npecn)");
}

} // namespace ns3

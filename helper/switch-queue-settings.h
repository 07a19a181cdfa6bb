/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_QUEUE_SETTINGS_H
#define SWITCH_QUEUE_SETTINGS_H

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/queue-size.h"

#include <string>

namespace ns3
{

class RdmaFabricHelper;
class CommandLine;

/**
 * \ingroup dcon
 * \brief Switch buffer, PFC and egress-queue settings shared by the paper's scenarios, and the
 * rule that picks the egress queue discipline from the congestion control.
 *
 * With queue "auto", DCON runs get DconQueueDisc (Q_ECN = kmin, Q_CNM from qcnm,
 * qcnmFraction or the dynamic formula), PCN runs NpEcnQueueDisc, every other scheme
 * RedEcnQueueDisc (kmin, kmax, pmax). The PFC thresholds are static (XOff/XOn per ingress
 * port and priority).
 */
struct SwitchQueueSettings
{
    QueueSize bufferSize{"22MB"}; //!< switch buffer
    QueueSize xoff{"320KB"};      //!< PFC pause threshold (per ingress port, priority)
    QueueSize xon{"300KB"};       //!< PFC resume threshold
    QueueSize kmin{"200KB"};      //!< ECN Kmin (= Q_ECN of DCON)
    QueueSize kmax{"200KB"};      //!< ECN Kmax (= Kmin: step marking)
    double pmax{1.0};             //!< ECN Pmax
    std::string queue{"auto"};    //!< egress queue: auto (by cc), red, dcon, npecn
    QueueSize qcnm{"0B"};         //!< DCON Q_CNM; 0 = dynamic (paper Section 4.4)
    double qcnmFraction{0};       //!< if > 0: Q_CNM = this x xoff (fixed, paper Fig. 11)
    uint32_t qcnmFanOut{1};       //!< M of the dynamic Q_CNM
    bool markInBurst{false};      //!< DCON: keep ECN marking in burst congestion (no latch)

    /**
     * \brief The queue discipline "auto" stands for with a congestion control.
     * \param cc congestion control (short or TypeId name; throws if unknown)
     * \return "dcon", "npecn" or "red"
     */
    static std::string QueueForCc(const std::string& cc);

    /**
     * \brief Add every field as a command-line option (--bufferSize, --xoff, --xon, --kmin,
     * --kmax, --pmax, --queue, --qcnm, --qcnmFraction, --qcnmFanOut, --dconMarkInBurst). The
     * settings must outlive the parse.
     * \param cmd the command line
     */
    void AddCommandLineOptions(CommandLine& cmd);

    /**
     * \brief The Q_CNM these settings give (fraction of xoff, explicit, or dynamic).
     * \param linkDelay per-hop delay d of the dynamic formula
     * \param linkRate link capacity C of the dynamic formula
     * \return Q_CNM
     */
    QueueSize GetQcnm(Time linkDelay, DataRate linkRate) const;

    /**
     * \brief Configure the MMU and the egress queue discipline of a fabric helper. Throws
     * std::invalid_argument naming the bad value (unknown queue, qcnmFraction outside [0, 1],
     * xon > xoff).
     * \param fh the fabric helper
     * \param cc the congestion control the hosts run
     * \param linkDelay per-hop delay (dynamic Q_CNM)
     * \param linkRate link capacity (dynamic Q_CNM)
     * \return the Q_CNM in use (0 bytes unless the queue is DCON's)
     */
    QueueSize Apply(RdmaFabricHelper& fh,
                    const std::string& cc,
                    Time linkDelay,
                    DataRate linkRate) const;
};

} // namespace ns3

#endif /* SWITCH_QUEUE_SETTINGS_H */

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_QUEUE_SETTINGS_H
#define SWITCH_QUEUE_SETTINGS_H

#include "ns3/attribute.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/queue-size.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaFabric;
class RdmaFabricHelper;
class ProgramFrame;
struct TopologySpec;

/**
 * \ingroup dcon-experiments
 * \brief Switch buffer, PFC and egress-queue settings shared by the paper's scenarios.
 *
 * With queue "auto", the egress queue discipline is the one the congestion control declares in
 * its RdmaCcRegistry entry (DCON: DconQueueDisc, Q_ECN = qecn; Q_CNM fixed from qcnm or
 * qcnmFraction, else dynamic: Section 4.4's bound per packet with M = qcnmFanOut, 0 = the live
 * fan-out; PCN: NpEcnQueueDisc; DCQCN, Swift, TIMELY, none: RedEcnQueueDisc with kmin, kmax,
 * pmax). Queue attributes the algorithm declares (e.g. DCTCP's step threshold) replace the
 * defaults of the options that feed them (ForCc), but never an option in explicitOptions.
 * The PFC thresholds are static (XOff/XOn per ingress port and priority; default), or dynamic
 * (pfcThreshold "dynamic": pfcAlpha x the free shared buffer, SwitchMmu's DYNAMIC mode), in which
 * case DCON's dynamic Q_CNM follows the threshold in force.
 *
 * Defaults, the paper's testbed (Fig. 1, 2, 6) and the DCQCN paper's ECN settings: 22 MB
 * buffer, PFC at 320 KB (resume 300 KB); RED Kmin 5 KB, Kmax 200 KB, Pmax 1% (DCQCN's
 * defaults, with the DCON paper's "ECN threshold 200 KB" as Kmax; kmin = kmax = 200KB, pmax 1
 * is the step reading); DCON Q_ECN = 5 KB (DCQCN's Kmin, where marking starts), so that
 * Q_ECN < Q_CNM < Q_PFC for the dynamic Q_CNM with M = 2 (85 KB) and for Fig. 11's fixed
 * 40% and 60% of the PFC threshold (128 and 192 KB).
 */
struct SwitchQueueSettings
{
    QueueSize bufferSize{"22MB"}; //!< switch buffer
    QueueSize xoff{"320KB"};      //!< PFC pause threshold (per ingress port, priority)
    QueueSize xon{"300KB"};       //!< PFC resume threshold
    QueueSize kmin{"5KB"};        //!< RED ECN Kmin
    QueueSize kmax{"200KB"};      //!< RED ECN Kmax (= Kmin: step marking)
    double pmax{0.01};            //!< RED ECN Pmax
    QueueSize qecn{"5KB"};        //!< DCON Q_ECN
    std::string queue{"auto"};    //!< egress queue: auto (by cc) or a registered queue's name
    QueueSize qcnm{"0B"};         //!< DCON fixed Q_CNM; 0 = dynamic (paper Section 4.4)
    double qcnmFraction{0};       //!< if > 0: Q_CNM = this x xoff (fixed, paper Fig. 11)
    uint32_t qcnmFanOut{0};       //!< M of the dynamic Q_CNM; 0 = from qcnmFanOutMode
    /// How M is obtained with qcnmFanOut 0: live, aboveQecn (live, queues >= Q_ECN), design
    std::string qcnmFanOutMode{"live"};
    std::string pfcThreshold{"static"}; //!< PFC pause threshold: static (xoff/xon) or dynamic
    double pfcAlpha{0.125};             //!< dynamic threshold = pfcAlpha x free shared buffer
    bool markInBurst{false};            //!< DCON: keep ECN marking in burst congestion (no latch)
    /// Options the user gave (names without "--", e.g. "kmin"): ForCc leaves them alone.
    std::set<std::string> explicitOptions;
    /// Attributes of the queue discipline that no option above feeds, set by ForCc from the
    /// congestion control's declaration (name, value in ns-3's string form).
    std::vector<std::pair<std::string, std::string>> extraQueueAttributes;

    /**
     * \brief The queue discipline a congestion control needs (its RdmaCcRegistry entry).
     * \param cc congestion control (short or TypeId name; throws if unknown)
     * \return a TypeId name, e.g. "ns3::RedEcnQueueDisc"
     */
    static std::string QueueForCc(const std::string& cc);

    /**
     * \brief The TypeId name of the queue discipline these settings choose for \p ccName.
     * \param ccName congestion control (short or TypeId name)
     * \return queue "auto": QueueForCc(ccName); else the TypeId of the registered queue of
     * that short name (RdmaQueueRegistry). Throws std::invalid_argument naming an unknown
     * queue, or a queue that lacks feedback the algorithm needs (RdmaCcEntry::GetQueueProblem;
     * the rule RdmaFabricHelper::Build applies too).
     */
    std::string GetQueueDisc(const std::string& ccName) const;

    /**
     * \brief These settings with the queue attributes \p cc declares for ports of \p portRate
     * applied: an attribute fed by an option (RedEcnQueueDisc Kmin, Kmax, Pmax: kmin, kmax,
     * pmax; DconQueueDisc QEcn: qecn) replaces that option's value unless the option is in
     * explicitOptions; any other goes to extraQueueAttributes. Nothing changes when the chosen
     * queue is not the one the algorithm declares (--queue chose another). Applying it twice
     * gives the same settings.
     * \param cc congestion control (short or TypeId name; throws if unknown)
     * \param portRate the switch ports' rate
     * \return the settings to use
     */
    SwitchQueueSettings ForCc(const std::string& cc, DataRate portRate) const;

    /**
     * \brief Add every field as a command-line option (--bufferSize, --xoff, --xon, --kmin,
     * --kmax, --pmax, --qecn, --queue, --qcnm, --qcnmFraction, --qcnmFanOut, --qcnmFanOutMode,
     * --pfcThreshold, --pfcAlpha, --dconMarkInBurst), each read strictly, the RED options
     * declared as settings of ns3::RedEcnQueueDisc and the DCON ones of ns3::DconQueueDisc
     * (ProgramFrame::CheckUse refuses them in a run without that queue). The settings must
     * outlive the parse.
     * \param frame the program's command line
     */
    void AddCommandLineOptions(ProgramFrame& frame);

    /**
     * \brief The fixed Q_CNM these settings give (fraction of xoff, or explicit), or 0 bytes
     * for the dynamic one.
     * \return Q_CNM, 0 = dynamic
     */
    QueueSize GetFixedQcnm() const;

    /**
     * \brief The dynamic Q_CNM for a given M with these settings' thresholds (static PFC):
     * max(qecn, xoff / M - 3 d C (M - 1)).
     * \param m M (>= 1)
     * \param linkDelay per-hop delay d
     * \param linkRate link capacity C
     * \return Q_CNM
     */
    QueueSize GetDynamicQcnm(uint32_t m, Time linkDelay, DataRate linkRate) const;

    /**
     * \brief Check the settings: xon <= xoff <= buffer, qecn <= xoff, a fixed Q_CNM in
     * [qecn, xoff], qcnmFraction in [0, 1], qcnmFanOutMode and pfcThreshold known, pfcAlpha in
     * (0, 1000], no static-only option (xoff, xon, qcnmFraction) given with a dynamic threshold.
     * Throws std::invalid_argument naming the option and the values.
     */
    void Check() const;

    /**
     * \brief Configure the MMU and the egress queue discipline of a fabric helper (after
     * Check()) with ForCc(cc, linkRate). Throws std::invalid_argument naming the bad value
     * (unknown queue, see Check).
     * \param fh the fabric helper
     * \param cc the congestion control the hosts run
     * \param linkDelay per-hop delay (d of the dynamic Q_CNM)
     * \param linkRate the switch ports' rate (for the algorithm's queue attributes)
     * \return the fixed Q_CNM in use (0 bytes if dynamic or if the queue is not DCON's)
     */
    QueueSize Apply(RdmaFabricHelper& fh,
                    const std::string& cc,
                    Time linkDelay,
                    DataRate linkRate) const;

    /**
     * \brief Build the fabric of a helper these settings were applied to, with a refusal of
     * the switches' buffer (it cannot hold every port's PFC headroom) worded for the option
     * that sets it: "--bufferSize (100000 B) cannot hold ...".
     * \param fh the fabric helper (after Apply)
     * \param topo the topology
     * \return the fabric
     */
    Ptr<RdmaFabric> Build(const RdmaFabricHelper& fh, const TopologySpec& topo) const;

private:
    /**
     * \brief Apply these settings as they are (ForCc already applied) with queue \p q.
     * \param fh the fabric helper
     * \param q the queue discipline's TypeId name
     * \param linkDelay per-hop delay
     * \return the fixed Q_CNM in use (0 bytes if none)
     */
    QueueSize ApplySettings(RdmaFabricHelper& fh, const std::string& q, Time linkDelay) const;

    /**
     * \brief The value these settings give an attribute set by \p setter (a setter text of an
     * RdmaQueueEntry::Setting, e.g. "--kmin" or "--qcnm or --qcnmFraction").
     * \param setter the text
     * \param linkDelay per-hop delay (DCON's HopDelay)
     * \return the value, or nullptr for a setter these settings do not know
     */
    Ptr<AttributeValue> SettingValue(const std::string& setter, Time linkDelay) const;
};

} // namespace ns3

#endif /* SWITCH_QUEUE_SETTINGS_H */

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_INGRESS_TRACKER_H
#define DCON_INGRESS_TRACKER_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-cc-dcon
 * \brief DCON's per-ingress-port T_last (Hu et al. 2023, Section 4.2).
 *
 * T_last of an ingress port is "the time the last data packet of a non-congested flow arrived
 * at that ingress port". A congested flow that arrived on port p, congested at egress port e, is
 * directly notified only if T_now - T_last < Window: its ingress port recently carried a flow
 * that a PAUSE of p would block. Whether a packet belongs to a non-congested flow is decided
 * when it is queued: its egress queue is not in burst congestion (DconCnmGenerator).
 *
 * \par Scope
 * OtherEgress (default): T_last is kept per (ingress, egress) and the check for egress e only
 * counts packets that went to another egress port: "if an ingress port carries only congested
 * flows' packets ... there is no need to quickly lower that congested flow's rate" (Section
 * 4.2). A congested flow's own packets, queued at e just before its burst onset, do not make
 * its ingress look shared, so an incast whose every ingress carries flows to the congested port
 * only gets no CNM. Port: one T_last per ingress port, stamped by any packet whose egress queue
 * was not in burst (the module's earlier reading): for T after every onset, every congested flow
 * qualifies through its own earlier packets.
 *
 * The per-(ingress, egress) check costs O(1) per packet: for each ingress port the tracker keeps
 * the latest stamp and the latest stamp from an egress other than the latest one's, which
 * together answer "the latest stamp from an egress other than e" for every e.
 */
class DconIngressTracker : public Object
{
public:
    /// Which packets count for a congested egress port.
    enum Scope
    {
        PORT = 0,        //!< every stamp of the ingress port
        OTHER_EGRESS = 1 //!< stamps of packets that went to another egress port
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DconIngressTracker();

    /**
     * \brief Size the table (every port without a stamp).
     * \param nPorts number of ports of the switch
     */
    void SetNPorts(uint32_t nPorts);

    /**
     * \brief A packet of a non-congested flow arrived on \p inPort now and was queued at
     * \p outPort.
     * \param inPort the ingress port
     * \param outPort the egress port
     */
    void RecordNonCongested(uint32_t inPort, uint32_t outPort);

    /**
     * \brief Whether a flow that arrived on \p inPort and is congested at \p congestedPort
     * shares its ingress with a non-congested flow: a stamp within the window before now (of a
     * packet to another egress port, with Scope OtherEgress).
     * \param inPort the ingress port
     * \param congestedPort the egress port in burst congestion
     * \return true if T_now - T_last < Window
     */
    bool HasRecentNonCongested(uint32_t inPort, uint32_t congestedPort) const;

    /**
     * \brief T_last of an ingress port for a congested egress port (per Scope).
     * \param inPort the ingress port
     * \param congestedPort the congested egress port
     * \return the time, or a negative time if never
     */
    Time GetLastNonCongested(uint32_t inPort, uint32_t congestedPort) const;

    /**
     * \brief The latest stamp of an ingress port, whatever its egress.
     * \param inPort the ingress port
     * \return the time, or a negative time if never
     */
    Time GetLastNonCongested(uint32_t inPort) const;

    /**
     * \brief The window T.
     * \return the window
     */
    Time GetWindow() const;

    /**
     * \brief The scope (attribute Scope).
     * \return it
     */
    Scope GetScope() const;

private:
    /// The stamps of one ingress port.
    struct Stamps
    {
        Time last{Time(-1)};             //!< latest stamp
        uint32_t lastEgress{UINT32_MAX}; //!< its egress port
        Time other{Time(-1)};            //!< latest stamp from an egress port other than lastEgress
    };

    Time m_window;
    Scope m_scope{OTHER_EGRESS};
    std::vector<Stamps> m_ports;
};

} // namespace ns3

#endif /* DCON_INGRESS_TRACKER_H */

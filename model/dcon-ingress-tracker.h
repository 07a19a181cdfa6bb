/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_INGRESS_TRACKER_H
#define DCON_INGRESS_TRACKER_H

#include "ns3/nstime.h"
#include "ns3/object.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup dcon
 * \brief DCON's per-ingress-port T_last (Hu et al. 2023; dcon.md 2.2).
 *
 * For every ingress port, T_last is the arrival time of the last packet of a non-congested
 * flow (one whose egress queue was not in burst congestion). A congested flow that arrived on
 * port p is directly notified only if T_now - T_last(p) < Window: its ingress port recently
 * carried a flow that PFC on that port would block. Ports that never carried a non-congested
 * packet never qualify.
 */
class DconIngressTracker : public Object
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    DconIngressTracker();

    /**
     * \brief Size the table.
     * \param nPorts number of ports of the switch
     */
    void SetNPorts(uint32_t nPorts);

    /**
     * \brief A packet of a non-congested flow arrived on a port now.
     * \param port the ingress port
     */
    void RecordNonCongested(uint32_t port);

    /**
     * \brief Whether a port carried a non-congested packet within the window before now.
     * \param port the ingress port
     * \return true if T_now - T_last(port) < Window
     */
    bool HasRecentNonCongested(uint32_t port) const;

    /**
     * \brief T_last of a port.
     * \param port the ingress port
     * \return the time, or a negative time if never
     */
    Time GetLastNonCongested(uint32_t port) const;

    /**
     * \brief The window T.
     * \return the window
     */
    Time GetWindow() const;

private:
    Time m_window;
    std::vector<Time> m_last;
};

} // namespace ns3

#endif /* DCON_INGRESS_TRACKER_H */

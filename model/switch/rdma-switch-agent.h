/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_SWITCH_AGENT_H
#define RDMA_SWITCH_AGENT_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/type-id.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class RdmaSwitch;

/**
 * \ingroup dcon-switch
 * \brief The switch-side part of a congestion-control algorithm, beyond its egress queue
 * discipline (DCON: DconCnmGenerator, which turns its queues' congested-flow reports into
 * CNMs).
 *
 * An algorithm names its agent in its RdmaCcRegistry entry (switchAgent). RdmaFabricHelper
 * creates one, from a factory with the attributes given by SetSwitchAgentAttribute, on every
 * switch whose egress ports use that entry's queue discipline, aggregates it to the switch's
 * node and calls Install once the switch's ports and queue discs exist. RdmaFabric::
 * GetSwitchAgent finds it again.
 */
class RdmaSwitchAgent : public Object
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Attach to a switch (after RdmaSwitch::Finalize: its ports and queue discs exist).
     * \param sw the switch (its node holds this object as an aggregate)
     */
    virtual void Install(Ptr<RdmaSwitch> sw) = 0;

    /**
     * \brief Set the agent's time window, which programs give in base RTTs of the fabric
     * (RdmaFabric::SetSwitchAgentWindowInRtts). Agents without one ignore it (the default).
     * DCON: the window T of T_last and of the flow count N of its queues.
     * \param window the window (> 0)
     */
    virtual void SetWindow(Time window);

    /**
     * \brief The attributes SetWindow sets, as (TypeId, attribute) pairs, so that a program
     * refuses a user's default of one of them instead of overwriting it. Default: none.
     * \return the attributes
     */
    virtual std::vector<std::pair<TypeId, std::string>> GetWindowAttributes() const;

    /**
     * \brief The types the agent creates besides itself (e.g. a tracker), for the programs'
     * check that an attribute the user sets belongs to an object of the run. Default: none.
     * \return the TypeIds
     */
    virtual std::vector<TypeId> GetCreatedTypes() const;
};

} // namespace ns3

#endif /* RDMA_SWITCH_AGENT_H */

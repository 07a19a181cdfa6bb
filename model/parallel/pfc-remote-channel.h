/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_REMOTE_CHANNEL_H
#define PFC_REMOTE_CHANNEL_H

#include "ns3/pfc-channel.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup dcon-parallel
 * \brief A PfcChannel whose two ends run on different MPI ranks of a parallel run.
 *
 * As ns-3's PointToPointRemoteChannel does for PointToPointChannel: a frame bound for the end
 * on another rank gets its arrival time exactly as on a local link (serialization +
 * propagation delay, FIFO on the wire) and is handed, with that time, to the parallel runtime
 * (RankTransport::SendFrame), which delivers it on the far end's rank. The Delay attribute is
 * then ns-3's lookahead. A frame whose receiving node runs on this rank (a run on one rank)
 * travels as on a PfcChannel. RdmaFabricHelper creates one for each link that its partition
 * cuts, a PfcChannel for every other link.
 */
class PfcRemoteChannel : public PfcChannel
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcRemoteChannel();

    void TransmitStart(const Ptr<Packet>& packet,
                       uint16_t protocol,
                       const PfcNetDevice* src,
                       Time now,
                       Time txTime) override;

private:
    /// Where the receiving node of a direction runs.
    enum class Far : uint8_t
    {
        UNKNOWN, //!< not looked up yet (at the direction's first frame)
        LOCAL,   //!< on this rank
        REMOTE,  //!< on another rank
    };

    Far m_far[2]{Far::UNKNOWN, Far::UNKNOWN}; //!< m_far[i]: where the frames toward device i go
};

} // namespace ns3

#endif /* PFC_REMOTE_CHANNEL_H */

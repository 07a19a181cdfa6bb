/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/event-impl.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <deque>

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup dcon
 * \brief Full-duplex point-to-point link between two PfcNetDevices with a propagation delay.
 *
 * Lossless: a frame that starts serialization arrives at the peer txTime + Delay later.
 * Frames never overtake each other: if Delay is lowered while frames are on the wire, a later
 * frame arrives no earlier than the one before it.
 *
 * Each direction keeps its frames on the wire in a FIFO and one reusable event object delivers
 * the oldest of them each time it fires (scheduled once per frame, at that frame's arrival), so
 * carrying a frame allocates nothing. In a parallel run (ParallelRun), a direction whose
 * receiving node runs on another MPI rank hands each frame, with the same arrival time, to
 * RankTransport::SendFrame instead; the Delay attribute is then ns-3's lookahead.
 */
class PfcChannel : public Channel
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    PfcChannel();

    /**
     * \brief Connect a device (at most two).
     * \param device the device
     */
    void Attach(Ptr<PfcNetDevice> device);

    /**
     * \brief Start carrying a frame given as its L3 packet and EtherType (no Ethernet header
     * bytes in the packet).
     * \param packet the L3 packet
     * \param protocol the EtherType
     * \param src the sending device
     * \param now the current time (the start of serialization)
     * \param txTime serialization time of the frame
     */
    void TransmitStart(const Ptr<Packet>& packet,
                       uint16_t protocol,
                       const PfcNetDevice* src,
                       Time now,
                       Time txTime);

    /**
     * \brief The propagation delay.
     * \return the delay
     */
    Time GetDelay() const;

    /**
     * \brief The device at the other end from \p dev.
     * \param dev one end
     * \return the other end
     */
    Ptr<PfcNetDevice> GetPeer(Ptr<const PfcNetDevice> dev) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

protected:
    void DoDispose() override;

private:
    /**
     * \brief One direction of the link: the frames on the wire toward one device, and the
     * event that delivers the oldest of them.
     */
    class Direction : public EventImpl
    {
    public:
        /// A frame on the wire.
        struct Frame
        {
            Ptr<Packet> packet; //!< the L3 packet
            uint16_t protocol;  //!< its EtherType
        };

        std::deque<Frame> wire;        //!< frames on the wire, oldest first
        PfcNetDevice* dst{nullptr};    //!< the receiving device (owned by the channel's list)
        uint32_t context{0};           //!< the receiving node's id (event context)
        bool contextKnown{false};      //!< context has been looked up
        bool remote{false};            //!< dst runs on another MPI rank (RankTransport)
        Time lastArrival{Time::Min()}; //!< arrival time of the newest frame on the wire

    protected:
        /// Deliver the oldest frame on the wire.
        void Notify() override;
    };

    Time m_delay;
    Ptr<PfcNetDevice> m_devices[2];
    Ptr<Direction> m_toward[2]; //!< m_toward[i]: frames travelling to m_devices[i]
    std::size_t m_nDevices{0};
};

} // namespace ns3

#endif /* PFC_CHANNEL_H */

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef PFC_CHANNEL_H
#define PFC_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

namespace ns3
{

class PfcNetDevice;

/**
 * \ingroup dcon
 * \brief Full-duplex point-to-point link between two PfcNetDevices with a propagation delay.
 *
 * Lossless: a frame that starts serialization arrives at the peer txTime + Delay later.
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
     * \param txTime serialization time of the frame
     */
    void TransmitStart(const Ptr<Packet>& packet,
                       uint16_t protocol,
                       const PfcNetDevice* src,
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

private:
    Time m_delay;
    Ptr<PfcNetDevice> m_devices[2];
    std::size_t m_nDevices{0};
};

} // namespace ns3

#endif /* PFC_CHANNEL_H */

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_DISC_ITEM_H
#define RDMA_QUEUE_DISC_ITEM_H

#include "ns3/ipv4-header.h"
#include "ns3/queue-item.h"
#include "rdma-flow-id.h"

namespace ns3
{

/**
 * \ingroup dcon
 * \brief A packet inside a switch, with its headers parsed once on arrival.
 *
 * Like Ipv4QueueDiscItem, the IPv4 header is kept out of the packet while the packet is in the
 * switch: ECN marking edits the stored header and AddHeader() serializes it once, when the
 * packet leaves. The item also carries what the switch learned on arrival: ingress port,
 * priority, the flow's 5-tuple and its ECMP hash.
 */
class RdmaQueueDiscItem : public QueueDiscItem
{
public:
    /**
     * \brief Create an item.
     * \param p the packet without its IPv4 header
     * \param header the packet's IPv4 header
     * \param tuple the flow's 5-tuple
     * \param inPort the switch port the packet arrived on
     * \param priority the PFC priority it travels in
     */
    RdmaQueueDiscItem(Ptr<Packet> p,
                      const Ipv4Header& header,
                      const RdmaFiveTuple& tuple,
                      uint32_t inPort,
                      uint8_t priority);
    ~RdmaQueueDiscItem() override;

    RdmaQueueDiscItem() = delete;
    RdmaQueueDiscItem(const RdmaQueueDiscItem&) = delete;
    RdmaQueueDiscItem& operator=(const RdmaQueueDiscItem&) = delete;

    /**
     * \brief Size of the IP packet (header included).
     * \return bytes
     */
    uint32_t GetSize() const override;

    /**
     * \brief Put the (possibly re-marked) IPv4 header back on the packet.
     */
    void AddHeader() override;

    /**
     * \brief Set ECN Congestion Experienced if the packet is ECN-capable.
     * \return true if the packet was marked (or already carried CE)
     */
    bool Mark() override;

    /**
     * \brief Whether the packet carries ECN Congestion Experienced.
     * \return true if CE
     */
    bool IsCe() const;

    void Print(std::ostream& os) const override;
    bool GetUint8Value(Uint8Values field, uint8_t& value) const override;

    /**
     * \brief The stored IPv4 header.
     * \return the header
     */
    const Ipv4Header& GetHeader() const;

    /**
     * \brief The flow's 5-tuple.
     * \return the tuple
     */
    const RdmaFiveTuple& GetFiveTuple() const;

    /**
     * \brief The port the packet arrived on.
     * \return the port index
     */
    uint32_t GetIngressPort() const;

    /**
     * \brief The PFC priority of the packet.
     * \return 0..7
     */
    uint8_t GetPriority() const;

private:
    Ipv4Header m_header;
    RdmaFiveTuple m_tuple;
    uint32_t m_inPort;
    uint8_t m_priority;
    uint32_t m_size; //!< packet + IPv4 header bytes, computed once
};

} // namespace ns3

#endif /* RDMA_QUEUE_DISC_ITEM_H */

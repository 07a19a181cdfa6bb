/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_QUEUE_DISC_ITEM_H
#define RDMA_QUEUE_DISC_ITEM_H

#include "ns3/int-header.h"
#include "ns3/ipv4-header.h"
#include "ns3/queue-item.h"
#include "ns3/rdma-flow-id.h"

#include <optional>

namespace ns3
{

/**
 * \ingroup dcon-switch
 * \brief A packet inside a switch, with its headers parsed once on arrival.
 *
 * The IPv4 header stays on the packet while it is in the switch (the switch reads the fields it
 * needs from the bytes, see ParseIpv4): only the TOS byte is kept here. Mark() changes the stored
 * ECN bits, and AddHeader(), called when the packet leaves, rewrites the header on the packet
 * only if the mark changed it, so unmarked packets cross a switch without their header being
 * deserialized or serialized. The item also carries what the switch learned on arrival: ingress
 * port, priority and the flow's 5-tuple.
 */
class RdmaQueueDiscItem : public QueueDiscItem
{
public:
    /**
     * \brief Create an item from a packet that starts with its IPv4 header.
     * \param p the IP packet (IPv4 header included)
     * \param tos the header's TOS byte (DSCP and ECN)
     * \param tuple the flow's 5-tuple
     * \param inPort the switch port the packet arrived on
     * \param priority the PFC priority it travels in
     */
    RdmaQueueDiscItem(
        Ptr<Packet> p, uint8_t tos, const RdmaFiveTuple& tuple, uint32_t inPort, uint8_t priority);

    /// Fields of an IPv4 packet a switch forwards on (plain values: a switch reads them for
    /// every packet, and ns-3's Ipv4Address is built only where a 5-tuple is asked for).
    struct Ipv4Fields
    {
        uint32_t src{0};     //!< source address (host order)
        uint32_t dst{0};     //!< destination address (host order)
        uint16_t sport{0};   //!< UDP source port (0 unless UDP)
        uint16_t dport{0};   //!< UDP destination port (0 unless UDP)
        uint8_t protocol{0}; //!< IP protocol number
        uint8_t tos{0};      //!< TOS byte (DSCP << 2 | ECN)
        /// A RoCEv2 packet that is not an ACK with the BTH INT bit set: switch egress ports
        /// append an INT hop record to it (AddIntHop).
        bool collectsHops{false};

        /**
         * \brief The flow's 5-tuple.
         * \return addresses, ports and protocol
         */
        RdmaFiveTuple Tuple() const;
    };

    /**
     * \brief Read the fields a switch needs from the first bytes of an IPv4 packet, without
     * deserializing its headers (ports are read for UDP only, 0 otherwise; for RoCEv2, the
     * BTH's opcode and INT bit).
     * \param p the IP packet
     * \param fields filled in
     * \return false if the packet is too short or not IPv4 with a 20-byte header
     */
    static bool ParseIpv4(const Ptr<const Packet>& p, Ipv4Fields& fields);

    /**
     * \brief Create an item from a packet that starts with its IPv4 header, with the fields
     * ParseIpv4 read from it.
     * \param p the IP packet (IPv4 header included)
     * \param fields its fields (TOS byte and 5-tuple)
     * \param inPort the switch port the packet arrived on
     * \param priority the PFC priority it travels in
     */
    RdmaQueueDiscItem(Ptr<Packet> p, const Ipv4Fields& fields, uint32_t inPort, uint8_t priority);
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
     * \brief Make the packet's IPv4 header carry the stored TOS byte (rewritten only if Mark()
     * changed it). Called once, when the packet leaves the queue.
     */
    void AddHeader() override;

    /**
     * \brief Mark the packet as one that collects INT hop records (Ipv4Fields::collectsHops).
     * \param collects the new value
     */
    void SetCollectsHops(bool collects);

    /**
     * \brief Whether the packet collects INT hop records.
     * \return true if a switch port appends a record as it leaves
     */
    bool CollectsHops() const;

    /**
     * \brief Append an INT hop record to the packet's IntHeader (after its BTH) as it leaves,
     * and write the stored TOS byte with it (the work of AddHeader() too). The packet grows by
     * IntHeader::HOP_BYTES unless it already carries IntHeader::MAX_HOPS records; the IPv4
     * and UDP lengths follow. GetSize() keeps the size on arrival (what the MMU admitted).
     * Only for packets that CollectsHops().
     * \param hop the record of the egress port
     */
    void AddIntHop(const IntHop& hop);

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
     * \brief The packet's IPv4 header, with the stored (possibly re-marked) ECN bits.
     * \return the header (deserialized on each call)
     */
    Ipv4Header GetHeader() const;

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
     * \brief The packet (QueueItem::GetPacket without a call into ns-3's library and a
     * reference count).
     * \return the packet, alive as long as the item
     */
    Packet*
    PeekPacket() const
    {
        return m_packet;
    }

    /**
     * \brief GetSize() without a virtual call: the IP packet's bytes on arrival.
     * \return bytes
     */
    uint32_t
    GetArrivalSize() const
    {
        return m_size;
    }

    /**
     * \brief The PFC priority of the packet.
     * \return 0..7
     */
    uint8_t GetPriority() const;

private:
    uint8_t m_tos;              //!< TOS byte, with the current ECN bits
    bool m_remarked{false};     //!< Mark() changed the ECN bits: AddHeader() must rewrite them
    bool m_collectsHops{false}; //!< a switch port appends an INT hop record (AddIntHop)
    Ipv4Fields m_fields;        //!< addresses, ports, protocol (m_tos holds the TOS byte)
    mutable std::optional<RdmaFiveTuple> m_tuple; //!< built from m_fields when first asked for
    uint32_t m_inPort;
    uint8_t m_priority;
    uint32_t m_size;  //!< IP packet bytes on arrival (header included): GetSize() without a call
    Packet* m_packet; //!< the packet QueueItem holds (PeekPacket)
};

} // namespace ns3

#endif /* RDMA_QUEUE_DISC_ITEM_H */

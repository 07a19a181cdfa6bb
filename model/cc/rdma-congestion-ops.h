/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef RDMA_CONGESTION_OPS_H
#define RDMA_CONGESTION_OPS_H

#include "ns3/object.h"
#include "rdma-flow-state.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-cc
 * \brief Interface of a pluggable RDMA congestion-control algorithm.
 *
 * Modelled on TcpCongestionOps: one instance per queue pair, created by the NIC from an
 * ObjectFactory whose TypeId is the NIC's "CongestionControl" attribute. An instance plays
 * either the sender role (Init, OnSent, OnAck, OnNack, OnCnp, OnCnm) for the QP that sends a
 * flow, or the receiver role (InitReceiver, OnDataReceived) for the QP that receives it.
 * Algorithms keep their private variables and timers in the subclass; the shared state
 * (rate, window) lives in RdmaFlowState. Feedback arrives already parsed.
 */
class RdmaCongestionOps : public Object
{
public:
    /**
     * \brief Callback the receiver role uses to send a CNP for its flow.
     */
    typedef Callback<void, const RdmaCnpInfo&> SendCnpCallback;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    ~RdmaCongestionOps() override;

    /**
     * \brief The algorithm's short name, as registered in RdmaCcRegistry (--cc).
     * \return e.g. "dcqcn"
     */
    virtual std::string GetName() const = 0;

    // ---------------------------------------------------------------- sender role
    /**
     * \brief Called once when the flow starts. The default sets rate and target rate to the
     * flow's start rate (RdmaFlowState::m_startRate; the line rate unless the flow asked for
     * another, 0 also meaning the line rate).
     * \param flow the flow's state
     */
    virtual void Init(Ptr<RdmaFlowState> flow);

    /**
     * \brief A data packet of the flow was handed to the device.
     * \param flow the flow's state
     * \param bytes payload bytes of the packet
     */
    virtual void OnSent(Ptr<RdmaFlowState> flow, uint32_t bytes);

    /**
     * \brief An ACK arrived.
     * \param flow the flow's state
     * \param ack what the ACK says
     */
    virtual void OnAck(Ptr<RdmaFlowState> flow, const RdmaAckInfo& ack);

    /**
     * \brief A NACK arrived (a gap was seen at the receiver; the NIC goes back N).
     * \param flow the flow's state
     */
    virtual void OnNack(Ptr<RdmaFlowState> flow);

    /**
     * \brief A Congestion Notification Packet arrived from the receiver.
     * \param flow the flow's state
     * \param cnp what the CNP says
     */
    virtual void OnCnp(Ptr<RdmaFlowState> flow, const RdmaCnpInfo& cnp);

    /**
     * \brief A DCON Congestion Notification Message arrived from a switch.
     *
     * The default ignores it: only DCON reacts to CNMs.
     * \param flow the flow's state
     * \param cnm what the CNM says
     * \return true if the CNM was applied (changed the flow's rate control), false if it was
     * ignored (the NIC reports which in its CnmReceived trace)
     */
    virtual bool OnCnm(Ptr<RdmaFlowState> flow, const RdmaCnmInfo& cnm);

    /**
     * \brief The flow finished or was torn down: cancel every timer.
     */
    virtual void Stop();

    // -------------------------------------------------------------- receiver role
    /**
     * \brief Whether this algorithm uses RTT samples (RdmaAckInfo::rtt). When true, the NIC
     * remembers the send time of every data packet of the flow and measures the RTT from the
     * ACK that acknowledges it (not for retransmitted packets: Karn's rule). Default false.
     * \return true to get RTT samples
     */
    virtual bool WantsRttSamples() const;

    /**
     * \brief Whether this algorithm uses INT hop records (RdmaAckInfo::hops). When true, the
     * NIC sets the BTH INT bit on every data packet of the flow (an IntHeader follows the BTH,
     * 4 bytes plus 8 per switch egress port the packet leaves), and the receiver copies the
     * records into the ACK. Default false: data packets carry no INT bytes.
     * \return true to get hop records
     */
    virtual bool WantsHopRecords() const;

    /**
     * \brief Called once when the receiver side of a flow is created.
     * \param rx the receiver state
     * \param sendCnp how to send a CNP to the flow's sender
     */
    virtual void InitReceiver(Ptr<RdmaRxFlowState> rx, SendCnpCallback sendCnp);

    /**
     * \brief A data packet of the flow arrived at the receiver. The default sends nothing.
     * \param rx the receiver state
     * \param pkt what arrived
     */
    virtual void OnDataReceived(Ptr<RdmaRxFlowState> rx, const RdmaRxPacketInfo& pkt);

    /**
     * \brief Map a short algorithm name ("dcqcn", "none", ...: RdmaCcRegistry) or the TypeId
     * name of any RdmaCongestionOps subclass with a constructor to a TypeId.
     *
     * \throws std::invalid_argument naming \p name and listing the registered short names if
     * \p name is unknown.
     * \param name the name given by the user (e.g. on the command line)
     * \return the TypeId of the algorithm
     */
    static TypeId LookupTypeId(const std::string& name);

    /**
     * \brief An attribute (the algorithm's own or one it inherits) that the algorithm reads
     * in some of its modes only: an attribute chooses the mode (DCON's Sender), and in the
     * other modes the attribute changes nothing.
     */
    struct ModalAttribute
    {
        std::string attribute;           //!< e.g. "RateIncreaseInterval"
        std::string mode;                //!< the attribute that chooses the mode, e.g. "Sender"
        std::vector<std::string> readIn; //!< the mode's values that read it, e.g. {"Dcqcn"}
    };

    /**
     * \brief The attributes this algorithm reads in some of its modes only (see
     * ModalAttribute). Every attribute not listed is read whatever the mode. The default: none.
     * \return the declarations
     */
    virtual std::vector<ModalAttribute> GetModalAttributes() const;

    /// An attribute this object does not read in its mode (GetUnreadAttributes).
    struct UnreadAttribute
    {
        std::string attribute;            //!< e.g. "RateIncreaseInterval"
        std::string inUse;                //!< the mode in use, e.g. "Sender=Paper"
        std::vector<std::string> readers; //!< the modes that read it, e.g. {"Sender=Dcqcn"}
    };

    /**
     * \brief The attributes that this object, in the modes its attributes choose, does not read
     * (GetModalAttributes), each with the modes that do.
     * \return them, in declaration order
     */
    std::vector<UnreadAttribute> GetUnreadAttributes() const;

    /**
     * \brief Refuse the attributes the user gave on the command line (IsUserAttribute) that
     * this object, in its modes, does not read: such a value would be recorded and change
     * nothing.
     * \throws std::invalid_argument "--Owner::Attr: TypeId with Mode=Value does not read Attr
     * (Mode=Other does) ..." for the first one
     */
    void RefuseUnreadUserAttributes() const;

protected:
    /**
     * \brief Refuse a bad attribute value of an algorithm: throws std::invalid_argument
     * "<Class>: <TypeId name>::<attr> must be <rule>, got <value>".
     * \param tid the algorithm's type
     * \param attr the attribute's name
     * \param value the bad value as text
     * \param rule what it must be
     */
    [[noreturn]] static void RejectAttribute(TypeId tid,
                                             const std::string& attr,
                                             const std::string& value,
                                             const std::string& rule);

    /// Drops the CNP callback: the NIC binds it to the receiver's queue pair, which holds this
    /// object, so keeping it would make a reference cycle.
    void DoDispose() override;

    SendCnpCallback m_sendCnp; //!< set by InitReceiver
};

/**
 * \ingroup dcon-cc
 * \brief No congestion control: every flow sends at line rate (for PFC-only runs).
 */
class RdmaNoCc : public RdmaCongestionOps
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    std::string GetName() const override;
};

} // namespace ns3

#endif /* RDMA_CONGESTION_OPS_H */

/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef SWITCH_MMU_H
#define SWITCH_MMU_H

#include "ns3/object.h"
#include "ns3/queue-size.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon
 * \brief The error of SwitchMmu::Configure when the reserved and headroom bytes every port
 * sets aside do not fit in BufferSize: a std::invalid_argument of its own type, so that a caller
 * that can name the setting to change (e.g. a program's --bufferSize) recognises it without
 * reading the message. RdmaFabricHelper keeps the type when it adds the switch to the message.
 */
class BufferTooSmallError : public std::invalid_argument
{
public:
    using std::invalid_argument::invalid_argument;
};

/**
 * \ingroup dcon-switch
 * \brief Memory management unit of a shared-buffer switch: ingress accounting per (port,
 * priority), admission, and 802.1Qbb PFC pause / resume decisions.
 *
 * The switch calls Admit() when a packet arrives (before enqueuing it on an egress queue) and
 * Release() when the packet leaves the switch (or is dropped after admission). The MMU does not
 * see packets, only (ingress port, priority, bytes); it never schedules events.
 *
 * \par Buffer layout (PFC on)
 * \verbatim
   BufferSize
   +-----------------------------+----------------------------------+----------------------+
   | reserved                    | shared pool                      | headroom             |
   | nPorts x nPrio x Reserved   | BufferSize - reserved - headroom | nPorts x Headroom    |
   | (guaranteed per port,prio)  | (used by everybody, first come)  | (per ingress port,   |
   |                             |                                  |  shared by its prios)|
   +-----------------------------+----------------------------------+----------------------+
   \endverbatim
 * With PFC off there is no headroom: shared pool = BufferSize - nPorts x nPrio x Reserved.
 *
 * \par Accounting
 * For every (ingress port p, priority c) the MMU keeps reserved(p,c), shared(p,c) and
 * headroom(p,c) bytes; per port it keeps headroomUsed(p) = sum over c of headroom(p,c), and
 * globally sharedUsed = sum of shared(p,c) and the total. The three parts partition the buffer,
 * so the total can never exceed BufferSize (checked again on every admission).
 *
 * \par Admission (Admit)
 * 1. The bytes fill reserved(p,c) up to Reserved; a packet that only partly fits is split, the
 *    rest continues with step 2 (bytes are fungible: only counts are kept).
 * 2. PFC on and (p,c) paused: the rest goes to the headroom of port p if
 *    headroomUsed(p) + rest <= Headroom, else the whole packet is dropped (HEADROOM_FULL).
 * 3. Otherwise the rest goes to the shared pool if sharedUsed + rest <= pool size; if not, with
 *    PFC on it goes to headroom as in step 2, with PFC off the packet is dropped (BUFFER_FULL).
 *    A dropped packet leaves no trace in the accounting (no partial admission).
 * 4. PFC on and (p,c) not paused: the MMU pauses (p,c) and returns sendPause = true when
 *    - STATIC: reserved(p,c) + shared(p,c) >= XOff;
 *    - DYNAMIC: shared(p,c) > 0 and shared(p,c) >= T, T = floor(Alpha x (pool - sharedUsed))
 *      evaluated after the admission (reserved bytes are guaranteed and do not count against T);
 *    - or, in both modes, headroom(p,c) > 0 (the pool was full, so the packet had to use
 *      headroom: without a PAUSE the headroom would overflow).
 *
 * With PFC off, a packet is dropped only when the buffer really is full (its (p,c) reserved part
 * and the shared pool cannot hold it). The dynamic threshold is not used to drop packets: that
 * keeps the lossy mode a plain shared buffer, and per-queue fairness is the egress queue disc's
 * business.
 *
 * \par Resume (Release)
 * Bytes leave headroom(p,c) first, then shared(p,c), then reserved(p,c). A paused (p,c) resumes
 * (Release returns true, once) when headroom(p,c) == 0 and
 * - STATIC: reserved(p,c) + shared(p,c) <= XOn;
 * - DYNAMIC: shared(p,c) == 0 or shared(p,c) + ResumeOffset <= T (T after the release).
 *
 * The headroom condition is per (port, priority), not per port: with a per-port condition a
 * priority that drains completely while another priority of the same port still holds headroom
 * would never be released again and would stay paused for ever. Because every paused (p,c) holds
 * bytes, and its last Release brings it to zero, every pause is eventually followed by a resume.
 *
 * \par Sizing the headroom
 * Headroom must absorb what the upstream port still sends after the PAUSE is decided: about
 * 2 x link propagation delay x link rate (the PAUSE travelling up, the last bytes travelling
 * down) + 2 x MTU (a frame being serialised at each end) + upstream reaction time x link rate.
 * Example, 100 Gbps (12.5 GB/s), 1 us links, 1 KB MTU plus headers, ~1 us reaction:
 * 2 x 1 us x 12.5 GB/s = 25 KB, + 2 x ~1.1 KB, + 12.5 KB = about 40 KB. The default 100 KB
 * covers 100 Gbps links of up to about 3 us, or 40 Gbps links of up to about 9 us. Since it is
 * shared by all priorities of a port, add one MTU per additional lossless priority.
 *
 * \par Units
 * All sizes are bytes; QueueSize attributes must be in bytes ("320kB" = 320,000 bytes,
 * "320KiB" = 327,680 bytes). Configure() must be called after the attributes are set (it caches
 * them and sizes the tables from the real port and priority counts); it also resets the state.
 */
class SwitchMmu : public Object
{
public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /// \brief How the pause threshold is computed.
    enum ThresholdMode
    {
        STATIC,  //!< fixed XOff / XOn per (port, priority)
        DYNAMIC, //!< Alpha x (free shared pool), resume with ResumeOffset hysteresis
    };

    /// \brief Drop reason: the shared buffer (and reserved part) could not hold the packet.
    static constexpr const char* BUFFER_FULL = "BufferFull";
    /// \brief Drop reason: the ingress port's headroom could not hold the packet (PFC on).
    static constexpr const char* HEADROOM_FULL = "HeadroomFull";

    /// \brief Outcome of Admit().
    struct AdmitResult
    {
        bool admitted;          //!< true if the bytes are now accounted in the buffer
        const char* dropReason; //!< BUFFER_FULL or HEADROOM_FULL when not admitted, else nullptr
        bool sendPause; //!< true if (port, priority) just became paused: send PAUSE upstream
    };

    /**
     * \brief TracedCallback signature for pause and resume events.
     * \param [in] port ingress port
     * \param [in] priority priority (traffic class)
     */
    typedef void (*PfcTracedCallback)(uint32_t port, uint8_t priority);

    /**
     * \brief TracedCallback signature for drops.
     * \param [in] port ingress port
     * \param [in] priority priority (traffic class)
     * \param [in] bytes size of the dropped packet
     * \param [in] reason BUFFER_FULL or HEADROOM_FULL
     */
    typedef void (*DropTracedCallback)(uint32_t port,
                                       uint8_t priority,
                                       uint32_t bytes,
                                       const char* reason);

    SwitchMmu();
    ~SwitchMmu() override;

    /**
     * \brief Size the tables and cache the attributes; resets all accounting and pause state.
     * \param nPorts number of switch ports (> 0)
     * \param nPriorities number of priorities (1..8, 802.1Qbb has 8)
     * \throws BufferTooSmallError (a std::invalid_argument) if the reserved + headroom totals
     *         are larger than BufferSize
     * \throws std::invalid_argument on a zero count, more than 8 priorities, a QueueSize
     *         attribute in packets, or (STATIC with PFC on) XOff == 0 or XOn > XOff, or
     *         (DYNAMIC with PFC on) Alpha <= 0.
     */
    void Configure(uint32_t nPorts, uint32_t nPriorities = 8);

    /**
     * \brief Try to admit a packet that arrived on \p inPort with \p priority.
     * \param inPort ingress port
     * \param priority priority of the packet
     * \param bytes packet size in bytes
     * \return whether it was admitted, the drop reason if not, and whether to send a PAUSE
     * \throws std::invalid_argument if the port or priority is out of range (or Configure()
     *         was not called)
     */
    AdmitResult Admit(uint32_t inPort, uint8_t priority, uint32_t bytes);

    /**
     * \brief Remove bytes of a packet that leaves the switch (headroom first, then shared, then
     * reserved).
     * \param inPort ingress port the bytes were admitted on
     * \param priority priority they were admitted with
     * \param bytes number of bytes to release
     * \return true if (inPort, priority) was paused and must now be resumed (it is marked
     *         not paused)
     * \throws std::invalid_argument if the port or priority is out of range
     * \throws std::logic_error if more bytes are released than (inPort, priority) holds
     */
    bool Release(uint32_t inPort, uint8_t priority, uint32_t bytes);

    /**
     * \brief Whether (inPort, priority) is currently paused.
     * \param inPort ingress port
     * \param priority priority
     * \return true if paused
     */
    bool IsPaused(uint32_t inPort, uint8_t priority) const;

    /**
     * \brief All bytes held for (inPort, priority): reserved + shared + headroom.
     * \param inPort ingress port
     * \param priority priority
     * \return bytes
     */
    uint64_t GetIngressBytes(uint32_t inPort, uint8_t priority) const;

    /**
     * \brief Bytes of (inPort, priority) in its reserved part.
     * \param inPort ingress port
     * \param priority priority
     * \return bytes
     */
    uint64_t GetReservedBytes(uint32_t inPort, uint8_t priority) const;

    /**
     * \brief Bytes of (inPort, priority) in the shared pool.
     * \param inPort ingress port
     * \param priority priority
     * \return bytes
     */
    uint64_t GetSharedBytes(uint32_t inPort, uint8_t priority) const;

    /**
     * \brief Bytes of (inPort, priority) in the headroom of inPort.
     * \param inPort ingress port
     * \param priority priority
     * \return bytes
     */
    uint64_t GetHeadroomBytes(uint32_t inPort, uint8_t priority) const;

    /**
     * \brief Headroom bytes used by all priorities of \p inPort (limit: Headroom).
     * \param inPort ingress port
     * \return bytes
     */
    uint64_t GetPortHeadroomBytes(uint32_t inPort) const;

    /**
     * \brief Size of the shared pool (set by Configure()).
     * \return bytes
     */
    uint64_t GetSharedPoolSize() const;

    /**
     * \brief Bytes in use in the shared pool.
     * \return bytes
     */
    uint64_t GetSharedUsed() const;

    /**
     * \brief Bytes in use in the whole buffer (reserved + shared + headroom).
     * \return bytes
     */
    uint64_t GetTotalUsed() const;

    /**
     * \brief Highest GetTotalUsed() seen since Configure().
     * \return bytes
     */
    uint64_t GetMaxTotalUsed() const;

    /**
     * \brief Current pause threshold: XOff (STATIC) or floor(Alpha x (pool - sharedUsed))
     * (DYNAMIC).
     * \return bytes
     */
    uint64_t GetPauseThreshold() const;

    /**
     * \brief The largest pause threshold an ingress can have: XOff (STATIC) or the dynamic
     * threshold with an empty buffer, floor(Alpha x pool) (DYNAMIC); 0 if PFC is off.
     * \return bytes
     */
    uint64_t GetIngressPauseThresholdAtEmpty() const;

    /**
     * \brief Whether PFC is on (attribute PfcEnabled).
     * \return true if on
     */
    bool IsPfcEnabled() const;

    /**
     * \brief Number of packets dropped for \p reason since Configure().
     * \param reason BUFFER_FULL or HEADROOM_FULL
     * \return packets (0 for an unknown reason)
     */
    uint64_t GetDrops(const std::string& reason) const;

    /**
     * \brief Dropped packets per reason (ordered, so printing it is deterministic).
     * \return map from reason to packets
     */
    const std::map<std::string, uint64_t>& GetDropCounts() const;

    /**
     * \brief Number of ports given to Configure().
     * \return ports
     */
    uint32_t GetNPorts() const;

    /**
     * \brief Number of priorities given to Configure().
     * \return priorities
     */
    uint32_t GetNPriorities() const;

private:
    /// Bytes of one (port, priority).
    struct Counters
    {
        uint64_t reserved{0}; //!< bytes in the reserved part
        uint64_t shared{0};   //!< bytes in the shared pool
        uint64_t headroom{0}; //!< bytes in the port's headroom
        bool paused{false};   //!< PAUSE sent and not yet resumed
    };

    /**
     * \brief Index into m_counters, after range checks (inline: called twice per packet).
     * \param inPort ingress port
     * \param priority priority
     * \param what name of the calling method, for the error message
     * \return index
     */
    std::size_t
    Index(uint32_t inPort, uint8_t priority, const char* what) const
    {
        if (__builtin_expect(inPort >= m_nPorts || priority >= m_nPriorities, 0))
        {
            ThrowBadIndex(inPort, priority, what);
        }
        return static_cast<std::size_t>(inPort) * m_nPriorities + priority;
    }

    /**
     * \brief Throw the error for a bad Index() call.
     * \param inPort ingress port
     * \param priority priority
     * \param what name of the calling method
     */
    [[noreturn]] void ThrowBadIndex(uint32_t inPort, uint8_t priority, const char* what) const;

    /**
     * \brief Count a drop, fire the trace, build the result.
     * \param inPort ingress port
     * \param priority priority
     * \param bytes packet size
     * \param reason drop reason
     * \return the AdmitResult for a drop
     */
    AdmitResult Drop(uint32_t inPort, uint8_t priority, uint32_t bytes, const char* reason);

    /**
     * \brief Current dynamic threshold floor(Alpha x (pool - sharedUsed)).
     * \return bytes
     */
    uint64_t DynamicThreshold() const;

    // Attributes
    QueueSize m_bufferSize;   //!< total buffer
    bool m_pfcEnabled;        //!< PFC on/off
    ThresholdMode m_mode;     //!< STATIC or DYNAMIC
    QueueSize m_xoff;         //!< static pause threshold
    QueueSize m_xon;          //!< static resume threshold
    double m_alpha;           //!< dynamic threshold factor
    QueueSize m_resumeOffset; //!< dynamic resume hysteresis
    QueueSize m_headroom;     //!< headroom per ingress port
    QueueSize m_reserved;     //!< reserved bytes per (port, priority)

    // Cached by Configure()
    uint32_t m_nPorts{0};        //!< number of ports
    uint32_t m_nPriorities{0};   //!< number of priorities
    uint64_t m_bufferBytes{0};   //!< BufferSize in bytes
    uint64_t m_xoffBytes{0};     //!< XOff in bytes
    uint64_t m_xonBytes{0};      //!< XOn in bytes
    uint64_t m_offsetBytes{0};   //!< ResumeOffset in bytes
    uint64_t m_headroomBytes{0}; //!< Headroom in bytes (0 when PFC is off)
    uint64_t m_reservedBytes{0}; //!< Reserved in bytes
    uint64_t m_poolBytes{0};     //!< shared pool size

    // State
    std::vector<Counters> m_counters;        //!< per (port, priority), index port x nPrio + prio
    std::vector<uint64_t> m_portHeadroom;    //!< headroom bytes used per port
    uint64_t m_sharedUsed{0};                //!< bytes in the shared pool
    uint64_t m_totalUsed{0};                 //!< bytes in the buffer
    uint64_t m_maxTotalUsed{0};              //!< peak of m_totalUsed
    std::map<std::string, uint64_t> m_drops; //!< dropped packets per reason

    TracedCallback<uint32_t, uint8_t> m_pauseTrace;                       //!< (p,c) paused
    TracedCallback<uint32_t, uint8_t> m_resumeTrace;                      //!< (p,c) resumed
    TracedCallback<uint32_t, uint8_t, uint32_t, const char*> m_dropTrace; //!< packet dropped
};

} // namespace ns3

#endif // SWITCH_MMU_H

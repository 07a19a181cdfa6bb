/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef POISSON_FLOW_GENERATOR_H
#define POISSON_FLOW_GENERATOR_H

#include "fabric-spec.h"
#include "flow-size-cdf.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup dcon-helper
 * \brief Generates a flow list: Poisson flow arrivals per host with sizes from a CDF, plus
 * optional Poisson incast events.
 *
 * Load is normalised to the host link: load = offered bytes per host per second x 8 / host
 * link rate. Each host starts flows as a Poisson process with rate
 * lambda = load x (1 - incastShare) x linkRate / (8 x cdf.GetMean()) flows per second, each to
 * a destination drawn uniformly among the other hosts, with a size drawn from the CDF and
 * rounded to whole bytes, at least 1 (FlowSizeCdf::ToBytes; the rounding changes the mean by
 * less than a byte).
 *
 * Incast (off unless SetIncast is called with a share > 0): events occur fabric-wide as a
 * Poisson process with rate share x load x nHosts x linkRate / (8 x senders x bytes) per
 * second; each picks a receiver uniformly among the hosts and \c senders distinct senders
 * uniformly among the other hosts, and every sender starts one flow of \c bytes to the
 * receiver at the event time. Incast then carries \c share of the offered bytes and the
 * Poisson flows the rest, so the total offered host-link load stays \c load.
 *
 * For a non-oversubscribed leaf-spine with uniform destinations, the load on the leaf-spine
 * (core) links is about the host-link load times the fraction of flows that leave their leaf,
 * (nHosts - hostsPerLeaf) / (nHosts - 1).
 *
 * All randomness comes from five ns-3 random variable streams (see AssignStreams). Generate is
 * a pure function of the settings and, once AssignStreams was called, of the streams: it
 * rewinds the streams on each call, so calling it twice gives the same flows.
 */
class PoissonFlowGenerator
{
public:
    /**
     * \brief Create a generator.
     * \param hosts the host node ids (at least 2, no duplicates); flows run between them
     * \param hostLinkRate the rate of every host's link (> 0)
     * \param cdf the flow-size distribution
     * \throws std::invalid_argument on fewer than 2 hosts, a duplicate host or a zero rate
     */
    PoissonFlowGenerator(std::vector<uint32_t> hosts,
                         DataRate hostLinkRate,
                         const FlowSizeCdf& cdf);

    /**
     * \brief Set the offered load per host, as a fraction of the host link rate.
     * \param hostLinkLoad the load, in (0, 1]
     * \throws std::invalid_argument if the load is outside (0, 1]
     */
    void SetLoad(double hostLinkLoad);

    /**
     * \brief Set the window in which flows start.
     * \param start the first possible start time (>= 0)
     * \param duration the window length (> 0); flows start in [start, start + duration)
     * \throws std::invalid_argument on a negative start or a non-positive duration
     */
    void SetArrivalWindow(Time start, Time duration);

    /**
     * \brief Add Poisson incast events carrying a share of the offered load.
     * \param share the fraction of the offered bytes sent by incast, in [0, 1) (0 = no incast)
     * \param senders senders per event, in [1, nHosts - 1]
     * \param bytes bytes per sender per event (> 0)
     * \throws std::invalid_argument on a value out of range
     */
    void SetIncast(double share, uint32_t senders, uint64_t bytes);

    /**
     * \brief Set the priority group written into every flow (default 3).
     * \param pg the priority group
     */
    void SetPriorityGroup(uint32_t pg);

    /**
     * \brief Set the destination port written into every flow (default 100).
     * \param dport the port
     */
    void SetDport(uint16_t dport);

    /**
     * \brief Assign fixed random variable streams, making Generate reproducible.
     *
     * Streams stream .. stream + 4: flow inter-arrivals, destinations, flow sizes, incast
     * inter-arrivals, incast receiver and sender picks.
     * \param stream the first stream number (>= 0)
     * \return the number of streams used (5)
     * \throws std::invalid_argument on a negative stream
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * \brief Generate the flows.
     *
     * All flows whose start lies in [start, start + duration), sorted by (start, src, dst);
     * flows equal in all three keep their generation order (Poisson flows host by host in
     * the order of the host list, then incast flows event by event), so the order is fully
     * deterministic.
     * \return the flows
     * \throws std::invalid_argument if SetLoad or SetArrivalWindow was not called
     */
    std::vector<FlowSpec> Generate();

    /**
     * \brief The realised host-link load of a flow list over the arrival window.
     * \param flows the flows (usually from Generate)
     * \return sum of sizeBytes x 8 / (nHosts x linkRate x duration)
     * \throws std::invalid_argument if SetArrivalWindow was not called
     */
    double GetOfferedLoad(const std::vector<FlowSpec>& flows) const;

    /**
     * \brief The Poisson flow arrival rate of each host.
     * \return load x (1 - incastShare) x linkRate / (8 x mean flow size), in flows per second
     */
    double GetFlowArrivalRate() const;

    /**
     * \brief The fabric-wide incast event rate.
     * \return share x load x nHosts x linkRate / (8 x senders x bytes) per second (0 without
     *         incast)
     */
    double GetIncastEventRate() const;

private:
    /// Rewind the streams if AssignStreams was called.
    void RewindStreams();

    std::vector<uint32_t> m_hosts; //!< host node ids
    DataRate m_linkRate;           //!< host link rate
    FlowSizeCdf m_cdf;             //!< flow sizes
    double m_load{0};              //!< host-link load (0 = not set)
    Time m_start;                  //!< window start
    Time m_duration;               //!< window length (0 = not set)
    double m_incastShare{0};       //!< share of the bytes sent by incast
    uint32_t m_incastSenders{0};   //!< senders per incast event
    uint64_t m_incastBytes{0};     //!< bytes per sender per event
    uint32_t m_pg{3};              //!< priority group of every flow
    uint16_t m_dport{100};         //!< destination port of every flow
    int64_t m_stream{-1};          //!< first assigned stream (-1 = automatic)

    Ptr<ExponentialRandomVariable> m_interArrival;       //!< flow inter-arrival times
    Ptr<UniformRandomVariable> m_destination;            //!< flow destinations
    Ptr<FlowSizeRandomVariable> m_size;                  //!< flow sizes
    Ptr<ExponentialRandomVariable> m_incastInterArrival; //!< incast event inter-arrivals
    Ptr<UniformRandomVariable> m_incastPick;             //!< incast receiver and senders
};

} // namespace ns3

#endif /* POISSON_FLOW_GENERATOR_H */

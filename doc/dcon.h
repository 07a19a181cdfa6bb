/*
 * Copyright (c) 2026 dcon authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef DCON_H
#define DCON_H

// The module's Doxygen groups (ns-3 modules keep their top group in doc/<module>.h). No code.

/**
 * \defgroup dcon Lossless RDMA datacenter networks (dcon)
 *
 * This section documents the API of the dcon module: PFC-based lossless RoCEv2 fabrics in
 * ns-3. Ethernet links with IEEE 802.1Qbb priority flow control, shared-buffer switches with
 * static or dynamic PFC thresholds and headroom, ECN-marking egress queue disciplines, RDMA
 * NICs with pluggable congestion control (DCON, DCQCN, DCTCP, HPCC, InfiniBand CC, PCN, an RTT
 * PID controller with an LSTM predictor, Swift, TIMELY, none), leaf-spine and HPCC-format
 * topologies, FCT, PFC and queue statistics, and the DCON paper's scenarios. The model is
 * described in doc/ (doc/index.rst; sphinx-build -b html doc build/doc).
 */

/**
 * \defgroup dcon-wire Wire formats
 * \ingroup dcon
 *
 * Headers on the wire: RoCEv2 (BTH, AETH, the RoCEv2 UDP/IP encapsulation), PFC frames, CNPs,
 * DCON's switch CNMs and HPCC's INT header, and rate fields.
 */

/**
 * \defgroup dcon-link Links with priority flow control
 * \ingroup dcon
 *
 * Point-to-point Ethernet links whose devices send, honour and expire IEEE 802.1Qbb PAUSE
 * frames per priority (PfcNetDevice, PfcChannel).
 */

/**
 * \defgroup dcon-switch Switches
 * \ingroup dcon
 *
 * The shared-buffer switch: forwarding with ECMP, the MMU (admission, PFC thresholds,
 * headroom), the egress queue disciplines (the base class and RED-ECN) and their items.
 */

/**
 * \defgroup dcon-nic RDMA NICs
 * \ingroup dcon
 *
 * The RDMA NIC: queue pairs, go-back-N, ACK/NAK and CNP generation, per-priority scheduling
 * and pacing, flow ids and five-tuples.
 */

/**
 * \defgroup dcon-cc Congestion control
 * \ingroup dcon
 *
 * The congestion-control interface of the NIC (RdmaCongestionOps and the per-flow state it
 * works on), the registry of algorithms (--cc names and their switch queue disciplines); one
 * subgroup per algorithm.
 */

/**
 * \defgroup dcon-cc-dcon DCON
 * \ingroup dcon-cc
 *
 * DCON (Hu et al., Acta Electronica Sinica 2023): ECN plus switch congestion notification
 * messages (CNMs) in burst congestion; the sender, the queue discipline, the CNM generator.
 */

/**
 * \defgroup dcon-cc-dcqcn DCQCN
 * \ingroup dcon-cc
 *
 * DCQCN (Zhu et al., SIGCOMM 2015): rate control from CNPs.
 */

/**
 * \defgroup dcon-cc-dctcp DCTCP
 * \ingroup dcon-cc
 *
 * DCTCP (Alizadeh et al., SIGCOMM 2010) on RDMA: a window cut by the fraction of marked bytes.
 */

/**
 * \defgroup dcon-cc-hpcc HPCC
 * \ingroup dcon-cc
 *
 * HPCC (Li et al., SIGCOMM 2019): an INT-based window with a target utilization.
 */

/**
 * \defgroup dcon-cc-ibcc InfiniBand congestion control
 * \ingroup dcon-cc
 *
 * InfiniBand CC (IBA Vol. 1, Annex A10) with per-QP parameters, as in "Differentiated
 * transport-layer bandwidth partitioning for InfiniBand data centers": FECN at the switch,
 * BECN, injection-rate delays from a congestion control table.
 */

/**
 * \defgroup dcon-cc-pcn PCN
 * \ingroup dcon-cc
 *
 * PCN (Cheng et al., NSDI 2020): receive-rate CNPs and non-PAUSE ECN marking at the switch.
 */

/**
 * \defgroup dcon-cc-rttpid RTT-PID
 * \ingroup dcon-cc
 *
 * RTT-based PID rate control with an LSTM RTT predictor (the RTT-PID thesis, LSTM + PIDNN).
 */

/**
 * \defgroup dcon-cc-swift Swift
 * \ingroup dcon-cc
 *
 * Swift (Kumar et al., SIGCOMM 2020): a delay-based window.
 */

/**
 * \defgroup dcon-cc-timely TIMELY
 * \ingroup dcon-cc
 *
 * TIMELY (Mittal et al., SIGCOMM 2015): RTT-gradient rate control (and the patched variant).
 */

/**
 * \defgroup dcon-parallel Parallel runs
 * \ingroup dcon
 *
 * One fabric simulated on several MPI ranks (with ns-3's mpi module).
 */

/**
 * \defgroup dcon-util Utilities
 * \ingroup dcon
 *
 * Reading and writing attribute values and numbers as text, input files, enum accessors.
 */

/**
 * \defgroup dcon-helper Helpers
 * \ingroup dcon
 *
 * Installers and builders (fabrics, PFC, flows, leaf-spine and HPCC-format topologies, the
 * Poisson flow generator), monitors (FCT, PFC, queues, congestion spreading), input readers
 * and output files.
 */

/**
 * \defgroup dcon-experiments Experiments
 * \ingroup dcon
 *
 * The DCON paper's scenarios (the testbed burst, the large-scale experiments) and the frame
 * that the example programs share (command line, switch queue settings, output folders).
 */

#endif /* DCON_H */
